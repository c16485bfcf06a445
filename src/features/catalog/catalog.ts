/** Catalog reads (PostgREST, as supabase-js does them). Errors come back as readable messages, never as SDK objects. */
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
