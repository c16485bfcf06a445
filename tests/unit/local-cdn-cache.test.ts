/**
 * The local server's stand-in for Netlify's CDN cache: which headers opt an answer in, fresh, stale and
 * expired answers, one call for concurrent requests, purging by tag, and the query parameters that key an answer.
 */
import { describe, expect, it } from 'vitest';
import { cacheDirectives, cacheKey, cacheTags, LocalCdnCache, queryVary } from '../../local/cdn-cache';
import { LIVE_CATALOG_CACHE_HEADERS } from '../../src/features/catalog/live-answer';

const headers = (init: Record<string, string>) => new Headers(init);

describe('cacheDirectives', () => {
  it('reads the most specific header: Netlify-CDN-Cache-Control, then CDN-Cache-Control, then a public Cache-Control', () => {
    expect(cacheDirectives(headers(LIVE_CATALOG_CACHE_HEADERS))).toEqual({ maxAge: 60, staleWhileRevalidate: 86400 });
    expect(cacheDirectives(headers({ 'cdn-cache-control': 'public, s-maxage=30', 'cache-control': 'no-store' }))).toEqual({ maxAge: 30, staleWhileRevalidate: 0 });
    expect(cacheDirectives(headers({ 'cache-control': 'public, max-age=10' }))).toEqual({ maxAge: 10, staleWhileRevalidate: 0 });
  });

  it('keeps nothing that does not opt in, or opts out', () => {
    expect(cacheDirectives(headers({}))).toBeNull();
    expect(cacheDirectives(headers({ 'cache-control': 'no-store' }))).toBeNull();
    expect(cacheDirectives(headers({ 'cache-control': 'max-age=60' }))).toBeNull();
    expect(cacheDirectives(headers({ 'cache-control': 'public, max-age=0, must-revalidate' }))).toBeNull();
    expect(cacheDirectives(headers({ 'netlify-cdn-cache-control': 'private, max-age=60' }))).toBeNull();
  });

  it('reads the query parameters Netlify-Vary keys an answer by, and refuses what it cannot tell apart', () => {
    expect(queryVary(headers({}))).toBe('all');
    expect(queryVary(headers({ 'netlify-vary': 'query' }))).toBe('all');
    expect(queryVary(headers({ 'netlify-vary': 'query=item_id|page' }))).toEqual(['item_id', 'page']);
    expect(queryVary(headers({ 'netlify-vary': 'Query = page | item_id' }))).toEqual(['page', 'item_id']);
    expect(queryVary(headers({ 'netlify-vary': 'query=theme, cookie=plan' }))).toBeNull();
    expect(queryVary(headers({ 'netlify-vary': 'country=us|de' }))).toBeNull();
    expect(cacheKey('/api/x?utm_source=a&page=2&item_id=7', ['item_id', 'page'])).toBe('/api/x?item_id=7&page=2');
    expect(cacheKey('/api/x?item_id=7&page=2', ['page', 'item_id'])).toBe('/api/x?item_id=7&page=2');
    expect(cacheKey('/api/x?x=1', ['item_id'])).toBe('/api/x');
    expect(cacheKey('/api/x?x=1', 'all')).toBe('/api/x?x=1');
  });

  it('reads the tags of Netlify-Cache-Tag or Cache-Tag', () => {
    expect(cacheTags(headers({ 'netlify-cache-tag': 'catalog, product-1' }))).toEqual(['catalog', 'product-1']);
    expect(cacheTags(headers({ 'cache-tag': 'a' }))).toEqual(['a']);
  });
});

