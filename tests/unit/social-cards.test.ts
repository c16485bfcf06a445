/**
 * Social cards in the built site (dist/, which `npm test` builds first): every indexable page shares its
 * own 1200×630 PNG that exists in the build; pages search never lists keep the default image.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtPages, DIST_DIR } from '../audit/built-site';
import { cardTitle, metaProperty } from '../../src/features/social-card/integration';
import { SOCIAL_CARD, socialCardPath } from '../../src/features/social-card/card-path';
import { SITE } from '../../src/config/site';

const pages = builtPages(DIST_DIR);
const indexable = pages.filter((page) => !/<meta name="robots" content="noindex"/.test(page.html));
const metaName = (html: string, name: string) => html.match(new RegExp(`<meta name="${name}" content="([^"]*)"`))?.[1];

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('a social card per indexable page', () => {
  it('covers the home page, every landing page, every post and every product', () => {
    const kinds = new Set(indexable.map((page) => page.kind));
    for (const kind of ['home', 'landing', 'post', 'product', 'book', 'blog'] as const) expect(kinds).toContain(kind);
    expect(indexable.filter((page) => page.kind === 'landing').length).toBeGreaterThanOrEqual(30);
  });

  it.each(indexable.map((page) => [page.path, page] as const))('%s', (path, page) => {
    const image = new URL(metaProperty(page.html, 'og:image')!);
    expect(image.pathname).toBe(socialCardPath(path));
    expect(pngSize(join(DIST_DIR, image.pathname))).toEqual({ width: SOCIAL_CARD.width, height: SOCIAL_CARD.height });
    expect(metaProperty(page.html, 'og:image:width')).toBe('1200');
    expect(metaProperty(page.html, 'og:image:height')).toBe('630');
    expect(metaProperty(page.html, 'og:image:alt')).toContain(cardTitle(metaProperty(page.html, 'og:title')!));
    expect(metaName(page.html, 'twitter:card')).toBe('summary_large_image');
  });

  it('every page names the blog feed in its head', () => {
    const without = pages.filter((page) => !/<link rel="alternate" type="application\/rss\+xml" title="[^"]+" href="https?:\/\/[^"]+\/rss\.xml">/.test(page.html));
    expect(without.map((page) => page.path)).toEqual([]);
  });

  it('no two pages share a card', () => {
    const images = indexable.map((page) => metaProperty(page.html, 'og:image'));
    expect(new Set(images).size).toBe(images.length);
  });

  it('pages kept out of search share the default image', () => {
    const hidden = pages.filter((page) => !indexable.includes(page));
    expect(hidden.length).toBeGreaterThan(0);
    for (const page of hidden) expect(new URL(metaProperty(page.html, 'og:image')!).pathname).toBe(SITE.defaultOgImage);
  });
});

describe('card helpers', () => {
  it('names a card after its page', () => {
    expect(socialCardPath('/')).toBe('/social/index.png');
    expect(socialCardPath('/blog/a-post')).toBe('/social/blog/a-post.png');
    expect(socialCardPath('/book/')).toBe('/social/book.png');
  });

  it('reads a page head and drops the site name from the title', () => {
    const head = '<meta property="og:title" content="Gifts &amp; more | Awesome Catholic Kids"><meta property="article:section" content="Parenting">';
    expect(cardTitle(metaProperty(head, 'og:title')!)).toBe('Gifts & more');
    expect(metaProperty(head, 'article:section')).toBe('Parenting');
    expect(metaProperty(head, 'og:image')).toBeUndefined();
  });
});

describe('sitemap lastmod', () => {
  const sitemap = readFileSync(join(DIST_DIR, 'sitemap-0.xml'), 'utf8');
  const entries = [...sitemap.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?/g)].map((m) => ({ path: new URL(m[1]!).pathname, lastmod: m[2] }));

  it('every entry carries the date its content last changed', () => {
    expect(entries.length).toBeGreaterThan(40);
    expect(entries.filter((entry) => !entry.lastmod).map((entry) => entry.path)).toEqual([]);
  });

  it("a post's is its date and a legal page's its updated date", () => {
    const lastmod = (path: string) => entries.find((entry) => entry.path === path)?.lastmod?.slice(0, 10);
    expect(lastmod('/blog/why-faith-based-books-matter')).toBe('2025-04-15');
    expect(lastmod('/blog')).toBe('2025-04-15');
    expect(lastmod('/terms-of-service')).toBe(readFileSync('content/legal/terms-of-service.mdx', 'utf8').match(/^updated: (\S+)/m)![1]);
  });
});
