import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * Writes an order and its lines straight to the tables (as the service role), as a test's fixture: its id. With
 * `fulfil`, it is then paid as the payment webhook pays it (`fulfil_order`).
 */
export async function insertOrder(service: SupabaseClient, order: Record<string, unknown>, items: Array<Record<string, unknown>>, options: { fulfil?: boolean } = {}): Promise<string> {
  const { data, error } = await service.from('orders').insert(order).select('id').single();
  if (error) throw error;
  const id = data.id as string;
  const lines = await service.from('order_items').insert(items.map((item) => ({ order_id: id, ...item })));
  if (lines.error) throw lines.error;
  if (options.fulfil) {
    const fulfilled = await service.rpc('fulfil_order', { p_order_id: id });
    if (fulfilled.data !== 'fulfilled') throw new Error(`fulfil_order: ${fulfilled.data}`);
  }
  return id;
}
