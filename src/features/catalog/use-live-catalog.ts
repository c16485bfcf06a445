/** Live price and stock for islands that were pre-rendered with the build-time catalog. */
import { useEffect, useState } from 'react';
import { getProduct, getRelatedProducts, listProducts } from './catalog';
import type { Product } from './product';

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

export const useLiveProducts = (initial: Product[]) => useLoad(initial, listProducts, []);

export const useLiveProduct = (id: string, initial: Product | null) => useLoad<Product | null>(initial, () => getProduct(id), [id]);

export const useRelatedProducts = (product: Pick<Product, 'id' | 'category'>, initial: Product[] = []) =>
  useLoad<Product[]>(initial, () => getRelatedProducts(product), [product.id, product.category]);
