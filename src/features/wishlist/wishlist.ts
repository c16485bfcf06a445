/** Wishlist reads and writes over supabase-js; RLS limits both to the signed-in user's own rows. */
import { getSupabase } from '@/lib/supabase/client';

export async function isInWishlist(userId: string, productId: string): Promise<boolean> {
  const { data, error } = await (await getSupabase()).from('wishlists').select('id').eq('user_id', userId).eq('product_id', productId).maybeSingle();
  if (error) throw error;
  return data !== null;
}

export type AddToWishlistResult = 'added' | 'already-added' | 'failed';

export async function addToWishlist(userId: string, productId: string): Promise<AddToWishlistResult> {
  const { error } = await (await getSupabase()).from('wishlists').insert({ user_id: userId, product_id: productId });
  if (!error) return 'added';
  // The unique (user_id, product_id) constraint: a second click or another tab got there first.
  if (error.code === '23505') return 'already-added';
  console.error('Failed to add to wishlist', error);
  return 'failed';
}

export interface WishlistEntry {
  productId: string;
  title: string;
  price: number;
  imageUrl: string | null;
}

/** The signed-in user's wishlist, oldest first; a book taken off sale drops out (RLS hides it). */
export async function listWishlist(userId: string): Promise<WishlistEntry[]> {
  const supabase = await getSupabase();
  const entries = await supabase.from('wishlists').select('product_id').eq('user_id', userId).order('created_at');
  if (entries.error) throw entries.error;
  if (entries.data.length === 0) return [];
  const ids = entries.data.map((e) => e.product_id as string);
  const products = await supabase.from('products').select('id, title, price, image_url').in('id', ids);
  if (products.error) throw products.error;
  const byId = new Map(products.data.map((p) => [p.id as string, p]));
  return ids.flatMap((id) => {
    const product = byId.get(id);
    return product ? [{ productId: id, title: product.title as string, price: Number(product.price), imageUrl: (product.image_url as string | null) ?? null }] : [];
  });
}

export async function removeFromWishlist(userId: string, productId: string): Promise<void> {
  const { error } = await (await getSupabase()).from('wishlists').delete().eq('user_id', userId).eq('product_id', productId);
  if (error) throw error;
}
