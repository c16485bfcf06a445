/**
 * JSON-LD builders (typed with schema-dts). Every product figure comes from the book's own file in the
 * catalog folder, so price and availability agree on every page; shipping comes from the checkout's rate
 * card and free-shipping rule, returns from the terms' rules.
 */
import type {
  BlogPosting,
  BreadcrumbList,
  FAQPage,
  LocalBusiness,
  MerchantReturnPolicy,
  MonetaryAmount,
  Offer,
  OfferShippingDetails,
  Organization,
  Product,
  QuantitativeValue,
  ShippingConditions,
  ShippingService,
  WebPage,
  WithContext,
} from 'schema-dts';
import { ALLOWED_COUNTRIES, CURRENCY, RETURNS, SHIPPING, type CountryCode } from '@/config/constants';
import { SITE, SOCIAL } from '@/config/site';
import { shopDay } from '@/lib/format';
import { productPath } from '@/lib/paths';
import { rateCard } from '@/lib/rate-card';
import { averageRating, BEST_RATING, type BookReview } from '@/lib/reviews';

type Market = 'AU' | 'US' | 'UK';

/** The facts of a book that its structured data states, as its file in the catalog folder gives them. */
export interface BookFacts {
  id: string;
  title: string;
  summary: string;
  price: number;
  ages: { min: number; max: number };
  audienceAges?: { min: number; max: number };
  isbn?: string;
  featured: boolean;
  reviews: ReadonlyArray<BookReview>;
}

/** Where a book is sold: /book for the featured title, its product page for the others. */
export const bookPagePath = (book: Pick<BookFacts, 'id' | 'featured'>) => (book.featured ? '/book' : productPath(book.id));

const absolute = (site: URL, path: string) => new URL(path, site).href;

const postalAddress = { '@type': 'PostalAddress', addressLocality: SITE.address.locality, addressRegion: SITE.address.region, addressCountry: SITE.address.country } as const;

/** Where each market's offer ships: the AUD offer is the shop itself (every country the checkout takes). */
const MARKET_DESTINATIONS: Record<Market, readonly CountryCode[]> = { AU: ALLOWED_COUNTRIES, US: ['US'], UK: ['GB'] };

const days = ([min, max]: readonly [number, number]): QuantitativeValue => ({ '@type': 'QuantitativeValue', minValue: min, maxValue: max, unitCode: 'DAY' });

/**
 * Shipping one copy to a country at the checkout's rate (charged in AUD). Transit is stated for
 * Australia only; abroad the checkout states the whole delivery time (content/shipping/delivery-estimates.json).
 */
const shippingRate = (country: CountryCode): MonetaryAmount => ({ '@type': 'MonetaryAmount', value: rateCard(country)[0]!.rate.price, currency: CURRENCY });

function offerShippingDetails(country: CountryCode): OfferShippingDetails {
  return {
    '@type': 'OfferShippingDetails',
    shippingRate: shippingRate(country),
    shippingDestination: { '@type': 'DefinedRegion', addressCountry: country },
    deliveryTime: {
      '@type': 'ShippingDeliveryTime',
      handlingTime: days(SHIPPING.structuredData.handlingDays),
      ...(country === 'AU' && { transitTime: days(SHIPPING.structuredData.transitDays) }),
    },
  };
}

/** The terms' returns: no refunds for change of mind (a voluntary return is at the publisher's discretion). */
function returnPolicy(site: URL): MerchantReturnPolicy {
  return {
    '@type': 'MerchantReturnPolicy',
    applicableCountry: [...ALLOWED_COUNTRIES],
    returnPolicyCountry: SITE.address.country,
    returnPolicyCategory: RETURNS.changeOfMindRefunded ? 'https://schema.org/MerchantReturnUnlimitedWindow' : 'https://schema.org/MerchantReturnNotPermitted',
    merchantReturnLink: absolute(site, RETURNS.termsPath),
  };
}

/** Shipping within Australia for an order of a value in `orderValue`. */
const australia = (orderValue: { minValue: number; maxValue?: number }, rate: MonetaryAmount): ShippingConditions => ({
  '@type': 'ShippingConditions',
  shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'AU' },
  orderValue: { '@type': 'MonetaryAmount', ...orderValue, currency: CURRENCY },
  shippingRate: rate,
  transitTime: { '@type': 'ServicePeriod', duration: days(SHIPPING.structuredData.transitDays) },
});

/** The whole rate card as the organisation's shipping policy, with the free-shipping rule by order value. */
function shippingService(): ShippingService {
  const abroad = ALLOWED_COUNTRIES.filter((country) => country !== 'AU');
  return {
    '@type': 'ShippingService',
    handlingTime: { '@type': 'ServicePeriod', duration: days(SHIPPING.structuredData.handlingDays) },
    shippingConditions: [
      australia({ minValue: 0, maxValue: SHIPPING.freeShippingThreshold - 0.01 }, shippingRate('AU')),
      australia({ minValue: SHIPPING.freeShippingThreshold }, { '@type': 'MonetaryAmount', value: 0, currency: CURRENCY }),
      ...abroad.map((country) => ({
        '@type': 'ShippingConditions' as const,
        shippingDestination: { '@type': 'DefinedRegion' as const, addressCountry: country },
        shippingRate: shippingRate(country),
      })),
    ],
  };
}

