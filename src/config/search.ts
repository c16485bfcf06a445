/**
 * The pages kept out of search, in one list: each is `noindex`, left out of the sitemap, and the flows
 * among them are disallowed in robots.txt. They exist to be reached by a flow (cart, sign-in, the back
 * office), to say something is missing, or to serve ids added after the build.
 */
const KEPT_OUT_OF_SEARCH = [
  '/404',
  '/admin',
  '/admin/packing-slip',
  '/order-status',
  '/order-status/invoice',
  '/newsletter/unsubscribe',
  '/newsletter/confirm',
  '/review',
  '/cart',
  '/checkout',
  '/order-confirmation',
  '/auth',
  '/auth/callback',
  '/profile',
  '/blog/not-found',
  '/store/product',
] as const;

/** What robots.txt disallows: the API and the flows, each with every path below it. */
export const DISALLOWED_FOR_CRAWLERS = ['/api/', '/cart', '/checkout', '/order-confirmation', '/order-status', '/profile', '/auth', '/admin', '/review'] as const;

/** A built page's path without a trailing slash or `.html`, as the lists above write it. */
const normalise = (pathname: string) => pathname.replace(/\.html$/, '').replace(/(.)\/$/, '$1');

export const isKeptOutOfSearch = (pathname: string): boolean => (KEPT_OUT_OF_SEARCH as readonly string[]).includes(normalise(pathname));
