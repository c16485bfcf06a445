/**
 * The live price and stock answer's server side: the one database read behind it, and the purge that drops
 * the CDN's copy when stock changes (a sale, a cancellation putting copies back, the publisher setting it).
 * Orders never use this answer: checkout prices and checks stock against the database itself.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { CATALOG_CACHE_TAG } from '../../src/features/catalog/live-answer';
import { productFromRow } from '../../src/features/catalog/product';
import type { CdnCache } from './providers/cdn-cache';

/**
 * Every product for sale (or those of `ids`), in the database's row shape with each title's pre-order state
 * (`release_date` while on pre-order, `preorder_left`), featured first then by title (as the pages list them).
 */
export async function readLiveCatalog(db: SupabaseClient, ids?: readonly string[]): Promise<unknown[]> {
  const { data, error } = await db.rpc('catalog_for_sale', ids ? { p_ids: ids } : {});
  if (error) throw new Error(`reading the live catalog failed: ${error.message}`);
  if (!Array.isArray(data)) throw new Error('reading the live catalog failed: the database did not answer a list');
  return data;
}

/** A title still on pre-order, as an order's emails name it: "Ships with <title>, out <date>". */
export interface PreorderTitle {
  productId: string;
  title: string;
  /** 'YYYY-MM-DD' */
  releaseDate: string;
}

/** Which of these products are on pre-order now, with their release dates (latest first: the day an order ships). */
export async function preorderTitles(db: SupabaseClient, productIds: readonly string[]): Promise<PreorderTitle[]> {
  if (productIds.length === 0) return [];
  const titles: PreorderTitle[] = [];
  for (const product of (await readLiveCatalog(db, productIds)).map(productFromRow)) {
    if (product.releaseDate) titles.push({ productId: product.id, title: product.title, releaseDate: product.releaseDate });
  }
  return titles.sort((a, b) => b.releaseDate.localeCompare(a.releaseDate));
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
