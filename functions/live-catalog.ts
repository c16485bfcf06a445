/**
 * The catalog's live price and stock for the pages, as one small JSON answer the CDN caches (see
 * src/features/catalog/live-answer.ts for the period and tag): however many people visit, the database is
 * read about once per cache period, and again after a purge.
 */
import { readServerEnv } from '../src/config/env';
import { CACHE_KEY_QUERY_PARAM, LIVE_CATALOG_CACHE_HEADERS, LIVE_CATALOG_REDIRECT_HEADERS, type LiveCatalogAnswer } from '../src/features/catalog/live-answer';
import { handle, json, type FunctionConfig } from './_lib/http';
import { readLiveCatalog } from './_lib/live-catalog';
import { serviceClient } from './_lib/supabase-admin';

export default handle(async (request) => {
  // The one parameter the CDN keys by: a request naming it gets the redirect (kept by the CDN), never a read.
  if (new URL(request.url).searchParams.has(CACHE_KEY_QUERY_PARAM)) return new Response(null, { status: 301, headers: LIVE_CATALOG_REDIRECT_HEADERS });
  const answer: LiveCatalogAnswer = { products: await readLiveCatalog(serviceClient(readServerEnv())) };
  return json(answer, 200, LIVE_CATALOG_CACHE_HEADERS);
});

// A literal: Netlify's bundler reads the path from the source without running it (the pages' LIVE_CATALOG_PATH
// must match, which tests/integration/live-catalog.test.ts checks).
export const config: FunctionConfig = { path: '/api/live-catalog', method: ['GET'] };
