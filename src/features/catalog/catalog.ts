/**
 * Catalog reads in the browser: the live price and stock answer (/api/live-catalog), which the CDN caches, so
 * a page view costs the database nothing. Errors come back as readable messages.
 */
import { CatalogError } from './catalog-error';
import { LIVE_CATALOG_PATH } from './live-answer';
import { productFromRow, type Product } from './product';

/** Every product for sale with its live price and stock, featured first then by title. */
export async function listProducts(): Promise<Product[]> {
  let rows: unknown;
  try {
    const response = await fetch(LIVE_CATALOG_PATH, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    rows = ((await response.json()) as { products?: unknown }).products;
  } catch {
    throw new CatalogError('Failed to fetch products');
  }
  if (!Array.isArray(rows)) throw new CatalogError('Failed to fetch products');
  try {
    return rows.map(productFromRow);
  } catch {
    throw new CatalogError('Failed to fetch products');
  }
}
