/**
 * The search-landing pages as built: every landing path exists with its own search metadata and
 * structured data, and no two pages share a paragraph of copy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { LANDING_PATHS } from '../helpers/landing-paths';

const DIST = process.env.LOCAL_DIST_DIR ?? 'dist';

/** What the content entry (content/landing/*.yaml) says the page must carry: its top-level keys, read plainly. */
interface Entry {
  pageType: string | undefined;
  market: string;
  productSchema: boolean;
  localBusiness: { areaServed: string | undefined; shippingDetails: boolean } | undefined;
  faqQuestions: number;
}
function readEntry(path: string): Entry {
  const yaml = readFileSync(join('content/landing', `${path.slice(1)}.yaml`), 'utf8');
  const value = (pattern: RegExp) => yaml.match(pattern)?.[1]?.trim();
  return {
    pageType: value(/^pageType:\s*"?([^"\n]+)"?/m),
    market: value(/^market:\s*"?([^"\n]+)"?/m) ?? 'AU',
    productSchema: value(/^productSchema:\s*(\S+)/m) !== 'false',
    localBusiness: /^localBusiness:/m.test(yaml) ? { areaServed: value(/^ {2}areaServed:\s*"?([^"\n]+)"?/m), shippingDetails: /^ {2}shippingDetails:\s*true/m.test(yaml) } : undefined,
    faqQuestions: yaml.match(/^\s+- question:/gm)?.length ?? 0,
  };
}

type JsonLd = Record<string, unknown> & { '@type': string };

/** The featured book as its file in the catalog says: what the checkout charges. */
function catalogBook(): { price: number } {
  const file = readFileSync('content/books/book-10-reasons.mdx', 'utf8');
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(file)?.[1] ?? '';
  const data = parseYaml(frontmatter) as { price: number };
  return { price: data.price };
}

/** Every node in the blocks that states a price or an amount of money (Offer, MonetaryAmount). */
function pricedNodes(value: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) pricedNodes(item, found);
  else if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if ('priceCurrency' in node || 'currency' in node || 'price' in node) found.push(node);
    for (const child of Object.values(node)) pricedNodes(child, found);
  }
  return found;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function decode(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&([a-z]+);/gi, (match, name: string) => ENTITIES[name.toLowerCase()] ?? match);
}
const textOf = (html: string) =>
  decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

interface BuiltPage {
  html: string;
  title: string;
  description: string;
  canonical: string;
  jsonLd: JsonLd[];
  main: string;
}

function readPage(path: string): BuiltPage {
  const html = readFileSync(join(DIST, `${path.slice(1)}.html`), 'utf8');
  const attr = (pattern: RegExp) => decode(html.match(pattern)?.[1] ?? '');
  return {
    html,
    title: textOf(html.match(/<title>([\s\S]*?)<\/title>/)?.[1] ?? ''),
    description: attr(/<meta name="description" content="([^"]*)"/),
    canonical: attr(/<link rel="canonical" href="([^"]*)"/),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1] ?? '') as JsonLd),
    main: html.match(/<main\b[\s\S]*?<\/main>/)?.[0] ?? '',
  };
}

