/**
 * The live price and stock answer, as both sides agree on it: the function that reads the database
 * (functions/live-catalog.ts) and the pages that fetch it (live-catalog.ts). The answer is cached by the CDN
 * for CACHE_SECONDS, served stale while it is refreshed in the background, and dropped at once (purged by
 * its tag) when stock is set in the back office or a sale or a cancellation changes it.
 */
export const LIVE_CATALOG_PATH = '/api/live-catalog';

/** The cache tag the answer carries and the purge names. */
export const CATALOG_CACHE_TAG = 'catalog';

/** How long the CDN serves the answer as fresh: at most one database read per this period, purges aside. */
export const CACHE_SECONDS = 60;

/** How long past that a stale answer may still be served while one request refreshes it. */
export const STALE_SECONDS = 24 * 60 * 60;

/**
 * The one query parameter the CDN keys the answer by. Netlify keys a function's answer by its whole query string
 * unless `Netlify-Vary: query=<names>` names the parameters that count, and has no form that names none; so this
 * names one that the pages never send, and a request that does send it is redirected to the bare path
 * (LIVE_CATALOG_REDIRECT_HEADERS): `?none=1`, `?none=2`, … each cost one redirect, kept by the CDN, and never a
 * read of the database.
 */
export const CACHE_KEY_QUERY_PARAM = 'none';

/**
 * The answer's cache headers, in Netlify's terms: the CDN keeps it (durable: one copy shared by every edge
 * node) and tags it, as one answer whatever the query string (else `?x=1`, `?x=2`, … would each miss the cache
 * and read the database); browsers always ask again, and get it from the CDN.
 */
export const LIVE_CATALOG_CACHE_HEADERS = {
  'cache-control': 'public, max-age=0, must-revalidate',
  'netlify-cdn-cache-control': `public, durable, max-age=${CACHE_SECONDS}, stale-while-revalidate=${STALE_SECONDS}`,
  'netlify-cache-tag': CATALOG_CACHE_TAG,
  'netlify-vary': `query=${CACHE_KEY_QUERY_PARAM}`,
} as const;

/**
 * The redirect to the bare path never changes: the CDN keeps it for a year under the same key rule, and it
 * carries no tag, so a purge of the catalog leaves it in place.
 */
export const LIVE_CATALOG_REDIRECT_HEADERS = {
  location: LIVE_CATALOG_PATH,
  'cache-control': 'public, max-age=0, must-revalidate',
  'netlify-cdn-cache-control': 'public, durable, max-age=31536000',
  'netlify-vary': `query=${CACHE_KEY_QUERY_PARAM}`,
} as const;

/** The body: the catalog's rows for sale, in the database's own shape (`productFromRow` reads each). */
export interface LiveCatalogAnswer {
  products: unknown[];
}
