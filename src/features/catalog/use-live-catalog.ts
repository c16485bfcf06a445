/**
 * Live price and stock for islands that were pre-rendered with the build's catalog: the database decides
 * price, stock and whether a product is for sale; everything else stays as the build drew it. Every island
 * of a page shares one read of the live catalog (live-catalog.ts).
 */
import { useEffect, useState } from 'react';
import { LIMITS } from '@/config/constants';
import { CatalogError } from './catalog-error';
import { liveCatalog, liveProduct } from './live-catalog';
import { withLivePriceAndStock, type Product } from './product';

type Load<T> = { status: 'loading'; data: T } | { status: 'ready'; data: T } | { status: 'error'; data: T; message: string };

function useLoad<T>(initial: T, load: () => Promise<T>, deps: unknown[]): Load<T> {
  const [state, setState] = useState<Load<T>>({ status: 'loading', data: initial });
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ status: 'ready', data }),
      (error: Error) => {
        console.error(error);
        if (current) setState((s) => ({ status: 'error', data: s.data, message: error.message }));
      },
    );
    return () => {
      current = false;
    };
  }, deps);
  return state;
}

export const useLiveProducts = (initial: Product[]) => useLoad(initial, async () => withLivePriceAndStock(initial, await liveCatalog()), []);

/**
 * One product; `data` is null once the database says there is no such product for sale. A product the build
 * drew is found in the live catalog; one added since the build is read by its id.
 */
export const useLiveProduct = (id: string, initial: Product | null) =>
  useLoad<Product | null>(initial, async () => {
    if (!initial) return liveProduct(id);
    const live = await liveCatalog().catch(() => {
      throw new CatalogError('Failed to fetch product details');
    });
    return withLivePriceAndStock([initial], live).find((p) => p.id === id) ?? null;
  }, [id]);

/** The build's related products refreshed; with none from the build, the same category from the live catalog. */
export const useRelatedProducts = (product: Pick<Product, 'id' | 'category'>, initial: Product[] = []) =>
  useLoad<Product[]>(initial, async () => {
    const live = withLivePriceAndStock(initial, await liveCatalog());
    if (initial.length) return initial.flatMap((p) => live.filter((l) => l.id === p.id));
    return live.filter((p) => p.category === product.category && p.id !== product.id).slice(0, LIMITS.relatedProducts);
  }, [product.id, product.category]);