/** Body-copy texts of a page: paragraphs, list items, definitions and FAQ questions longer than ~60 characters. */
function copyTexts(main: string): string[] {
  return [...main.matchAll(/<(p|li|dd|summary)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => textOf(m[2] ?? '')).filter((text) => text.length > 60);
}

const built = existsSync(join(DIST, 'index.html'));

describe.skipIf(!built)(`landing pages in ${DIST}/`, () => {
  it('there are 30 landing pages and content/landing has exactly one entry for each', () => {
    expect(LANDING_PATHS).toHaveLength(30);
    expect(new Set(LANDING_PATHS).size).toBe(30);
    for (const path of LANDING_PATHS) expect(existsSync(join('content/landing', `${path.slice(1)}.yaml`)), path).toBe(true);
  });

  const pages = new Map(LANDING_PATHS.filter((path) => existsSync(join(DIST, `${path.slice(1)}.html`))).map((path) => [path, readPage(path)]));

  it('every landing path is built', () => {
    expect(LANDING_PATHS.filter((path) => !pages.has(path))).toEqual([]);
  });

  it('each page has its own title and meta description', () => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const [path, page] of pages) {
      expect(page.title, path).not.toBe('');
      expect(page.description.length, path).toBeGreaterThanOrEqual(50);
      titles.add(page.title);
      descriptions.add(page.description);
    }
    expect(titles.size).toBe(pages.size);
    expect(descriptions.size).toBe(pages.size);
  });

  it('each page has a canonical URL of its own path, Open Graph tags and exactly one h1', () => {
    for (const [path, page] of pages) {
      expect(new URL(page.canonical).pathname, path).toBe(path);
      expect(page.html, path).toContain(`<meta property="og:url" content="${page.canonical}"`);
      expect(page.html, path).toMatch(/<meta property="og:title" content="[^"]+"/);
      expect(page.main.match(/<h1\b/g), path).toHaveLength(1);
    }
  });

  it('element ids are unique within each page (headings label their sections)', () => {
    for (const [path, page] of pages) {
      const ids = [...page.html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
      expect(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        path,
      ).toEqual([]);
    }
  });

  it('headings never skip a level', () => {
    for (const [path, page] of pages) {
      const levels = [...page.main.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
      expect(levels[0], path).toBe(1);
      for (let i = 1; i < levels.length; i++) expect((levels[i] ?? 0) - (levels[i - 1] ?? 0), `${path}: heading ${i}`).toBeLessThanOrEqual(1);
    }
  });

  it('each page marks <main> with its landing page type for analytics', () => {
    for (const [path, page] of pages) {
      expect(page.main, path).toContain(`data-landing-page-type="${readEntry(path).pageType}"`);
    }
  });

  it('structured data parses, with WebPage, BreadcrumbList (Home > page), FAQPage, LocalBusiness and Product as the entry says', () => {
    for (const [path, page] of pages) {
      const entry = readEntry(path);
      const types = page.jsonLd.map((block) => block['@type']);
      const expected = ['WebPage', 'BreadcrumbList'];
      if (entry.faqQuestions > 0) expected.push('FAQPage');
      if (entry.localBusiness) expected.push('LocalBusiness');
      if (entry.productSchema) expected.push('Product');
      expect(types, path).toEqual(expected);
      for (const block of page.jsonLd) expect(block['@context'], path).toBe('https://schema.org');

      const webPage = page.jsonLd.find((block) => block['@type'] === 'WebPage');
      expect(webPage?.url, path).toBe(page.canonical);

      const crumbs = page.jsonLd.find((block) => block['@type'] === 'BreadcrumbList')?.itemListElement as Array<{ name: string; item: string; position: number }>;
      expect(
        crumbs.map((c) => c.position),
        path,
      ).toEqual([1, 2]);
      expect(crumbs[0]?.name, path).toBe('Home');
      expect(new URL(crumbs[0]?.item ?? '').pathname, path).toBe('/');
      expect(crumbs[1]?.item, path).toBe(page.canonical);

      const faq = page.jsonLd.find((block) => block['@type'] === 'FAQPage');
      if (faq) {
        const questions = faq.mainEntity as Array<{ '@type': string; name: string; acceptedAnswer: { text: string } }>;
        expect(questions, path).toHaveLength(entry.faqQuestions);
        for (const q of questions) {
          expect(q['@type']).toBe('Question');
          expect(q.acceptedAnswer.text.length).toBeGreaterThan(0);
          // Each question in the structured data is visible on the page.
          expect(textOf(page.main), path).toContain(q.name);
        }
      }

      const business = page.jsonLd.find((block) => block['@type'] === 'LocalBusiness');
      if (business) {
        expect(business.areaServed, path).toBe(entry.localBusiness?.areaServed);
        expect(Boolean(business.makesOffer), `${path} shipping details`).toBe(Boolean(entry.localBusiness?.shippingDetails));
      }

      const product = page.jsonLd.find((block) => block['@type'] === 'Product');
      if (product) {
        const offers = product.offers as { availability: string };
        expect(offers.availability, path).toBe('https://schema.org/InStock');
      }
    }
  });

  it('every priced Offer and every amount in the structured data is the catalog’s, in AUD — US and UK pages too', () => {
    const book = catalogBook();
    let offers = 0;
    for (const [path, page] of pages) {
      for (const priced of pricedNodes(page.jsonLd)) {
        expect(priced.priceCurrency ?? priced.currency, `${path}: ${priced['@type']}`).toBe('AUD');
        if (priced['@type'] !== 'Offer') continue;
        offers++;
        expect(priced.price, `${path}: the Offer's price`).toBe(book.price.toFixed(2));
        // Quantity prices are the page's to show: Google's merchant listings read one price per Offer.
        expect(priced.priceSpecification, `${path}: the Offer's priceSpecification`).toBeUndefined();
      }
    }
    expect(offers).toBeGreaterThanOrEqual(LANDING_PATHS.filter((path) => readEntry(path).productSchema).length);
  });

  it('the words of the US and UK pages give prices in AUD only: no US dollar or pound price, no $ amount without AUD', () => {
    const abroad = [...pages].filter(([path]) => readEntry(path).market !== 'AU');
    expect(abroad.length).toBeGreaterThanOrEqual(2);
    for (const [path, page] of abroad) {
      const text = `${page.title} ${page.description} ${textOf(page.main)}`;
      expect(text, path).not.toMatch(/£\s?\d|\bUS\$|\d\s?(USD|GBP)\b|\b(USD|GBP)\s?\d/);
      for (const m of text.matchAll(/(A?\$)\s?\d+(?:\.\d{2})?(\s?AUD)?/g)) expect(m[1] === 'A$' || Boolean(m[2]), `${path}: ${m[0]}`).toBe(true);
    }
  });

  it('the Sydney page states the Sydney delivery figures (lead time 1-3, transit 1-5 days, NSW, weekday hours)', () => {
    const business = pages.get('/catholic-books-sydney')?.jsonLd.find((block) => block['@type'] === 'LocalBusiness');
    expect(business?.openingHoursSpecification).toMatchObject({ opens: '09:00', closes: '17:00' });
    const shipping = (business?.makesOffer as { shippingDetails: Record<string, unknown> } | undefined)?.shippingDetails;
    expect(shipping).toMatchObject({
      shippingDestination: { addressCountry: 'AU', addressRegion: 'NSW' },
      deliveryTime: { handlingTime: { minValue: 1, maxValue: 3 }, transitTime: { minValue: 1, maxValue: 5 } },
    });
  });

  it('no page offers the book as a pre-order', () => {
    for (const [path, page] of pages) expect(page.html.toLowerCase(), path).not.toMatch(/preorder|pre-order/);
  });

  it('no two pages share a paragraph of body copy', () => {
    const seen = new Map<string, string>();
    const shared: string[] = [];
    for (const [path, page] of pages) {
      for (const text of new Set(copyTexts(page.main))) {
        const other = seen.get(text);
        if (other && other !== path) shared.push(`${other} and ${path}: "${text.slice(0, 80)}…"`);
        else seen.set(text, path);
      }
    }
    expect(seen.size).toBeGreaterThan(pages.size * 5);
    expect(shared).toEqual([]);
  });

  it('the sitemap lists every landing page and robots.txt does not block them', () => {
    const sitemap = readFileSync(join(DIST, 'sitemap-0.xml'), 'utf8');
    const listed = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname));
    expect(LANDING_PATHS.filter((path) => !listed.has(path))).toEqual([]);
    const disallowed = [...readFileSync(join(DIST, 'robots.txt'), 'utf8').matchAll(/^Disallow:\s*(\S+)/gm)].map((m) => m[1] ?? '');
    for (const path of LANDING_PATHS)
      expect(
        disallowed.filter((rule) => path.startsWith(rule)),
        path,
      ).toEqual([]);
  });

  it('a landing page loads no JavaScript beyond the shared layout scripts', () => {
    // Every script and island of a page (JSON-LD aside), compared with a plain static page's: the layout's.
    const javascriptOf = (html: string) =>
      [
        ...[...html.matchAll(/<script\b(?![^>]*application\/ld\+json)([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => m[1]?.match(/\bsrc="([^"]+)"/)?.[1] ?? `inline:${m[2]}`),
        ...[...html.matchAll(/<astro-island\b[^>]*\bcomponent-url="([^"]+)"/g)].map((m) => `island:${m[1]}`),
      ].sort();
    const layout = javascriptOf(readPage('/about').html);
    for (const [path, page] of pages) {
      expect(javascriptOf(page.html), path).toEqual(layout);
      expect(page.main, path).not.toMatch(/<script\b(?![^>]*application\/ld\+json)|<astro-island\b/);
    }
  });
});
