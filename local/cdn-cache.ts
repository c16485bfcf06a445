/**
 * The local server's stand-in for Netlify's CDN cache of function answers, following the same headers:
 * a GET answer (a 200, or a permanent redirect) that opts in with `Netlify-CDN-Cache-Control` (else `CDN-Cache-Control`, else a public
 * `Cache-Control`) is kept for its `s-maxage`/`max-age`, then served stale for its `stale-while-revalidate`
 * while one request refreshes it in the background; `Netlify-Cache-Tag` (or `Cache-Tag`) names the tags a
 * purge drops it by. An answer is kept under its path and query string, or, when its `Netlify-Vary` says
 * `query=a|b`, under its path and those parameters only (in any order), the others ignored; later requests for
 * the path are looked up the same way. An answer whose `Netlify-Vary` varies on anything else (a header, a
 * cookie, the country, the language) is not kept here, since this stand-in cannot tell those requests apart.
 * The CDN-only headers are taken off the answer, as Netlify does (`Netlify-Vary` stays on, as on Netlify), and
 * `Cache-Status` says what happened (hit, stale, miss). Requests that arrive while an answer is being fetched
 * wait for that one call and share it when it may be kept. Answers that do not opt in pass through untouched,
 * never shared.
 */

export interface CacheDirectives {
  /** Seconds the answer is fresh. */
  maxAge: number;
  /** Seconds past that it may be served stale while it is refreshed. */
  staleWhileRevalidate: number;
}

/** The answers kept: a success, and a permanent redirect (which the live catalog answers a keyed query with). */
const CACHED_STATUSES = new Set([200, 301, 308]);

const CDN_ONLY_HEADERS = ['netlify-cdn-cache-control', 'cdn-cache-control', 'netlify-cache-tag', 'cache-tag'];

/** How the CDN may keep an answer, by the most specific of its cache headers; null when it may not. */
export function cacheDirectives(headers: Headers): CacheDirectives | null {
  const cdnSpecific = headers.get('netlify-cdn-cache-control') ?? headers.get('cdn-cache-control');
  const value = cdnSpecific ?? headers.get('cache-control');
  if (!value) return null;
  const parts = new Map(
    value
      .toLowerCase()
      .split(',')
      .map((part) => part.trim().split('=') as [string, string?])
      .map(([name, arg]) => [name.trim(), arg?.trim().replace(/^"|"$/g, '')] as const),
  );
  if (parts.has('no-store') || parts.has('private') || parts.has('no-cache')) return null;
  const seconds = (name: string) => {
    const n = Number(parts.get(name));
    return Number.isFinite(n) && n > 0 ? n : 0;
  };
  const maxAge = parts.has('s-maxage') ? seconds('s-maxage') : seconds('max-age');
  const staleWhileRevalidate = seconds('stale-while-revalidate');
  if (maxAge === 0 && staleWhileRevalidate === 0) return null;
  // A plain Cache-Control is shared with browsers: only a public one is kept by the CDN.
  if (!cdnSpecific && !parts.has('public') && !parts.has('s-maxage')) return null;
  return { maxAge, staleWhileRevalidate };
}

/** The query parameters that key an answer: the names listed, or all of them. */
export type QueryVary = readonly string[] | 'all';

/**
 * Which query parameters key an answer: those `Netlify-Vary: query=a|b` names, or all of them when it has no
 * `query` instruction or a bare `query`; null when it varies on something this stand-in does not model.
 */
export function queryVary(headers: Headers): QueryVary | null {
  let vary: QueryVary = 'all';
  for (const instruction of (headers.get('netlify-vary') ?? '').split(',')) {
    const [kind = '', names] = instruction.split('=', 2).map((part) => part.trim());
    if (!kind) continue;
    if (kind.toLowerCase() !== 'query') return null;
    vary =
      names === undefined
        ? 'all'
        : names
            .split('|')
            .map((name) => name.trim())
            .filter(Boolean);
  }
  return vary;
}