function origin(headersInit: Record<string, string> = { ...LIVE_CATALOG_CACHE_HEADERS }) {
  let calls = 0;
  let release: (() => void) | undefined;
  return {
    get calls() {
      return calls;
    },
    hold() {
      return new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release?.(),
    fn: async (gate?: Promise<void>) => {
      calls += 1;
      const n = calls;
      await gate;
      return new Response(JSON.stringify({ n }), { status: 200, headers: { 'content-type': 'application/json', ...headersInit } });
    },
  };
}

describe('LocalCdnCache', () => {
  it('answers from the cache while fresh, stale while refreshing once, and calls again once past both', async () => {
    let now = 0;
    const cache = new LocalCdnCache(() => now);
    const live = origin({ 'netlify-cdn-cache-control': 'public, durable, max-age=60, stale-while-revalidate=120', 'netlify-cache-tag': 'catalog' });
    const get = async () => {
      const response = await cache.answer('/api/x', () => live.fn());
      return { body: await response.json(), status: response.headers.get('cache-status'), cdn: response.headers.get('netlify-cdn-cache-control'), tag: response.headers.get('netlify-cache-tag') };
    };
    expect(await get()).toEqual({ body: { n: 1 }, status: '"Netlify Edge"; fwd=miss', cdn: null, tag: null });
    now = 59_000;
    expect((await get()).status).toBe('"Netlify Edge"; hit');
    now = 61_000;
    // Stale: served at once, and one call refreshes it in the background.
    expect(await get()).toMatchObject({ body: { n: 1 }, status: '"Netlify Edge"; hit; fwd=stale' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(live.calls).toBe(2);
    expect(await get()).toMatchObject({ body: { n: 2 }, status: '"Netlify Edge"; hit' });
    now = 61_000 + 181_000;
    expect(await get()).toMatchObject({ body: { n: 3 }, status: '"Netlify Edge"; fwd=miss' });
    expect(cache.stats).toMatchObject({ hit: 2, stale: 1, miss: 2, originCalls: 3 });
  });

  it('passes an answer that does not opt in straight through, every time', async () => {
    const cache = new LocalCdnCache();
    const plain = origin({ 'cache-control': 'no-store' });
    await cache.answer('/api/y', () => plain.fn());
    const second = await cache.answer('/api/y', () => plain.fn());
    expect(await second.json()).toEqual({ n: 2 });
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.headers.get('cache-status')).toBeNull();
  });

  it('serves concurrent requests for an expired cacheable answer from one call', async () => {
    let now = 0;
    const cache = new LocalCdnCache(() => now);
    const live = origin({ 'netlify-cdn-cache-control': 'public, max-age=60' });
    await cache.answer('/api/x', () => live.fn());
    now = 120_000;
    const gate = live.hold();
    const waiting = Array.from({ length: 20 }, () => cache.answer('/api/x', () => live.fn(gate)));
    live.release();
    const bodies = await Promise.all(waiting.map(async (r) => (await r).json()));
    expect(live.calls).toBe(2);
    expect(new Set(bodies.map((b) => JSON.stringify(b)))).toEqual(new Set(['{"n":2}']));
  });

  it('drops the answers of a purged tag, keeps the others, and never keeps an answer fetched across a purge', async () => {
    const cache = new LocalCdnCache();
    const catalog = origin({ 'netlify-cdn-cache-control': 'public, max-age=60', 'netlify-cache-tag': 'catalog' });
    const other = origin({ 'netlify-cdn-cache-control': 'public, max-age=60', 'netlify-cache-tag': 'other' });
    await cache.answer('/api/catalog', () => catalog.fn());
    await cache.answer('/api/other', () => other.fn());
    cache.purge(['catalog']);
    expect(await (await cache.answer('/api/catalog', () => catalog.fn())).json()).toEqual({ n: 2 });
    expect(await (await cache.answer('/api/other', () => other.fn())).json()).toEqual({ n: 1 });

    // A read that began before the purge may hold the old stock: it is answered, not kept.
    cache.purge(['catalog']);
    const gate = catalog.hold();
    const before = cache.answer('/api/catalog', () => catalog.fn(gate));
    await new Promise((resolve) => setTimeout(resolve, 0));
    cache.purge(['catalog']);
    catalog.release();
    expect(await (await before).json()).toEqual({ n: 3 });
    expect(await (await cache.answer('/api/catalog', () => catalog.fn())).json()).toEqual({ n: 4 });
  });
});

describe('LocalCdnCache with nothing known yet', () => {
  it('serves the first concurrent requests from one call, and never shares an answer that may not be kept', async () => {
    const cache = new LocalCdnCache();
    const live = origin();
    const gate = live.hold();
    const waiting = Array.from({ length: 10 }, () => cache.answer('/api/live', () => live.fn(gate)));
    live.release();
    await Promise.all(waiting);
    expect(live.calls).toBe(1);

    const plain = origin({ 'cache-control': 'no-store' });
    const plainGate = plain.hold();
    const each = Array.from({ length: 3 }, () => cache.answer('/api/plain', () => plain.fn(plainGate)));
    plain.release();
    const bodies = await Promise.all(each.map(async (r) => (await r).json()));
    expect(plain.calls).toBe(3);
    expect(bodies.map((b) => (b as { n: number }).n).sort()).toEqual([1, 2, 3]);
  });
});

describe('LocalCdnCache and the query string', () => {
  it('keeps the live catalog as one answer whatever the query string, as its Netlify-Vary says', async () => {
    const cache = new LocalCdnCache();
    const live = origin();
    const first = await cache.answer('/api/live-catalog?x=1', () => live.fn());
    const second = await cache.answer('/api/live-catalog?x=2', () => live.fn());
    const bare = await cache.answer('/api/live-catalog', () => live.fn());
    expect(live.calls).toBe(1);
    expect(cache.stats.originCalls).toBe(1);
    expect(second.headers.get('cache-status')).toBe('"Netlify Edge"; hit');
    expect(bare.headers.get('cache-status')).toBe('"Netlify Edge"; hit');
    expect([await first.json(), await second.json(), await bare.json()]).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    // Netlify-Vary stays on the answer, as on Netlify: only the CDN's own cache headers are taken off.
    expect(second.headers.get('netlify-vary')).toBe(LIVE_CATALOG_CACHE_HEADERS['netlify-vary']);
  });

  it('keys by the parameters Netlify-Vary names, in any order, and ignores the others', async () => {
    const cache = new LocalCdnCache();
    const live = origin({ 'netlify-cdn-cache-control': 'public, max-age=60', 'netlify-vary': 'query=item_id|page' });
    const get = async (target: string) => ((await (await cache.answer(target, () => live.fn())).json()) as { n: number }).n;
    expect(await get('/api/items?item_id=7&page=2')).toBe(1);
    expect(await get('/api/items?page=2&utm_source=mail&item_id=7')).toBe(1);
    expect(await get('/api/items?item_id=7&page=3')).toBe(2);
    expect(await get('/api/items?fbclid=abc&page=3&item_id=7')).toBe(2);
    expect(live.calls).toBe(2);
  });

  it('keys by the whole query string without Netlify-Vary, or with a bare query', async () => {
    for (const vary of [{}, { 'netlify-vary': 'query' }] as Array<Record<string, string>>) {
      const cache = new LocalCdnCache();
      const live = origin({ 'netlify-cdn-cache-control': 'public, max-age=60', ...vary });
      await cache.answer('/api/x?x=1', () => live.fn());
      await cache.answer('/api/x?x=2', () => live.fn());
      await cache.answer('/api/x?x=1', () => live.fn());
      expect(live.calls, JSON.stringify(vary)).toBe(2);
    }
  });

  it('keeps no answer that varies on what it cannot tell apart (a cookie), and takes the CDN headers off it', async () => {
    const cache = new LocalCdnCache();
    const live = origin({ 'netlify-cdn-cache-control': 'public, max-age=60', 'netlify-vary': 'cookie=plan' });
    await cache.answer('/api/plan', () => live.fn());
    const second = await cache.answer('/api/plan', () => live.fn());
    expect(live.calls).toBe(2);
    expect(second.headers.get('cache-status')).toBeNull();
    expect(second.headers.get('netlify-cdn-cache-control')).toBeNull();
  });
});
