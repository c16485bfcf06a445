/**
 * The catalog as the database has it now (through the CDN's cached answer): every product for sale with its
 * live price and stock, read once per page (the catalog is a few books) and shared by every island on the page
 * and the purchase controls, which draw the pre-rendered offers from `$liveCatalog` once it has arrived.
 */
import { atom } from 'nanostores';
import { listProducts } from './catalog';
import { CatalogError } from './catalog-error';
import type { Product } from './product';

/** The live read: on its way (or not started), arrived (by id), or failed (the build's values stand). */
export type LiveCatalogState = { status: 'pending' } | { status: 'ready'; products: ReadonlyMap<string, Product> } | { status: 'failed'; error: unknown };

export const $liveCatalog = atom<LiveCatalogState>({ status: 'pending' });

let read: Promise<Product[]> | undefined;

export function liveCatalog(): Promise<Product[]> {
  read ??= listProducts().then(
    (products) => {
      $liveCatalog.set({ status: 'ready', products: new Map(products.map((p) => [p.id, p])) });
      return products;
    },
    (error: unknown) => {
      $liveCatalog.set({ status: 'failed', error });
      throw error;
    },
  );
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
  const state = $liveCatalog.get();
  return state.status === 'ready' ? (state.products.get(id) ?? null) : undefined;
}
