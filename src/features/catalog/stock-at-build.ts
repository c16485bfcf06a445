/**
 * Each book's stock as the build finds it, for the availability its structured data states. A build with a
 * hosted database (PUBLIC_SUPABASE_URL and PUBLIC_SUPABASE_ANON_KEY, as a Netlify build has) reads it once;
 * a build without one, or one whose read fails, knows no stock and states the book in stock — the pages
 * then show the live stock as they load.
 */
import { LIMITS } from '@/config/constants';
import { shopDay } from '@/lib/format';
import type { OfferFacts } from './offer-state';

export type StockAtBuild = ReadonlyMap<string, number>;

/**
 * The copies a build gives a book it cannot count: it does not know them (the pages read the live stock and
 * pre-order copies as they load), so none is held below the cart's own limit until the live answer says how many.
 */
export const COPIES_UNKNOWN_AT_BUILD = LIMITS.maxLineQuantity;

/** At most this long for the one read, so a slow database never holds a deploy up. */
const READ_TIMEOUT_MS = 10_000;

export async function readStockAtBuild(env: Record<string, string | undefined>, fetchImpl: typeof fetch = fetch): Promise<StockAtBuild> {
  const url = env.PUBLIC_SUPABASE_URL?.trim();
  const key = env.PUBLIC_SUPABASE_ANON_KEY?.trim();
  if (!url || !key) return new Map();
  try {
    const response = await fetchImpl(new URL('/rest/v1/products?select=id,stock', url), {
      headers: { apikey: key, authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const rows = (await response.json()) as unknown;
    if (!Array.isArray(rows)) throw new Error('not a list of products');
    return new Map(rows.filter((row) => typeof row?.id === 'string' && Number.isInteger(row?.stock)).map((row) => [row.id as string, row.stock as number]));
  } catch (error) {
    console.warn(`[catalog] stock could not be read at build (${error instanceof Error ? error.message : String(error)}): every book is stated in stock`);
    return new Map();
  }
}

/** In stock unless the build read a stock of 0 or less for it. */
export const inStockAtBuild = (stock: StockAtBuild, id: string): boolean => (stock.get(id) ?? 1) > 0;

/**
 * A book file's release date ('YYYY-MM-DD') while it is ahead, in the shop's day (Sydney), as the catalog sync
 * writes it to the database; none once the day has come.
 */
export function releaseDateAhead(releaseDate: Date | undefined, now: Date = new Date()): string | undefined {
  const day = releaseDate?.toISOString().slice(0, 10);
  return day && day > shopDay(now) ? day : undefined;
}

/**
 * What the build knows of a book's offer, for the availability its structured data and the merchant feed state:
 * the stock it read (else in stock), and on pre-order while the file's release date is ahead (its copies left
 * are counted by the database; the pages show them live).
 */
export function offerAtBuild(stock: StockAtBuild, book: { id: string; releaseDate?: Date | undefined }, now: Date = new Date()): OfferFacts {
  const releaseDate = releaseDateAhead(book.releaseDate, now);
  return { stock: stock.get(book.id) ?? COPIES_UNKNOWN_AT_BUILD, ...(releaseDate && { releaseDate, preorderLeft: COPIES_UNKNOWN_AT_BUILD }) };
}

let once: Promise<StockAtBuild> | undefined;

/** The build's one read, shared by every page. */
export function stockAtBuild(): Promise<StockAtBuild> {
  once ??= readStockAtBuild(process.env);
  return once;
}
