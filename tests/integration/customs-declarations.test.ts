/**
 * /api/admin-customs, what the packing slips print after an international order's slip: staff only, a
 * declaration for each order going abroad and none for a domestic one, the sender as the tax invoice names the
 * shop, the value paid per copy, and a book without customs data named rather than declared empty.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SELLER } from '../../functions/_lib/tax-invoice';
import { CONSENT } from '../../src/config/constants';
import { type CustomsAnswer, customsAnswerSchema } from '../../src/features/customs/declaration';
import { type BackOfficeShop, startBackOfficeShop } from '../helpers/shop';
import { insertOrder } from '../helpers/insert-order';

let t: BackOfficeShop;

beforeAll(async () => {
  t = await startBackOfficeShop('customs-declarations', { staff: 'packer@example.com', shopper: 'reader@example.com' });
});
afterAll(() => t.close());

async function order(country: string, items: Array<{ product: string; quantity: number; price: number }>): Promise<string> {
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.price, 0);
  return insertOrder(
    t.service(),
    {
      customer_email: 'reader@example.com',
      customer_name: 'Reader Abroad',
      subtotal_amount: subtotal,
      shipping_amount: 30,
      total_amount: subtotal + 30,
      shipping_address: { addressLine1: '350 Fifth Avenue', city: 'New York', state: 'NY', postalCode: '10118', country },
      shipping_method: { name: 'International Standard' },
    },
    items.map((item) => ({ product_id: item.product, title: item.product, quantity: item.quantity, price_at_time: item.price })),
  );
}

const declarations = (client: SupabaseClient | null, body: unknown) => t.post('admin-customs', body, client);

describe('/api/admin-customs', () => {
  it('answers staff only, and refuses a body that is not a list of orders with what to send', async () => {
    const us = await order('US', [{ product: 'book-10-reasons', quantity: 1, price: 22 }]);
    expect((await declarations(null, { orderIds: [us] })).status).toBe(401);
    expect((await declarations(t.shopper, { orderIds: [us] })).status).toBe(403);
    const refused = await declarations(t.staff, { orderIds: ['not-an-order'] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/orderIds: order ids/);
    expect((await declarations(t.staff, { orderIds: [] })).status).toBe(400);
  });

  it('a declaration for the order going abroad, none for the domestic one: the sender, and the value paid per copy', async () => {
    const us = await order('US', [{ product: 'book-10-reasons', quantity: 10, price: 20 }]);
    const au = await order('AU', [{ product: 'book-10-reasons', quantity: 1, price: 22 }]);
    const { status, body } = await declarations(t.staff, { orderIds: [us, au] });
    expect(status).toBe(200);
    const answer: CustomsAnswer = customsAnswerSchema.parse(body);
    expect(answer.sender).toEqual({ name: LOCAL_SELLER.legalName, address: CONSENT.localPostalAddress, abn: LOCAL_SELLER.abn });
    expect(answer.declarations).toEqual([
      { orderId: us, lines: [{ description: "Printed children's picture book", quantity: 10, valueAud: 200, unitValueAud: 20, hsCode: '4903.00', originCountry: 'AU', unitWeightGrams: 300 }] },
    ]);
  });

  it('a book without customs data: the order’s declaration says which and what to do', async () => {
    const { error } = await t.service().from('products').insert({ id: 'no-customs-book', title: 'No Customs', price: 10, stock: 5, weight: 200 });
    if (error) throw error;
    const gb = await order('GB', [{ product: 'no-customs-book', quantity: 1, price: 10 }]);
    const { body } = await declarations(t.staff, { orderIds: [gb] });
    expect(customsAnswerSchema.parse(body).declarations).toEqual([{ orderId: gb, problem: expect.stringMatching(/missing for no-customs-book: add it to the book file/) }]);
  });
});
