/**
 * A signed-in shopper who is not staff gets nothing from the back office: not from any of its tables, not from
 * any staff or service-only function, not from its server function. Tried with supabase-js directly, with the
 * shopper's own token, as an attacker in the browser console would; and the same signed out.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrder } from '../helpers/insert-order';
import { orderRow } from '../helpers/order-row';
import { startTestShop, type TestShop } from '../helpers/shop';

let t: TestShop;
let shopper: SupabaseClient;
let orderId: string;

beforeAll(async () => {
  t = await startTestShop();
  shopper = await t.signIn('curious-shopper@example.com');
  const service = t.service();
  await service.from('staff_members').insert({ email: 'publisher@example.com' });
  orderId = await insertOrder(service, orderRow('someone@example.com'), [{ product_id: 'book-10-reasons', title: 'Book', quantity: 1, price_at_time: 22 }]);
  await service.from('order_events').insert({ order_id: orderId, action: 'shipped', actor: 'publisher@example.com' });
  await service.from('contact_submissions').insert({ name: 'A', email: 'a@example.com', subject: 'S', message: 'M' });
  await service.from('newsletter_subscriptions').insert({ email: 'reader@example.com' });
  await service.from('stock_changes').insert({ product_id: 'book-10-reasons', previous_stock: 99, new_stock: 100, reason: 'count', actor: 'publisher@example.com' });
  // A shop, a sign-in and six fixtures: allow for a machine shared with other test runs.
}, 180_000);
afterAll(() => t.close());

const TABLES = [
  'staff_members',
  'orders',
  'order_items',
  'order_events',
  'stock_changes',
  'contact_submissions',
  'newsletter_subscriptions',
  'payment_events',
  'quote_requests',
  'invoices',
  'invoice_lines',
];

const rpcs = () => ({
  admin_list_orders: { p_view: 'all', p_search: '' },
  admin_get_order: { p_order_id: orderId },
  admin_set_stock: { p_product_id: 'book-10-reasons', p_stock: 0, p_reason: 'stolen' },
  admin_mark_message_handled: { p_message_id: orderId },
  admin_remove_subscriber: { p_subscriber_id: orderId },
  require_staff: {},
  ship_order: { p_order_id: orderId, p_tracking_number: '33ABC1234567', p_carrier: 'Australia Post', p_actor: 'me' },
  claim_shipping_email: { p_order_id: orderId },
  release_shipping_email: { p_order_id: orderId, p_previous: null },
  mark_order_delivered: { p_order_id: orderId, p_actor: 'me' },
  cancel_paid_order: { p_order_id: orderId, p_actor: 'me' },
  claim_publisher_notice: { p_order_id: orderId },
  fulfil_order: { p_order_id: orderId },
  record_refund: { p_order_id: orderId, p_refund_id: 're_forged' },
  admin_list_invoices: { p_view: 'all' },
  admin_get_invoice: { p_invoice_id: orderId },
  admin_list_quotes: { p_view: 'all' },
  invoice_save_draft: { p_invoice_id: null, p_quote_id: null, p_draft: {}, p_actor: 'me' },
  invoice_send: { p_invoice_id: orderId, p_provider: 'local-test', p_actor: 'me' },
  invoice_mark_paid: { p_provider_invoice_id: 'in_forged', p_amount_cents: 1, p_currency: 'aud', p_actor: 'me' },
  invoice_close: { p_invoice_id: orderId, p_provider_invoice_id: null, p_status: 'void', p_actor: 'me' },
});

describe.each([
  ['a signed-in shopper who is not staff', () => shopper, 403],
  ['a signed-out visitor', () => t.anon(), 401],
] as const)('%s', (_who, client, status) => {
  it('reads no row of any back-office table', async () => {
    for (const table of TABLES) {
      const { data, error } = await client().from(table).select('*');
      if (error) expect(error.code, table).toBe('42501');
      else expect(data, table).toEqual([]);
    }
  });

  it('is refused by every staff and service-only function (42501), and nothing changes', async () => {
    const stock = async () => (await t.service().from('products').select('stock').eq('id', 'book-10-reasons').single()).data!.stock as number;
    const before = await stock();
    for (const [fn, args] of Object.entries(rpcs())) {
      const { data, error } = await client().rpc(fn, args);
      expect({ fn, code: error?.code, data }).toEqual({ fn, code: '42501', data: null });
    }
    expect(await stock()).toBe(before);
    const events = await t.service().from('order_events').select('id').eq('order_id', orderId);
    expect(events.data).toHaveLength(1);
  });

  it(`is refused by the order actions function (${status})`, async () => {
    const token = (await client().auth.getSession()).data.session?.access_token;
    const response = await fetch(`${t.url}/api/admin-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify({ action: 'cancel', orderId }),
    });
    expect(response.status).toBe(status);
  });

  it(`is refused by the invoice actions function (${status})`, async () => {
    const token = (await client().auth.getSession()).data.session?.access_token;
    const response = await fetch(`${t.url}/api/admin-invoice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify({ action: 'void', invoiceId: orderId }),
    });
    expect(response.status).toBe(status);
  });

  it('is told it is not staff by is_staff()', async () => {
    expect((await client().rpc('is_staff')).data).toBe(false);
  });
});
