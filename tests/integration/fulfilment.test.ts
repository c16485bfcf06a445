/** Fulfilment is the one place stock changes: atomic, idempotent, and never below zero. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../helpers/shop';

let t: TestShop;
beforeAll(async () => {
  t = await startTestShop();
});
afterAll(() => t.close());

async function createOrder(productId: string, quantity: number): Promise<string> {
  const service = t.service();
  const { data: order, error } = await service
    .from('orders')
    .insert({ customer_email: 'buyer@example.com', subtotal_amount: 22 * quantity, shipping_amount: 0, total_amount: 22 * quantity, shipping_address: { line1: '1 St', city: 'Sydney', country: 'AU' }, shipping_method: { id: 'au-standard', name: 'AU Standard Courier' } })
    .select('id')
    .single();
  if (error) throw error;
  const items = await service.from('order_items').insert({ order_id: order.id, product_id: productId, title: 'Item', quantity, price_at_time: 22 });
  if (items.error) throw items.error;
  return order.id as string;
}

async function stockOf(id: string): Promise<number> {
  const { data } = await t.anon().from('products').select('stock').eq('id', id).single();
  return data!.stock as number;
}

describe('fulfil_order', () => {
  it('two concurrent fulfilments for the last copy: exactly one succeeds, stock ends at zero', async () => {
    await t.service().from('products').insert({ id: 'last-copy', title: 'Last Copy', price: 22, stock: 1 });
    const [first, second] = await Promise.all([createOrder('last-copy', 1), createOrder('last-copy', 1)]);
    const results = await Promise.all([t.service().rpc('fulfil_order', { p_order_id: first }), t.service().rpc('fulfil_order', { p_order_id: second })]);
    expect(results.map((r) => r.error)).toEqual([null, null]);
    expect(results.map((r) => r.data).sort()).toEqual(['fulfilled', 'out_of_stock']);
    expect(await stockOf('last-copy')).toBe(0);
    const { data: orders } = await t.service().from('orders').select('id, payment_status, status').in('id', [first, second]);
    expect(orders!.map((o) => `${o.payment_status}/${o.status}`).sort()).toEqual(['paid/processing', 'refund_due/cancelled']);

    // A retry (webhook redelivery, a second confirmation visit) gives each order the same answer again.
    const again = await Promise.all([first, second].map((id) => t.service().rpc('fulfil_order', { p_order_id: id })));
    expect(again.map((r) => r.data)).toEqual(results.map((r) => (r.data === 'fulfilled' ? 'already_fulfilled' : 'out_of_stock')));
    expect(await stockOf('last-copy')).toBe(0);
  });

  it('running twice (or concurrently with itself) decrements stock once', async () => {
    const before = await stockOf('book-10-reasons');
    const order = await createOrder('book-10-reasons', 2);
    const results = await Promise.all([1, 2, 3].map(() => t.service().rpc('fulfil_order', { p_order_id: order })));
    expect(results.map((r) => r.data).sort()).toEqual(['already_fulfilled', 'already_fulfilled', 'fulfilled']);
    expect(await stockOf('book-10-reasons')).toBe(before - 2);
    const claims = await Promise.all([1, 2].map(() => t.service().rpc('claim_confirmation_email', { p_order_id: order })));
    expect(claims.map((c) => c.data).sort()).toEqual([false, true]);
  });

  it('an expired session cancels the order and leaves stock untouched', async () => {
    const before = await stockOf('book-10-reasons');
    const order = await createOrder('book-10-reasons', 1);
    expect((await t.service().rpc('cancel_unpaid_order', { p_order_id: order })).data).toBe('cancelled');
    expect((await t.service().rpc('fulfil_order', { p_order_id: order })).data).toBe('cancelled');
    expect(await stockOf('book-10-reasons')).toBe(before);
  });

  it('stock can never go below zero, even for the service role', async () => {
    const { error } = await t.service().from('products').update({ stock: -1 }).eq('id', 'book-10-reasons');
    expect(error?.code).toBe('23514');
  });
});
