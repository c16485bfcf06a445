/**
 * The live price and stock answer's server side: the one database read behind it, and the purge that drops
 * the CDN's copy when stock changes (a sale, a cancellation putting copies back, the publisher setting it).
 * Orders never use this answer: checkout prices and checks stock against the database itself.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { CATALOG_CACHE_TAG } from '../../src/features/catalog/live-answer';
import { PRODUCT_COLUMNS } from '../../src/features/catalog/product';
import type { CdnCache } from './providers/cdn-cache';

/** Every product for sale, in the database's row shape, featured first then by title (as the pages list them). */
export async function readLiveCatalog(db: SupabaseClient): Promise<unknown[]> {
  const { data, error } = await db.from('products').select(PRODUCT_COLUMNS).eq('for_sale', true).order('featured', { ascending: false }).order('title');
  if (error) throw new Error(`reading the live catalog failed: ${error.message}`);
  return data;
}

/**
 * Drops the cached live answer so the next visit reads the database. Never fails its caller: a sale or a
 * stock change has happened whatever the CDN says, and a purge that did not go through is logged and
 * outlived by the answer's cache period.
 */
export async function purgeLiveCatalog(cache: CdnCache | undefined, why: string): Promise<boolean> {
  if (!cache) return false;
  try {
    await cache.purgeTags([CATALOG_CACHE_TAG]);
    return true;
  } catch (error) {
    console.error(`[live catalog] purge after ${why} failed; the cached answer expires by its cache period`, error);
    return false;
  }
}
