/**
 * Purging the CDN's cached answers by tag. The real adapter is Netlify's purge API (netlify-purge.ts), with
 * the token and site id Netlify gives every deployed function; on the local server, the local server's own
 * cache of function answers (local/cdn-cache.ts) is purged.
 */

export interface CdnCache {
  name: string;
  /** Drops every cached answer carrying one of these tags. */
  purgeTags(tags: readonly string[]): Promise<void>;
}

type Purger = (tags: readonly string[]) => void;

/** The local server's caches, found through the process so any copy of this module reaches them. */
const PURGERS = Symbol.for('shop.local-cdn-purgers');
const localPurgers = (): Set<Purger> => {
  const holder = globalThis as { [PURGERS]?: Set<Purger> };
  holder[PURGERS] ??= new Set();
  return holder[PURGERS];
};

/** The local server registers its cache here; the returned function unregisters it. */
export function registerLocalCdnCache(purge: Purger): () => void {
  localPurgers().add(purge);
  return () => localPurgers().delete(purge);
}

/** Purges the caches of the local servers running in this process. */
export const localCdnCache: CdnCache = {
  name: 'local',
  async purgeTags(tags) {
    for (const purge of localPurgers()) purge(tags);
  },
};

/** Where there is nothing to purge (a deploy without the purge token): answers expire by their cache period. */
export const noCdnCache: CdnCache = {
  name: 'none',
  async purgeTags() {},
};
