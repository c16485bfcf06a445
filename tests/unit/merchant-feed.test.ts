/**
 * The Google Merchant Center feed, held to Google's product data specification: the RSS 2.0 form with the
 * `g:` namespace, the attributes every product needs (id, title, description, link, image_link,
 * availability, price), those some need (availability_date for a pre-order; gtin, or identifier_exists
 * "no" when there is none; brand; condition), and shipping per country in the form country:region:service:price.
 * Checked on the builder with made-up books and on the feed the build wrote to dist/.
 */
import { internationalPrice } from '@/lib/international-rates';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ALLOWED_COUNTRIES, MERCHANT_FEED, SHIPPING } from '@/config/constants';
import { isIsbn13 } from '@/features/catalog/book-schema';
import { type FeedBook, feedShipping, GOOGLE_NAMESPACE, merchantFeedXml } from '@/features/catalog/merchant-feed';
import { readBooks } from '@/features/catalog/book-files';
import { DIST_DIR } from '../audit/built-site';

type Item = Record<string, unknown>;

const AVAILABILITY = ['in_stock', 'out_of_stock', 'preorder', 'backorder'];
const CONDITION = ['new', 'refurbished', 'used'];
const PRICE = /^\d+(\.\d{1,2})? [A-Z]{3}$/;
const URL_ = /^https?:\/\/\S+$/;

/** A GTIN-8, -12, -13 or -14 with its check digit (the digits weighted 3, 1, 3, … from the right). */
function isGtin(value: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(value)) return false;
  const digits = [...value].map(Number).reverse();
  const sum = digits.slice(1).reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[0];
}

const asList = (value: unknown): Item[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]) as Item[];
const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The problems Google's specification would find in one item (by its `g:` attributes). */
function problemsOf(item: Item): string[] {
  const problems: string[] = [];
  const g = (name: string) => text(item[`g:${name}`]).trim();
  const need = (name: string, ok: (value: string) => boolean, rule: string) => {
    if (!g(name)) problems.push(`${name} missing`);
    else if (!ok(g(name))) problems.push(`${name} "${g(name)}": ${rule}`);
  };
  need('id', (v) => v.length <= 50, 'at most 50 characters');
  need('title', (v) => v.length <= 150, 'at most 150 characters');
  need('description', (v) => v.length <= 5000 && !/<[a-z/]/i.test(v), 'plain text, at most 5000 characters');
  need('link', (v) => URL_.test(v), 'an absolute http(s) URL');
  need('image_link', (v) => URL_.test(v), 'an absolute http(s) URL');
  need('availability', (v) => AVAILABILITY.includes(v), AVAILABILITY.join(', '));
  need('price', (v) => PRICE.test(v), 'a number and an ISO 4217 currency, e.g. "15.00 USD"');
  if (['preorder', 'backorder'].includes(g('availability'))) need('availability_date', (v) => !Number.isNaN(Date.parse(v)), 'an ISO 8601 date');
  need('condition', (v) => CONDITION.includes(v), CONDITION.join(', '));
  need('brand', (v) => v.length <= 70, 'at most 70 characters');
  if (g('gtin')) {
    if (!isGtin(g('gtin'))) problems.push(`gtin "${g('gtin')}": not a GTIN with a correct check digit`);
  } else if (g('identifier_exists') !== 'no') problems.push('without a gtin, identifier_exists must be "no"');
  need('google_product_category', (v) => /^\d+$/.test(v) || v.includes(' > '), "an id or a path of Google's product taxonomy");
  const shipping = asList(item['g:shipping']);
  if (shipping.length === 0) problems.push('shipping missing');
  for (const entry of shipping) {
    // Google's text form of the attribute: country:region:service:price.
    const form = [entry['g:country'], entry['g:region'], entry['g:service'], entry['g:price']].map(text).join(':');
    if (!/^[A-Z]{2}:[^:]*:[^:]*:\d+(\.\d{1,2})? [A-Z]{3}$/.test(form)) problems.push(`shipping "${form}" is not country:region:service:price`);
  }
  return problems;
}

function parseFeed(xml: string) {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const parsed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false }).parse(xml) as { rss: Item & { channel: Item } };
  return { rss: parsed.rss, items: asList(parsed.rss.channel.item) };
}