/** The cache key of a request for `target` (path and query string): the path and the parameters that count, sorted. */
export function cacheKey(target: string, vary: QueryVary): string {
  const url = new URL(target, 'http://cache.local');
  if (vary === 'all') return url.pathname + url.search;
  const kept = new URLSearchParams();
  for (const name of [...vary].sort()) for (const value of url.searchParams.getAll(name)) kept.append(name, value);
  const query = kept.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

const pathOf = (target: string) => new URL(target, 'http://cache.local').pathname;

export function cacheTags(headers: Headers): string[] {
  const value = headers.get('netlify-cache-tag') ?? headers.get('cache-tag') ?? '';
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

interface Stored {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
  storedAt: number;
  directives: CacheDirectives;
  tags: string[];
}

/** What one call of the function gave: an answer kept (or keepable), or one passed through as it came. */
type Fetched = { kind: 'stored'; stored: Stored } | { kind: 'passed'; status: number; headers: Array<[string, string]>; body: Uint8Array };

export type CacheOutcome = 'hit' | 'stale' | 'miss' | 'uncacheable';

export interface CacheStats {
  hit: number;
  stale: number;
  miss: number;
  /** Calls of the function behind the cache (misses, background refreshes and uncacheable answers). */
  originCalls: number;
  purges: number;
}

const STATUS_TEXT: Record<Exclude<CacheOutcome, 'uncacheable'>, string> = {
  hit: '"Netlify Edge"; hit',
  stale: '"Netlify Edge"; hit; fwd=stale',
  miss: '"Netlify Edge"; fwd=miss',
};

function toResponse(stored: Stored, outcome: Exclude<CacheOutcome, 'uncacheable'>, now: number): Response {
  const headers = new Headers(stored.headers);
  headers.set('cache-status', STATUS_TEXT[outcome]);
  headers.set('age', String(Math.floor((now - stored.storedAt) / 1000)));
  return new Response(stored.body.slice(), { status: stored.status, headers });
}

export class LocalCdnCache {
  readonly stats: CacheStats = { hit: 0, stale: 0, miss: 0, originCalls: 0, purges: 0 };
  readonly #entries = new Map<string, Stored>();
  readonly #inflight = new Map<string, Promise<Fetched>>();
  /** Per path, the query parameters its last kept answer is keyed by; until one is kept, the whole query string. */
  readonly #varies = new Map<string, QueryVary>();
  /** Bumped by every purge: a fetch that started before a purge is answered but not kept. */
  #generation = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Answers a GET for `target` (path and query string) from the cache, or from `origin` (the function) and keeps what may be kept. */
  async answer(target: string, origin: () => Promise<Response>): Promise<Response> {
    const key = cacheKey(target, this.#varies.get(pathOf(target)) ?? 'all');
    const entry = this.#entries.get(key);
    const t = this.now();
    if (entry) {
      const age = (t - entry.storedAt) / 1000;
      if (age < entry.directives.maxAge) {
        this.stats.hit += 1;
        return toResponse(entry, 'hit', t);
      }
      if (age < entry.directives.maxAge + entry.directives.staleWhileRevalidate) {
        this.stats.stale += 1;
        if (!this.#inflight.has(key)) void this.#fetch(key, target, origin).catch((error: unknown) => console.error('[local cdn cache] background refresh failed', error));
        return toResponse(entry, 'stale', t);
      }
      this.#entries.delete(key);
    }
    this.stats.miss += 1;
    // A request for what is being fetched waits for that one call, and shares its answer if it may be kept;
    // an answer that may not be kept is never shared: each waiting request then calls for its own.
    const shared = this.#inflight.get(key);
    const first = shared ? await shared : undefined;
    const result = first?.kind === 'stored' ? first : await this.#fetch(key, target, origin);
    if (result.kind === 'stored') return toResponse(result.stored, 'miss', this.now());
    return new Response(result.body.slice(), { status: result.status, headers: result.headers });
  }

  /** Drops every answer carrying one of `tags`. */
  purge(tags: readonly string[]): void {
    this.#generation += 1;
    this.stats.purges += 1;
    for (const [key, entry] of this.#entries) if (entry.tags.some((tag) => tags.includes(tag))) this.#entries.delete(key);
  }

  /** Calls `origin` for the request looked up as `key`; keeps what may be kept under the key its answer names. */
  #fetch(key: string, target: string, origin: () => Promise<Response>): Promise<Fetched> {
    const generation = this.#generation;
    const pending = (async (): Promise<Fetched> => {
      this.stats.originCalls += 1;
      const response = await origin();
      const body = new Uint8Array(await response.arrayBuffer());
      const directives = CACHED_STATUSES.has(response.status) ? cacheDirectives(response.headers) : null;
      const vary = queryVary(response.headers);
      const headers: Array<[string, string]> = [];
      response.headers.forEach((value, name) => {
        if (!directives || !CDN_ONLY_HEADERS.includes(name)) headers.push([name, value]);
      });
      if (!directives || !vary) return { kind: 'passed', status: response.status, headers, body };
      const stored: Stored = { status: response.status, headers, body, storedAt: this.now(), directives, tags: cacheTags(response.headers) };
      if (generation === this.#generation) {
        this.#varies.set(pathOf(target), vary);
        this.#entries.set(cacheKey(target, vary), stored);
      }
      return { kind: 'stored', stored };
    })();
    if (!this.#inflight.has(key)) this.#inflight.set(key, pending);
    const clear = () => {
      if (this.#inflight.get(key) === pending) this.#inflight.delete(key);
    };
    pending.then(clear, clear);
    return pending;
  }
}
