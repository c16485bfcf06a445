/**
 * Live price and stock for islands that were pre-rendered with the build's catalog: the database decides
 * price, stock and whether a product is for sale; everything else stays as the build drew it. Every island
 * of a page shares one read of the live catalog (live-catalog.ts).
 */
import { useCallback, useEffect, useState } from 'react';
import { LIMITS } from '@/config/constants';
import { CatalogError } from './catalog-error';
import { liveCatalog, liveProduct } from './live-catalog';
import { withLivePriceAndStock, type Product } from './product';

type Load<T> = { status: 'loading'; data: T } | { status: 'ready'; data: T } | { status: 'error'; data: T; message: string };

/** `load` is read again whenever it changes: a useCallback over what it reads. */
function useLoad<T>(initial: T, load: () => Promise<T>): Load<T> {
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
  }, [load]);
  return state;
}

export function useLiveProducts(initial: Product[]): Load<Product[]> {
  return useLoad(
    initial,
    useCallback(async () => withLivePriceAndStock(initial, await liveCatalog()), [initial]),
  );
}

/**
 * One product; `data` is null once the database says there is no such product for sale. A product the build
 * drew is found in the live catalog; one added since the build is read by its id.
 */
export function useLiveProduct(id: string, initial: Product | null): Load<Product | null> {
  const load = useCallback(async () => {
    if (!initial) return liveProduct(id);
    const live = await liveCatalog().catch(() => {
      throw new CatalogError('Failed to fetch product details');
    });
    return withLivePriceAndStock([initial], live).find((p) => p.id === id) ?? null;
  }, [id, initial]);
  return useLoad(initial, load);
}

/** The build's related products refreshed; with none from the build, the same category from the live catalog. */
export function useRelatedProducts(product: Pick<Product, 'id' | 'category'>, initial: Product[] = NONE): Load<Product[]> {
  const { id, category } = product;
  const load = useCallback(async () => {
    const live = withLivePriceAndStock(initial, await liveCatalog());
    if (initial.length) return initial.flatMap((p) => live.filter((l) => l.id === p.id));
    return live.filter((p) => p.category === category && p.id !== id).slice(0, LIMITS.relatedProducts);
  }, [initial, id, category]);
  return useLoad(initial, load);
}

/** One empty list for every caller without one: a new [] on each render would be a new thing to load. */
const NONE: Product[] = [];
