/**
 * The catalog as the database has it now (through the CDN's cached answer): every product for sale with its
 * live price and stock, read once per page (the catalog is a few books) and shared by the idle refresh, every
 * island on the page and the purchase controls, which read what has arrived without waiting.
 */
import { listProducts } from './catalog';
import { CatalogError } from './catalog-error';
import type { Product } from './product';

let read: Promise<Product[]> | undefined;
let arrived: ReadonlyMap<string, Product> | undefined;

export function liveCatalog(): Promise<Product[]> {
  read ??= listProducts().then((products) => {
    arrived = new Map(products.map((p) => [p.id, p]));
    return products;
  });
  return read;
}

/** One product, or null when the database has no such product for sale. */
export async function liveProduct(id: string): Promise<Product | null> {
  if (!id) throw new CatalogError('Product ID is missing');
  const products = await liveCatalog().catch(() => {
    throw new CatalogError('Failed to fetch product details');
  });
  return products.find((p) => p.id === id) ?? null;
}

/**
 * What the live read said of a product, if it has arrived: the product, or null when it is no longer for
 * sale; undefined while the read is on its way or when it failed (the build's values stand).
 */
export function arrivedLiveProduct(id: string): Product | null | undefined {
  if (!arrived) return undefined;
  return arrived.get(id) ?? null;
}
