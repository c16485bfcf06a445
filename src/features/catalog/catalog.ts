/** Catalog reads (PostgREST, as supabase-js does them). Errors come back as readable messages, never as SDK objects. */
import { LIMITS } from '@/config/constants';
import { getPublicRest } from '@/lib/supabase/public-rest';
import { PRODUCT_COLUMNS, productFromRow, type Product } from './product';

export class CatalogError extends Error {}

export async function listProducts(): Promise<Product[]> {
  const { data, error } = await getPublicRest().from('products').select(PRODUCT_COLUMNS).order('featured', { ascending: false }).order('title');
  if (error) throw new CatalogError('Failed to fetch products');
  return data.map(productFromRow);
}

/** One product, or null when there is no such id. */
export async function getProduct(id: string): Promise<Product | null> {
  if (!id) throw new CatalogError('Product ID is missing');
  const { data, error } = await getPublicRest().from('products').select(PRODUCT_COLUMNS).eq('id', id).maybeSingle();
  if (error) throw new CatalogError('Failed to fetch product details');
  return data ? productFromRow(data) : null;
}

export async function getRelatedProducts(product: Pick<Product, 'id' | 'category'>): Promise<Product[]> {
  const { data, error } = await getPublicRest().from('products').select(PRODUCT_COLUMNS).eq('category', product.category).neq('id', product.id).limit(LIMITS.relatedProducts);
  if (error) throw new CatalogError('Failed to fetch related products');
  return data.map(productFromRow);
}

/** The products with these ids that are for sale, in the order given. */
export async function getProductsByIds(ids: readonly string[]): Promise<Product[]> {
  const { data, error } = await getPublicRest()
    .from('products')
    .select(PRODUCT_COLUMNS)
    .in('id', [...ids]);
  if (error) throw new CatalogError('Failed to fetch related products');
  const products = data.map(productFromRow);
  return ids.flatMap((id) => products.filter((p) => p.id === id));
}