const site = new URL('https://shop.example');
const now = new Date('2026-11-24T00:00:00Z');
const book = (facts: Partial<FeedBook> = {}): FeedBook => ({
  id: 'a-book',
  title: 'A Book',
  summary: 'A short summary.',
  body: 'The *whole* description, with a [link](/book).\n\nA second paragraph.',
  publisher: 'Publisher',
  price: 22,
  category: "Children's Books",
  featured: false,
  weightGrams: 300,
  image: '/covers/a-book.png',
  ...facts,
});

describe('the Merchant Center feed builder', () => {
  it('writes RSS 2.0 in Google’s namespace, one valid item per book', () => {
    const books = [book({ id: 'featured', featured: true, isbn: '9781234567897' }), book({ id: 'second' })];
    const { rss, items } = parseFeed(merchantFeedXml({ site, books, stock: new Map(), now }));
    expect(rss['@_version']).toBe('2.0');
    expect(rss['@_xmlns:g']).toBe(GOOGLE_NAMESPACE);
    expect(rss.channel.title).toBeTruthy();
    expect(rss.channel.link).toBe(site.origin);
    expect(items).toHaveLength(2);
    expect(items.map(problemsOf)).toEqual([[], []]);
  });

  it('states each attribute as Google asks for it', () => {
    const { items } = parseFeed(merchantFeedXml({ site, books: [book({ id: 'featured', featured: true, isbn: '9781234567897' }), book()], stock: new Map(), now }));
    const [featured, other] = items as [Item, Item];
    expect(featured).toMatchObject({
      'g:id': 'featured',
      'g:title': 'A Book',
      'g:description': 'The whole description, with a link.\n\nA second paragraph.',
      'g:link': 'https://shop.example/book',
      'g:image_link': 'https://shop.example/covers/a-book.png',
      'g:availability': 'in_stock',
      'g:price': '22.00 AUD',
      'g:brand': 'Publisher',
      'g:condition': 'new',
      'g:gtin': '9781234567897',
      'g:google_product_category': String(MERCHANT_FEED.googleProductCategory),
    });
    expect(featured['g:identifier_exists']).toBeUndefined();
    expect(other['g:link']).toBe('https://shop.example/store/product/a-book');
    expect(other['g:gtin']).toBeUndefined();
    expect(other['g:identifier_exists']).toBe('no');
  });

  it('takes availability from the pages’ rule: sold out, in stock, a pre-order before its release', () => {
    const books = [book({ id: 'sold-out' }), book({ id: 'in-stock' }), book({ id: 'unread' }), book({ id: 'coming', releaseDate: new Date('2027-03-01') })];
    const stock = new Map([
      ['sold-out', 0],
      ['in-stock', 5],
      ['coming', 40],
    ]);
    const { items } = parseFeed(merchantFeedXml({ site, books, stock, now }));
    expect(items.map((item) => item['g:availability'])).toEqual(['out_of_stock', 'in_stock', 'in_stock', 'preorder']);
    expect(items[3]!['g:availability_date']).toBe('2027-03-01T00:00:00.000Z');
    expect(items.flatMap(problemsOf)).toEqual([]);
    // Before release it is sold from its pre-order allocation, not its stock: no printed copies is still a pre-order.
    const unprinted = parseFeed(merchantFeedXml({ site, books: [books[3]!], stock: new Map([['coming', 0]]), now })).items;
    expect(unprinted[0]!['g:availability']).toBe('preorder');
    // Released: sold from its stock.
    const released = parseFeed(merchantFeedXml({ site, books: [books[3]!], stock: new Map([['coming', 0]]), now: new Date('2027-03-02') })).items;
    expect(released[0]!['g:availability']).toBe('out_of_stock');
    expect(released[0]!['g:availability_date']).toBeUndefined();
  });

  it('escapes & < > and quotes in text, and the feed still parses to the same words', () => {
    const tricky = book({ title: 'Faith & Fun <for> "little" ones', body: 'Fish & chips < loaves > bread; "quoted" and \'single\'.', publisher: 'A & B' });
    const xml = merchantFeedXml({ site, books: [tricky], stock: new Map(), now });
    expect(xml).toContain('<g:title>Faith &amp; Fun &lt;for&gt; &quot;little&quot; ones</g:title>');
    const { items } = parseFeed(xml);
    const entities = new XMLParser({ processEntities: true, htmlEntities: false, parseTagValue: false }).parse(xml).rss.channel.item as Item;
    expect(entities['g:title']).toBe('Faith & Fun <for> "little" ones');
    expect(entities['g:brand']).toBe('A & B');
    expect(problemsOf(items[0]!)).toEqual([]);
  });

  it('ships to every country the checkout takes, at the rate card’s price, with the free-shipping rule', () => {
    const forOneCopy = feedShipping(22, 300);
    expect([...new Set(forOneCopy.map((s) => s.country))]).toEqual([...ALLOWED_COUNTRIES]);
    expect(forOneCopy.filter((s) => s.country === 'AU').map((s) => [s.service, s.price])).toEqual([
      [SHIPPING.fallback.domestic.name, `${SHIPPING.fallback.domestic.price.toFixed(2)} AUD`],
      [SHIPPING.fallback.express.name, `${SHIPPING.fallback.express.price.toFixed(2)} AUD`],
    ]);
    // Abroad, the card's International Standard and Express for one copy's weight.
    expect(forOneCopy.filter((s) => s.country === 'US').map((s) => [s.service, s.price])).toEqual([
      ['International Standard', `${internationalPrice('US', 'standard', 300).toFixed(2)} AUD`],
      ['International Express', `${internationalPrice('US', 'express', 300).toFixed(2)} AUD`],
    ]);
    // A book priced at the free-shipping threshold ships free in Australia by the standard service only.
    const atThreshold = feedShipping(SHIPPING.freeShippingThreshold).filter((s) => s.country === 'AU');
    expect(atThreshold.map((s) => s.price)).toEqual(['0.00 AUD', `${SHIPPING.fallback.express.price.toFixed(2)} AUD`]);
    expect(feedShipping(SHIPPING.freeShippingThreshold).find((s) => s.country === 'GB')!.price).not.toBe('0.00 AUD');
  });

  it('the specification check catches what Google would refuse', () => {
    const item: Item = {
      'g:id': 'x',
      'g:title': 'T',
      'g:description': 'D',
      'g:link': '/book',
      'g:image_link': 'https://a/b.png',
      'g:availability': 'available',
      'g:price': '22',
      'g:condition': 'new',
      'g:brand': 'B',
      'g:gtin': '9781234567890',
      'g:google_product_category': '784',
      'g:shipping': { 'g:country': 'Australia', 'g:price': '15.00 AUD' },
    };
    expect(problemsOf(item)).toEqual([
      'link "/book": an absolute http(s) URL',
      'availability "available": in_stock, out_of_stock, preorder, backorder',
      'price "22": a number and an ISO 4217 currency, e.g. "15.00 USD"',
      'gtin "9781234567890": not a GTIN with a correct check digit',
      'shipping "Australia:::15.00 AUD" is not country:region:service:price',
    ]);
    expect(problemsOf({ ...item, 'g:gtin': undefined, 'g:availability': 'preorder' })).toEqual(expect.arrayContaining(['availability_date missing', 'without a gtin, identifier_exists must be "no"']));
  });
});

