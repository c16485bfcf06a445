/**
 * JSON-LD builders (typed with schema-dts). Every product figure comes from the one product source,
 * `BOOK` in the constants module, so price and availability agree on every page.
 */
import type { BlogPosting, BreadcrumbList, FAQPage, LocalBusiness, Offer, Organization, Product, WebPage, WithContext } from 'schema-dts';
import { BOOK, SHIPPING } from '@/config/constants';
import { SITE } from '@/config/site';

export type Market = 'AU' | 'US' | 'UK';

const MARKET_CURRENCY: Record<Market, { currency: string; price: number }> = {
  AU: { currency: 'AUD', price: BOOK.price },
  US: { currency: 'USD', price: BOOK.regionalPrices.USD },
  UK: { currency: 'GBP', price: BOOK.regionalPrices.GBP },
};

/** The four published reviews and their aggregate, as the specification gives them. */
export const BOOK_REVIEWS = [
  { author: 'Sarah M.', body: 'My three-year-old asks for this book every night. The counting makes the faith stick!' },
  { author: 'Fr. Michael T.', body: 'A wonderful first catechism for little ones. I recommend it to every baptism family.' },
  { author: 'Jessica L.', body: 'Sturdy, bright and beautifully written. We gave it as a godparent gift and it was a hit.' },
  { author: 'Catherine R.', body: 'Perfect for our Catholic preschool classroom. The children love counting along.' },
] as const;

const absolute = (site: URL, path: string) => new URL(path, site).href;

export function publisherOrganization(site: URL): Organization {
  return {
    '@type': 'Organization',
    name: SITE.publisher,
    url: site.origin,
    logo: absolute(site, '/images/logo.svg'),
    email: SITE.email,
    address: { '@type': 'PostalAddress', addressLocality: 'Sydney', addressRegion: BOOK.publisherRegion, addressCountry: BOOK.country },
  };
}

function priceValidUntil(now: Date): string {
  const next = new Date(now);
  next.setFullYear(now.getFullYear() + 1);
  return next.toISOString().slice(0, 10);
}

export interface ProductJsonLdInput {
  site: URL;
  title: string;
  description: string;
  image: string;
  /** Path of the page that sells it. */
  path: string;
  inStock: boolean;
  market?: Market;
  /** Build time; price-valid-until is one year from it. */
  now?: Date;
}

export function bookProductJsonLd({ site, title, description, image, path, inStock, market = 'AU', now = new Date() }: ProductJsonLdInput): WithContext<Product> {
  const { currency, price } = MARKET_CURRENCY[market];
  const offer: Offer = {
    '@type': 'Offer',
    url: absolute(site, path),
    price: price.toFixed(2),
    priceCurrency: currency,
    priceValidUntil: priceValidUntil(now),
    availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    itemCondition: 'https://schema.org/NewCondition',
    seller: publisherOrganization(site),
    ...(market === 'AU' && {
      shippingDetails: {
        '@type': 'OfferShippingDetails',
        shippingRate: { '@type': 'MonetaryAmount', value: SHIPPING.structuredData.rate, currency: 'AUD' },
        shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'AU' },
        deliveryTime: {
          '@type': 'ShippingDeliveryTime',
          handlingTime: { '@type': 'QuantitativeValue', minValue: SHIPPING.structuredData.handlingDays[0], maxValue: SHIPPING.structuredData.handlingDays[1], unitCode: 'DAY' },
          transitTime: { '@type': 'QuantitativeValue', minValue: SHIPPING.structuredData.transitDays[0], maxValue: SHIPPING.structuredData.transitDays[1], unitCode: 'DAY' },
        },
      },
    }),
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': absolute(site, `/book#product`),
    name: title,
    description,
    image: absolute(site, image),
    sku: BOOK.sku,
    brand: { '@type': 'Brand', name: SITE.publisher },
    audience: { '@type': 'PeopleAudience', suggestedMinAge: BOOK.structuredDataAgeRange.min, suggestedMaxAge: BOOK.structuredDataAgeRange.max },
    offers: offer,
    aggregateRating: { '@type': 'AggregateRating', ratingValue: BOOK.rating.value, bestRating: BOOK.rating.best, reviewCount: BOOK.rating.count },
    review: BOOK_REVIEWS.map((r) => ({
      '@type': 'Review' as const,
      author: { '@type': 'Person' as const, name: r.author },
      reviewBody: r.body,
      reviewRating: { '@type': 'Rating' as const, ratingValue: BOOK.rating.value, bestRating: BOOK.rating.best },
    })),
  };
}

export function breadcrumbJsonLd(site: URL, trail: Array<{ name: string; path: string }>): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [{ name: 'Home', path: '/' }, ...trail].map((item, index) => ({
      '@type': 'ListItem' as const,
      position: index + 1,
      name: item.name,
      item: absolute(site, item.path),
    })),
  };
}

export function webPageJsonLd(site: URL, page: { title: string; description: string; path: string }): WithContext<WebPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    name: page.title,
    description: page.description,
    url: absolute(site, page.path),
    inLanguage: 'en-AU',
    isPartOf: { '@type': 'WebSite', name: SITE.name, url: site.origin },
    publisher: publisherOrganization(site),
  };
}

export function faqJsonLd(items: ReadonlyArray<{ question: string; answer: string }>): WithContext<FAQPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question' as const,
      name: item.question,
      acceptedAnswer: { '@type': 'Answer' as const, text: item.answer },
    })),
  };
}

/** The publisher as a local business serving a city; with `shippingDetails`, the Sydney delivery figures. */
export function localBusinessJsonLd(site: URL, areaServed: string, shippingDetails = false): WithContext<LocalBusiness> {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: SITE.publisher,
    description: SITE.description,
    url: site.origin,
    image: absolute(site, SITE.defaultOgImage),
    email: SITE.email,
    address: { '@type': 'PostalAddress', addressLocality: 'Sydney', addressRegion: BOOK.publisherRegion, addressCountry: BOOK.country },
    areaServed,
    ...(shippingDetails && {
      openingHoursSpecification: {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '09:00',
        closes: '17:00',
      },
      makesOffer: {
        '@type': 'Offer',
        itemOffered: { '@id': absolute(site, '/book#product') },
        shippingDetails: {
          '@type': 'OfferShippingDetails',
          shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'AU', addressRegion: SHIPPING.sydneyStructuredData.region },
          deliveryTime: {
            '@type': 'ShippingDeliveryTime',
            handlingTime: { '@type': 'QuantitativeValue', minValue: SHIPPING.sydneyStructuredData.handlingDays[0], maxValue: SHIPPING.sydneyStructuredData.handlingDays[1], unitCode: 'DAY' },
            transitTime: { '@type': 'QuantitativeValue', minValue: SHIPPING.sydneyStructuredData.transitDays[0], maxValue: SHIPPING.sydneyStructuredData.transitDays[1], unitCode: 'DAY' },
          },
        },
      },
    }),
  };
}

export function blogPostingJsonLd(site: URL, post: { title: string; excerpt: string; date: Date; image: string; path: string }): WithContext<BlogPosting> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt,
    datePublished: post.date.toISOString().slice(0, 10),
    image: absolute(site, post.image),
    url: absolute(site, post.path),
    mainEntityOfPage: absolute(site, post.path),
    author: publisherOrganization(site),
    publisher: publisherOrganization(site),
    inLanguage: 'en-AU',
  };
}
