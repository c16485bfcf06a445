/**
 * The catalog sync: reads every book file in the catalog folder (src/features/catalog/book-files.ts, with the
 * schema the site's build uses), and hands the database its catalog rows and quantity prices through `sync_catalog` (never stock) and
 * each book's low-stock level through `sync_low_stock_levels` and its customs data through `sync_customs`. The embedded
 * backend calls it directly at every start; `npm run catalog:sync` calls it through the API for hosted Supabase.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { readCatalog } from '../src/features/catalog/book-files';

export interface SyncResult {
  synced: string[];
  withdrawn: string[];
}

/** What the embedded backend runs at start: the database itself, as its owner. */
export async function syncEmbedded(db: { query: <T>(sql: string, params?: unknown[]) => Promise<{ rows: T[] }> }, dir?: string): Promise<SyncResult> {
  const books = JSON.stringify(readCatalog(dir));
  const { rows } = await db.query<{ result: SyncResult }>('select public.sync_catalog($1::jsonb) as result', [books]);
  await db.query('select public.sync_low_stock_levels($1::jsonb)', [books]);
  await db.query('select public.sync_customs($1::jsonb)', [books]);
  return rows[0]!.result;
}

/** Through Supabase's API with the service role (hosted Supabase, or the embedded backend over HTTP). */
export async function syncThroughApi(service: SupabaseClient, dir?: string): Promise<SyncResult> {
  const books = readCatalog(dir);
  const { data, error } = await service.rpc('sync_catalog', { p_books: books });
  if (error) throw new Error(`The catalog sync failed: ${error.message}`);
  const levels = await service.rpc('sync_low_stock_levels', { p_books: books });
  if (levels.error) throw new Error(`The catalog sync failed on the low-stock levels: ${levels.error.message}`);
  const customs = await service.rpc('sync_customs', { p_books: books });
  if (customs.error) throw new Error(`The catalog sync failed on the customs data: ${customs.error.message}`);
  return data as SyncResult;
}

export const describeSync = (result: SyncResult) =>
  `Catalog synced: ${result.synced.length} book(s) (${result.synced.join(', ')})${result.withdrawn.length ? `; no longer for sale: ${result.withdrawn.join(', ')}` : ''}.`;