describe('ISBN in a book file', () => {
  it('is an ISBN-13 with its check digit', () => {
    expect(isIsbn13('9781234567897')).toBe(true);
    expect(isIsbn13('9780306406157')).toBe(true);
    expect(isIsbn13('9781234567890')).toBe(false);
    expect(isIsbn13('0306406152')).toBe(false);
    expect(isIsbn13('1234567890123')).toBe(false);
  });
});

describe('the feed the build wrote', () => {
  const file = join(DIST_DIR, MERCHANT_FEED.path);
  const books = readBooks()
    .map((book) => book.id)
    .sort();

  it(`${MERCHANT_FEED.path} lists every book file, each valid`, () => {
    expect(existsSync(file), `${file} is missing: run npm run build`).toBe(true);
    const { rss, items } = parseFeed(readFileSync(file, 'utf8'));
    expect(rss['@_xmlns:g']).toBe(GOOGLE_NAMESPACE);
    expect(items.map((item) => item['g:id']).sort()).toEqual(books);
    for (const item of items) expect([String(item['g:id']), problemsOf(item)]).toEqual([String(item['g:id']), []]);
    for (const item of items) expect(asList(item['g:shipping']).map((s) => s['g:country'])).toEqual(expect.arrayContaining([...ALLOWED_COUNTRIES]));
  });
});