/** The publisher with its logo, social profiles, returns and shipping policy: the home page's Organization. */
export function organizationJsonLd(site: URL): WithContext<Organization> {
  return {
    '@context': 'https://schema.org',
    ...publisherOrganization(site),
    '@id': absolute(site, '/#organization'),
    description: SITE.description,
    sameAs: SOCIAL.map((network) => network.href),
    hasMerchantReturnPolicy: returnPolicy(site),
    hasShippingService: shippingService(),
  };
}

function publisherOrganization(site: URL): Exclude<Organization, string> {
  return {
    '@type': 'Organization',
    name: SITE.publisher,
    url: site.origin,
    logo: absolute(site, '/images/logo.svg'),
    email: SITE.email,
    address: postalAddress,
  };
}

/** An offer's price holds for a year from the build. */
function aYearFromNow(): string {
  const next = new Date();
  next.setFullYear(next.getFullYear() + 1);
  return next.toISOString().slice(0, 10);
}

/** Where a book's offer stands, by the shop's one rule (src/features/catalog/offer-state.ts). */
export type OfferAvailability = 'in_stock' | 'out_of_stock' | 'preorder';

/** A book's offer as its structured data states it: its availability, and its release day ('YYYY-MM-DD') while on pre-order. */
export interface StructuredOffer {
  availability: OfferAvailability;
  releaseDate?: string | undefined;
}

const SCHEMA_AVAILABILITY = {
  in_stock: 'https://schema.org/InStock',
  out_of_stock: 'https://schema.org/OutOfStock',
  preorder: 'https://schema.org/PreOrder',
} as const satisfies Record<OfferAvailability, string>;

export interface ProductJsonLdInput {
  site: URL;
  book: BookFacts;
  /** The cover's address. */
  image: string;
  /** Path of the page that sells it. */
  path: string;
  offer: StructuredOffer;
  /** Which destinations the offer's shipping details name: every country for AU, else the page's own. */
  market?: Market;
  /**
   * The reviews the page shows (`BookReviews.astro`), exactly: reviews and their rating are marked up only where
   * the visitor can read them, as Google's review guidelines ask. None: none marked up.
   */
  shownReviews?: readonly BookReview[];
}

export function bookProductJsonLd({ site, book, image, path, offer: stands, market = 'AU', shownReviews = [] }: ProductJsonLdInput): WithContext<Product> {
  const audience = book.audienceAges ?? book.ages;
  const rating = averageRating(shownReviews);
  const offer: Offer = {
    '@type': 'Offer',
    url: absolute(site, path),
    // The price of one copy as the checkout charges it (AUD) on every page: a US or UK page states no other currency.
    // Quantity prices stay on the page only: Google's merchant listings read one price per offer.
    price: book.price.toFixed(2),
    priceCurrency: CURRENCY,
    priceValidUntil: aYearFromNow(),
    availability: SCHEMA_AVAILABILITY[stands.availability],
    // A pre-order states the day it can first be had.
    ...(stands.availability === 'preorder' && stands.releaseDate && { availabilityStarts: stands.releaseDate }),
    itemCondition: 'https://schema.org/NewCondition',
    seller: publisherOrganization(site),
    shippingDetails: MARKET_DESTINATIONS[market].map(offerShippingDetails),
    hasMerchantReturnPolicy: returnPolicy(site),
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': absolute(site, `${bookPagePath(book)}#product`),
    name: book.title,
    description: book.summary,
    image: absolute(site, image),
    sku: book.id,
    ...(book.isbn?.length === 13 && { gtin13: book.isbn }),
    brand: { '@type': 'Brand', name: SITE.publisher },
    audience: { '@type': 'PeopleAudience', suggestedMinAge: audience.min, suggestedMaxAge: audience.max },
    offers: offer,
    ...(rating !== undefined && {
      aggregateRating: { '@type': 'AggregateRating', ratingValue: rating, bestRating: BEST_RATING, reviewCount: shownReviews.length },
      review: shownReviews.map((r) => ({
        '@type': 'Review' as const,
        author: { '@type': 'Person' as const, name: r.author },
        ...(r.title && { name: r.title }),
        ...(r.date && { datePublished: shopDay(new Date(r.date)) }),
        reviewBody: r.body,
        reviewRating: { '@type': 'Rating' as const, ratingValue: r.rating, bestRating: BEST_RATING },
      })),
    }),
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
    address: postalAddress,
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
          shippingRate: shippingRate('AU'),
          shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'AU', addressRegion: SHIPPING.sydneyStructuredData.region },
          deliveryTime: {
            '@type': 'ShippingDeliveryTime',
            handlingTime: days(SHIPPING.sydneyStructuredData.handlingDays),
            transitTime: days(SHIPPING.sydneyStructuredData.transitDays),
          },
        },
      },
    }),
  };
}

export function blogPostingJsonLd(site: URL, post: { title: string; excerpt: string; date: Date; modified?: Date; image: string; path: string }): WithContext<BlogPosting> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt,
    datePublished: post.date.toISOString().slice(0, 10),
    dateModified: (post.modified ?? post.date).toISOString().slice(0, 10),
    image: absolute(site, post.image),
    url: absolute(site, post.path),
    mainEntityOfPage: absolute(site, post.path),
    author: publisherOrganization(site),
    publisher: publisherOrganization(site),
    inLanguage: 'en-AU',
  };
}
