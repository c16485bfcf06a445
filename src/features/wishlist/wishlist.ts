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
