/**
 * The site's routes as the quality gates see them: every page a visitor can reach, the
 * landing pages read from content/landing/*.yaml, and the "kind" of each page (for budgets and reports).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export type PageKind = 'home' | 'landing' | 'quote' | 'review' | 'content' | 'book' | 'blog' | 'post' | 'store' | 'product' | 'cart' | 'checkout' | 'account' | 'back-office' | 'not-found';

export interface SiteRoute {
  path: string;
  kind: PageKind;
  /** Where the page sends a visitor without a session (the scan runs on the page it lands on). */
  redirectsTo?: string;
  /** HTTP status the server answers with, when not 200. */
  status?: number;
}

const basenames = (dir: string, extension: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith(extension))
    .map((file) => file.slice(0, -extension.length))
    .sort();

/** Landing-page slugs, one per content/landing/*.yaml (the file name is the page's path). */
export const landingSlugs = (projectRoot = process.cwd()) => basenames(join(projectRoot, 'content', 'landing'), '.yaml');
export const blogPostIds = (projectRoot = process.cwd()) => basenames(join(projectRoot, 'content', 'blog'), '.mdx');
export const productIds = (projectRoot = process.cwd()) => basenames(join(projectRoot, 'content', 'books'), '.mdx');

/** The block types (hero, faq, cityFacts…) a landing page is made of, from its content file. */
export function landingBlockTypes(slug: string, projectRoot = process.cwd()): string[] {
  const page = parse(readFileSync(join(projectRoot, 'content', 'landing', `${slug}.yaml`), 'utf8')) as { blocks?: Array<{ type: string }> };
  return (page.blocks ?? []).map((block) => block.type);
}

/**
 * Landing pages that between them show every block type: the first page, by name, with each. Every landing
 * page is one layout filled with blocks, so these drawn at a second width show all a second width can change.
 */
export function landingPagesShowingEveryBlock(projectRoot = process.cwd()): Set<string> {
  const chosen = new Map<string, string>();
  for (const slug of landingSlugs(projectRoot)) for (const type of landingBlockTypes(slug, projectRoot)) if (!chosen.has(type)) chosen.set(type, `/${slug}`);
  return new Set(chosen.values());
}

/** A path the site does not have, to reach the not-found page. */
export const UNKNOWN_PATH = '/this-page-does-not-exist';

/** Every route a visitor can open, in the order reports list them. */
export function siteRoutes(projectRoot = process.cwd()): SiteRoute[] {
  return [
    { path: '/', kind: 'home' },
    { path: '/about', kind: 'content' },
    { path: '/book', kind: 'book' },
    { path: '/blog', kind: 'blog' },
    ...blogPostIds(projectRoot).map((id): SiteRoute => ({ path: `/blog/${id}`, kind: 'post' })),
    { path: '/blog/no-such-post', kind: 'not-found', status: 404 },
    { path: '/contact', kind: 'content' },
    { path: '/store', kind: 'store' },
    ...productIds(projectRoot).map((id): SiteRoute => ({ path: `/store/product/${id}`, kind: 'product' })),
    { path: '/cart', kind: 'cart' },
    { path: '/checkout', kind: 'checkout' },
    { path: '/order-confirmation', kind: 'account', redirectsTo: '/store' },
    { path: '/auth', kind: 'account' },
    { path: '/profile', kind: 'account', redirectsTo: '/auth' },
    { path: '/order-status', kind: 'account' },
    { path: '/order-status/invoice', kind: 'account' },
    { path: '/newsletter/unsubscribe', kind: 'account' },
    { path: '/newsletter/confirm', kind: 'account' },
    { path: '/review', kind: 'account' },
    { path: '/admin', kind: 'back-office', redirectsTo: '/auth' },
    { path: '/admin/packing-slip', kind: 'back-office', redirectsTo: '/auth' },
    { path: '/privacy-policy', kind: 'content' },
    { path: '/terms-of-service', kind: 'content' },
    { path: UNKNOWN_PATH, kind: 'not-found', status: 404 },
    ...landingSlugs(projectRoot).map((slug): SiteRoute => ({ path: `/${slug}`, kind: 'landing' })),
  ];
}

/** One page of each kind for Lighthouse: a topic, a city and an age landing page stand for all 30. */
export const LIGHTHOUSE_PATHS = [
  '/',
  '/about',
  '/catholic-childrens-books',
  '/catholic-books-sydney',
  '/catholic-books-for-toddlers',
  '/book',
  '/store',
  '/store/product/book-10-reasons',
  '/blog',
  '/blog/why-faith-based-books-matter',
  '/cart',
  '/checkout',
];

const CONTENT_PAGES = new Set(['/about', '/contact', '/privacy-policy', '/terms-of-service']);
/** Pages that are islands all through (account, order flow, back office, a product added after the build). */
const ACCOUNT_PAGES = new Set([
  '/auth',
  '/auth/callback',
  '/profile',
  '/order-confirmation',
  '/order-status',
  '/order-status/invoice',
  '/newsletter/unsubscribe',
  '/newsletter/confirm',
  '/review',
  '/store/product',
]);

/** The kind of a built page, from its path (`/404` is the not-found page). */
export function kindOfPath(path: string, landing: ReadonlySet<string>): PageKind {
  if (path === '/') return 'home';
  // The landing page with the schools' quote form, and the review form a buyer's email links to.
  if (path === '/schools-and-parishes') return 'quote';
  if (path === '/review') return 'review';
  if (landing.has(path.slice(1))) return 'landing';
  if (path === '/404' || path === '/blog/not-found') return 'not-found';
  if (path === '/book') return 'book';
  if (path === '/blog') return 'blog';
  if (path.startsWith('/blog/')) return 'post';
  if (path === '/store') return 'store';
  if (path === '/admin' || path.startsWith('/admin/')) return 'back-office';
  if (ACCOUNT_PAGES.has(path)) return 'account';
  if (path.startsWith('/store/product/')) return 'product';
  if (path === '/cart') return 'cart';
  if (path === '/checkout') return 'checkout';
  if (CONTENT_PAGES.has(path)) return 'content';
  return 'content';
}
