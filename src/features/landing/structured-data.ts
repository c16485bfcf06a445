/** The JSON-LD blocks of one landing page, composed only from the shared builders in lib/structured-data. */
import type { Thing, WithContext } from 'schema-dts';
import type { CollectionEntry } from 'astro:content';
import { bookProductJsonLd, breadcrumbJsonLd, faqJsonLd, localBusinessJsonLd, webPageJsonLd } from '@/lib/structured-data';

export const landingPath = (id: string) => `/${id}`;

interface BookCopy {
  title: string;
  summary: string;
  image: string;
}

export function landingJsonLd(site: URL, entry: CollectionEntry<'landing'>, book: BookCopy): WithContext<Thing>[] {
  const page = entry.data;
  const path = landingPath(entry.id);
  const faqs = page.blocks.flatMap((block) => (block.type === 'faq' ? block.items : []));
  const blocks: WithContext<Thing>[] = [
    webPageJsonLd(site, { title: page.title, description: page.description, path }),
    breadcrumbJsonLd(site, [{ name: page.breadcrumb, path }]),
  ];
  if (faqs.length > 0) blocks.push(faqJsonLd(faqs));
  if (page.localBusiness) blocks.push(localBusinessJsonLd(site, page.localBusiness.areaServed, page.localBusiness.shippingDetails));
  if (page.productSchema) {
    // The book is in stock and sold from /book; the page's market picks the AUD, USD or GBP price.
    blocks.push(bookProductJsonLd({ site, title: book.title, description: book.summary, image: book.image, path: '/book', inStock: true, market: page.market }));
  }
  return blocks;
}
