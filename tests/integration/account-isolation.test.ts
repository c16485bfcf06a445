/** What one signed-in user can reach of another's data through supabase-js with their own token, and token refresh. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { startTestShop, type TestShop } from '../helpers/shop';

let t: TestShop;
let a: SupabaseClient;
let b: SupabaseClient;
let idA: string;

beforeAll(async () => {
  t = await startTestShop({ jwtExpirySeconds: 2 });
  a = await t.signIn('a@example.com');
  b = await t.signIn('b@example.com');
  idA = (await a.auth.getUser()).data.user!.id;
  expect((await a.from('wishlists').insert({ user_id: idA, product_id: 'book-10-reasons' })).error).toBeNull();
  const order = await t
    .service()
    .from('orders')
    .insert({ user_id: idA, customer_email: 'a@example.com', subtotal_amount: 22, shipping_amount: 15, total_amount: 37, shipping_address: {}, shipping_method: {} })
    .select('id')
    .single();
  await t.service().from('order_items').insert({ order_id: order.data!.id, product_id: 'book-10-reasons', title: 'Book', quantity: 1, price_at_time: 22 });
});
afterAll(() => t.close());

describe('user B with B’s own token', () => {
  it('reads none of A’s orders, order items or wishlist, even by naming A’s id', async () => {
    expect((await b.from('orders').select('id').eq('user_id', idA)).data).toEqual([]);
    expect((await b.from('order_items').select('id')).data).toEqual([]);
    expect((await b.from('wishlists').select('id').eq('user_id', idA)).data).toEqual([]);
  });

  it('cannot add to A’s wishlist or change A’s orders', async () => {
    const insert = await b.from('wishlists').insert({ user_id: idA, product_id: 'book-10-reasons' });
    expect(insert.error?.code).toBe('42501');
    const update = await b.from('orders').update({ status: 'cancelled' }).eq('user_id', idA);
    expect(update.error?.code).toBe('42501');
  });

  it('A still sees A’s own', async () => {
    expect((await a.from('orders').select('id')).data).toHaveLength(1);
    expect((await a.from('wishlists').select('product_id')).data).toEqual([{ product_id: 'book-10-reasons' }]);
  });
});

describe('token refresh', () => {
  it('a request after the access token expired is refreshed automatically and succeeds', async () => {
    const first = (await a.auth.getSession()).data.session!;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const stale = await fetch(`${t.url}/rest/v1/wishlists?select=id`, { headers: { apikey: 'x', authorization: `Bearer ${first.access_token}` } });
    expect(stale.status).toBe(401);
    const { data, error } = await a.from('wishlists').select('product_id');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    const next = (await a.auth.getSession()).data.session!;
    expect(next.access_token).not.toBe(first.access_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
  });
});
