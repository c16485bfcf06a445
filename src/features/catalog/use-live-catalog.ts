/**
 * Live price and stock for islands that were pre-rendered with the build's catalog: the database decides
 * price, stock and whether a product is for sale; everything else stays as the build drew it.
 */
import { useEffect, useState } from 'react';
import { getProduct, getProductsByIds, getRelatedProducts, listProducts } from './catalog';
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

export const useLiveProducts = (initial: Product[]) => useLoad(initial, async () => withLivePriceAndStock(initial, await listProducts()), []);

/** One product; `data` is null once the database says there is no such product for sale. */
export const useLiveProduct = (id: string, initial: Product | null) =>
  useLoad<Product | null>(initial, async () => {
    const row = await getProduct(id);
    return row && (withLivePriceAndStock(initial ? [initial] : [], [row])[0] ?? null);
  }, [id]);

/** The build's related products refreshed by id; with none from the build, the same category from the database. */
export const useRelatedProducts = (product: Pick<Product, 'id' | 'category'>, initial: Product[] = []) =>
  useLoad<Product[]>(initial, async () => (initial.length ? withLivePriceAndStock(initial, await getProductsByIds(initial.map((p) => p.id))) : getRelatedProducts(product)), [
    product.id,
    product.category,
  ]);
