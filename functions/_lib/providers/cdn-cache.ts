/**
 * Purging the CDN's cached answers by tag. The real adapter is Netlify's purge API (netlify-purge.ts), with
 * the token and site id Netlify gives every deployed function; on the local server, the local server's own
 * cache of function answers (local/cdn-cache.ts) is purged.
 */
import { localRegistry } from './local-registry';

export interface CdnCache {
  name: string;
  /** Drops every cached answer carrying one of these tags. */
  purgeTags(tags: readonly string[]): Promise<void>;
}

type Purger = (tags: readonly string[]) => void;

/** The local server's caches, found through the process so any copy of this module reaches them. */
const purgers = localRegistry<Purger>('shop.local-cdn-purgers');

/** The local server registers its cache here; the returned function unregisters it. */
export const registerLocalCdnCache = purgers.register;

/** Purges the caches of the local servers running in this process. */
export const localCdnCache: CdnCache = {
  name: 'local',
  async purgeTags(tags) {
    for (const purge of purgers.members()) purge(tags);
  },
};

/** Where there is nothing to purge (a deploy without the purge token): answers expire by their cache period. */
export const noCdnCache: CdnCache = {
  name: 'none',
  async purgeTags() {},
};
