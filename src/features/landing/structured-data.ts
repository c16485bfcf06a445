/** The JSON-LD blocks of one landing page, composed only from the shared builders in lib/structured-data. */
import type { Thing, WithContext } from 'schema-dts';
import type { CollectionEntry } from 'astro:content';
import { bookProductJsonLd, breadcrumbJsonLd, faqJsonLd, localBusinessJsonLd, webPageJsonLd, type BookFacts, type StructuredOffer } from '@/lib/structured-data';

export const landingPath = (id: string) => `/${id}`;

/** `book` is the featured book, `cover` its cover's address, `offer` where it stands at build. */
export function landingJsonLd(site: URL, entry: CollectionEntry<'landing'>, book: BookFacts, cover: string, offer: StructuredOffer = { availability: 'in_stock' }): WithContext<Thing>[] {
  const page = entry.data;
  const path = landingPath(entry.id);
  const faqs = page.blocks.flatMap((block) => (block.type === 'faq' ? block.items : []));
  const blocks: WithContext<Thing>[] = [webPageJsonLd(site, { title: page.title, description: page.description, path }), breadcrumbJsonLd(site, [{ name: page.breadcrumb, path }])];
  if (faqs.length > 0) blocks.push(faqJsonLd(faqs));
  if (page.localBusiness) blocks.push(localBusinessJsonLd(site, page.localBusiness.areaServed, page.localBusiness.shippingDetails));
  if (page.productSchema) {
    // The book is sold from /book at its AUD price; the page's market picks the destinations its shipping names.
    blocks.push(bookProductJsonLd({ site, book, image: cover, path: '/book', offer, market: page.market }));
  }
  return blocks;
}
