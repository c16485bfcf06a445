/**
 * The product feed for Google Merchant Center: RSS 2.0 with Google's `g:` attributes, one item per book for
 * sale. Every figure comes from the book's file, the stock the build read, the checkout's rate card and its
 * free-shipping rule, so the feed, the pages and the checkout agree.
 */
import { ALLOWED_COUNTRIES, CURRENCY, MERCHANT_FEED, SHIPPING } from '@/config/constants';
import { SITE } from '@/config/site';
import { applyFreeShipping } from '@/features/checkout/contract';
import { fallbackQuotes } from '@/features/checkout/fallback-quotes';
import { bookPagePath } from '@/lib/structured-data';
import { availabilityOf } from './offer-state';
import { offerAtBuild, type StockAtBuild } from './stock-at-build';

export const GOOGLE_NAMESPACE = 'http://base.google.com/ns/1.0';

/** What the feed states about one book, from its file. */
export interface FeedBook {
  id: string;
  title: string;
  summary: string;
  /** The file's body (Markdown), the long description; the summary when empty. */
  body?: string;
  publisher: string;
  price: number;
  isbn?: string;
  releaseDate?: Date;
  category: string;
  featured: boolean;
  weightGrams: number;
  /** The cover's address on the site. */
  image: string;
}

/** Text for an XML element: & < > and quotes escaped, and characters XML 1.0 cannot hold dropped. */
function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A book file's Markdown body as plain text: emphasis, links and headings unwrapped, paragraphs kept apart. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const amount = (value: number) => `${value.toFixed(2)} ${CURRENCY}`;

/**
 * Shipping one copy of the book (its weight in grams prices it abroad) to each country the checkout takes, per
 * service of the rate card, with the free-shipping rule applied to the book's price.
 */
export function feedShipping(price: number, weightGrams = 0) {
  return ALLOWED_COUNTRIES.flatMap((country) =>
    applyFreeShipping(fallbackQuotes(country, weightGrams), { country, subtotal: price }).map((quote) => ({
      country,
      service: quote.plan_name,
      price: amount(quote.price),
      handlingDays: SHIPPING.structuredData.handlingDays,
      // The delivery time is stated for Australia's standard service; abroad it is confirmed after purchase.
      ...(country === 'AU' && quote.service === 'standard' && { transitDays: SHIPPING.structuredData.transitDays }),
    })),
  );
}

const element = (name: string, value: string | number) => `<g:${name}>${xmlText(String(value))}</g:${name}>`;

function shippingElement(shipping: ReturnType<typeof feedShipping>[number]): string {
  return [
    '<g:shipping>',
    element('country', shipping.country),
    element('service', shipping.service),
    element('price', shipping.price),
    element('min_handling_time', shipping.handlingDays[0]),
    element('max_handling_time', shipping.handlingDays[1]),
    ...(shipping.transitDays ? [element('min_transit_time', shipping.transitDays[0]), element('max_transit_time', shipping.transitDays[1])] : []),
    '</g:shipping>',
  ].join('');
}

function item(book: FeedBook, site: URL, stock: StockAtBuild, now: Date): string {
  // The pages' rule: a pre-order before its release date (sold from its allocation), else by the stock the build read.
  const availability = availabilityOf(offerAtBuild(stock, book, now));
  const description = plainText(book.body ?? '') || book.summary;
  const lines = [
    element('id', book.id),
    element('title', book.title),
    element('description', description),
    element('link', new URL(bookPagePath(book), site).href),
    element('image_link', new URL(book.image, site).href),
    element('availability', availability),
    ...(availability === 'preorder' && book.releaseDate ? [element('availability_date', book.releaseDate.toISOString())] : []),
    element('price', amount(book.price)),
    element('brand', book.publisher),
    element('condition', 'new'),
    book.isbn ? element('gtin', book.isbn) : element('identifier_exists', 'no'),
    element('google_product_category', MERCHANT_FEED.googleProductCategory),
    element('product_type', book.category),
    element('shipping_weight', `${book.weightGrams} g`),
    ...feedShipping(book.price, book.weightGrams).map(shippingElement),
  ];
  return `    <item>\n${lines.map((line) => `      ${line}`).join('\n')}\n    </item>`;
}

export interface MerchantFeedInput {
  site: URL;
  books: readonly FeedBook[];
  stock: StockAtBuild;
  /** Build time: what decides whether a book is still a pre-order. */
  now?: Date;
}

export function merchantFeedXml({ site, books, stock, now = new Date() }: MerchantFeedInput): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:g="${GOOGLE_NAMESPACE}">`,
    '  <channel>',
    `    <title>${xmlText(SITE.name)}</title>`,
    `    <link>${xmlText(site.origin)}</link>`,
    `    <description>${xmlText(SITE.description)}</description>`,
    ...books.map((book) => item(book, site, stock, now)),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
