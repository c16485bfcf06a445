/**
 * Pre-orders through the functions: the confirmation says when a pre-order ships; /api/admin-preorders is staff's
 * alone and answers in the publisher's words what it refuses; Move the date emails each buyer once; Release now
 * makes the order to pack, emails its buyer once and sends it to the shipping platform as any paid order; and a
 * buyer cancels their own pre-order from its status page for a full refund (the back office's refund path).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';

let t: BackOfficeShop;
let staff: SupabaseClient;
let shopper: SupabaseClient;

beforeAll(async () => {
  t = await startBackOfficeShop('preorders', { staff: 'publisher@example.com', shopper: 'browser@example.com' });
  ({ staff, shopper } = t);
}, 180_000);
afterAll(() => t.close());

/** A title is released only with its customs data, as the catalog sync writes it from the book file. */
const CUSTOMS = { customs_description: 'Printed picture book', hs_code: '4903.00', origin_country: 'AU' };

async function title(id: string, allocation: number): Promise<void> {
  const { error } = await t
    .service()
    .from('products')
    .insert({ id, title: `Title ${id}`, price: 20, stock: 0, release_date: '2099-06-01', preorder_allocation: allocation, ...CUSTOMS });
  if (error) throw error;
}

const IN_AUSTRALIA = { addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };
const IN_THE_US = { addressLine1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001', country: 'US', shippingMethod: { id: 'international-standard' } };

/** A paid order of `quantity` copies through checkout and the local TEST payment page: its id and status token. */
async function paidOrder(productId: string, quantity: number, email: string, address = IN_AUSTRALIA): Promise<{ id: string; token: string }> {
  const checkout = await t.post('create-checkout', {
    cartItems: [{ id: productId, quantity }],
    shippingDetails: { fullName: 'Pre Buyer', ...address },
    customerEmail: email,
  });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const link = new URL(checkout.body.url as string);
  const form = new URLSearchParams({ ...Object.fromEntries(link.searchParams), action: 'pay', payer: 'Pre Buyer' });
  expect((await fetch(`${t.url}/api/test-payment`, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);
  const id = checkout.body.orderId as string;
  const { data } = await t.service().from('orders').select('status_token').eq('id', id).single();
  return { id, token: (data as { status_token: string }).status_token };
}

const mailsTo = async (email: string) => (await readOutbox(t.outbox)).filter((m) => m.to === email);
const statusOf = async (id: string) => ((await t.service().from('orders').select('status').eq('id', id).single()).data as { status: string }).status;

describe('pre-orders through the functions', () => {
  it('the confirmation says the order ships with the title, on its release date', async () => {
    await title('fn-confirm', 5);
    const order = await paidOrder('fn-confirm', 1, 'confirmed@example.com');
    expect(await statusOf(order.id)).toBe('preorder');
    const [mail] = await mailsTo('confirmed@example.com');
    expect(mail?.text).toContain('Ships with Title fn-confirm, out 1 June 2099.');
    // Its delivery time counts from the release, not from the day it was paid.
    expect(mail?.text).toMatch(/Estimated delivery: [^.\n]+ once it ships\./);
  });

  it('/api/admin-preorders is for staff only, and refuses what it cannot honour in plain words', async () => {
    await title('fn-admin', 5);
    await paidOrder('fn-admin', 2, 'admin-buyer@example.com');
    const release = { action: 'release', productId: 'fn-admin', firstDelivery: 10 };
    expect(await t.post('admin-preorders', release, null)).toEqual({ status: 401, body: { error: 'Sign in to use the back office.' } });
    expect(await t.post('admin-preorders', release, shopper)).toEqual({ status: 403, body: { error: "You don't have access to the back office." } });
    expect(await t.post('admin-preorders', { action: 'set', productId: 'fn-admin', allocation: 1, firstDelivery: null }, staff)).toEqual({
      status: 400,
      body: { error: 'The allocation cannot be below the 2 copies already pre-ordered.' },
    });
    expect(await t.post('admin-preorders', { action: 'move_date', productId: 'fn-admin', releaseDate: '2020-01-01' }, staff)).toEqual({
      status: 400,
      body: { error: 'Choose a release date from today on: a date in the past cannot be a release date.' },
    });
    expect(await t.post('admin-preorders', { action: 'release', productId: 'fn-admin', firstDelivery: 1 }, staff)).toEqual({
      status: 400,
      body: { error: 'The first delivery is smaller than the 2 copies pre-ordered. Enter a delivery of at least 2: every pre-order must be filled.' },
    });
    expect(await t.post('admin-preorders', { action: 'release', productId: 'no-such-title', firstDelivery: 1 }, staff)).toEqual({ status: 404, body: { error: 'We could not find that title.' } });
    expect((await t.post('admin-preorders', { action: 'release', productId: 'fn-admin', firstDelivery: -1 }, staff)).status).toBe(400);
  });

  it('Move the date tells each buyer once; Release now makes the order to pack, tells its buyer once and sends it to the platform', async () => {
    await title('fn-release', 5);
    const order = await paidOrder('fn-release', 1, 'release-buyer@example.com');
    const moved = await t.post('admin-preorders', { action: 'move_date', productId: 'fn-release', releaseDate: '2099-07-15' }, staff);
    expect(moved).toEqual({ status: 200, body: { message: 'Title fn-release now comes out on 15 July 2099; 1 buyer emailed.', stock: null, mailing: null } });
    const dateMails = (await mailsTo('release-buyer@example.com')).filter((m) => m.subject.startsWith('A new release date'));
    expect(dateMails).toHaveLength(1);
    expect(dateMails[0]?.text).toContain('Title fn-release now comes out on 15 July 2099');

    // A shopper who joined its waiting list while pre-orders were full hears once that it can be bought.
    const { error } = await t
      .service()
      .from('back_in_stock_requests')
      .insert({ product_id: 'fn-release', email: 'release-waiting@example.com', confirmation_sent_at: new Date().toISOString(), confirmed_at: new Date().toISOString() });
    if (error) throw error;
    const released = await t.post('admin-preorders', { action: 'release', productId: 'fn-release', firstDelivery: 30 }, staff);
    expect(released).toMatchObject({
      status: 200,
      body: { message: 'Title fn-release is released: 29 in stock, 1 order to pack (1 buyer emailed). Emailing 1 waiting shopper.', stock: 29, mailing: { recipients: 1 } },
    });
    expect(await statusOf(order.id)).toBe('processing');
    const { data: shipment } = await t.service().from('shipments').select('state').eq('order_id', order.id).single();
    expect(shipment).toEqual({ state: 'sent' });
    // Pressed again, nothing is sent twice.
    expect((await t.post('admin-preorders', { action: 'release', productId: 'fn-release', firstDelivery: 30 }, staff)).status).toBe(409);
    expect((await mailsTo('release-buyer@example.com')).filter((m) => m.subject.endsWith('is being packed'))).toHaveLength(1);
  });

  it('the daily release releases a title whose day has come with the first delivery entered, and emails its buyers and its waiting list, as Release now does', async () => {
    const { error } = await t
      .service()
      .from('products')
      .insert({ id: 'fn-due', title: 'Title fn-due', price: 20, stock: 0, release_date: '2020-01-01', preorder_allocation: 5, preorder_first_delivery: 12, ...CUSTOMS });
    if (error) throw error;
    const order = await paidOrder('fn-due', 1, 'due-buyer@example.com');
    // Two shoppers confirmed on its waiting list (pre-orders were full when they signed up); one never confirmed.
    const now = new Date().toISOString();
    const waiting = await t
      .service()
      .from('back_in_stock_requests')
      .insert([
        { product_id: 'fn-due', email: 'due-waiting-1@example.com', confirmation_sent_at: now, confirmed_at: now },
        { product_id: 'fn-due', email: 'due-waiting-2@example.com', confirmation_sent_at: now, confirmed_at: now },
        { product_id: 'fn-due', email: 'due-unconfirmed@example.com', confirmation_sent_at: now },
      ]);
    if (waiting.error) throw waiting.error;
    const run = (await (await fetch(`${t.url}/.netlify/functions/release-preorders`, { method: 'POST' })).json()) as { titles: string[] };
    expect(run.titles).toEqual(['Title fn-due: released, 1 order to pack, 1 buyer emailed, 2 waiting shoppers emailed']);
    expect(await statusOf(order.id)).toBe('processing');
    expect((await mailsTo('due-buyer@example.com')).map((m) => m.subject)).toContain(`Your pre-order ${await t.orderNumber(order.id)} is being packed`);
    // The availability email Release now's mailing sends, with its unsubscribe link, once each; none unconfirmed.
    for (const email of ['due-waiting-1@example.com', 'due-waiting-2@example.com']) {
      const mails = await mailsTo(email);
      expect(mails.map((m) => m.subject)).toEqual(['Title fn-due is available']);
      expect(mails[0]?.text).toContain('can be ordered again');
      expect(mails[0]?.headers?.['List-Unsubscribe']).toBeTruthy();
    }
    expect(await mailsTo('due-unconfirmed@example.com')).toEqual([]);
    expect((await (await fetch(`${t.url}/.netlify/functions/release-preorders`, { method: 'POST' })).json()) as { titles: string[] }).toEqual({ titles: [] });
  });

  it('Release now refuses a title whose pre-orders go abroad without its customs data, saying what to add where; the daily release skips it and says why', async () => {
    const { error } = await t
      .service()
      .from('products')
      .insert({ id: 'fn-customs', title: 'Title fn-customs', price: 20, stock: 0, weight: 300, release_date: '2099-06-01', preorder_allocation: 5, preorder_first_delivery: 10 });
    if (error) throw error;
    const home = await paidOrder('fn-customs', 1, 'customs-home@example.com');
    const abroad = await paidOrder('fn-customs', 2, 'customs-abroad@example.com', IN_THE_US);
    const gap = '1 pre-order goes abroad: add customsDescription, hsCode and originCountry to content/books/fn-customs.mdx and deploy, as a parcel abroad must declare them.';
    expect(await t.post('admin-preorders', { action: 'release', productId: 'fn-customs', firstDelivery: 10 }, staff)).toEqual({
      status: 409,
      body: { error: `Title fn-customs is not released, and nothing has changed. ${gap} Then press Release now again.` },
    });
    // Its day come, the daily release leaves it waiting too, and its report says why.
    await t.service().from('products').update({ release_date: '2020-01-01' }).eq('id', 'fn-customs');
    const run = (await (await fetch(`${t.url}/.netlify/functions/release-preorders`, { method: 'POST' })).json()) as { titles: string[] };
    expect(run.titles).toEqual([`Title fn-customs: not released (${gap})`]);
    for (const order of [home, abroad]) expect(await statusOf(order.id)).toBe('preorder');
    expect(await mailsTo('customs-abroad@example.com')).not.toContainEqual(expect.objectContaining({ subject: expect.stringMatching(/is being packed$/) }));
    // Once the catalog sync has written them, it is released and both orders go to be packed.
    await t.service().from('products').update(CUSTOMS).eq('id', 'fn-customs');
    const released = await t.post('admin-preorders', { action: 'release', productId: 'fn-customs', firstDelivery: 10 }, staff);
    expect(released.body.message).toBe('Title fn-customs is released: 7 in stock, 2 orders to pack (2 buyers emailed).');
    for (const order of [home, abroad]) expect(await statusOf(order.id)).toBe('processing');
  });

  it('a buyer cancels their own pre-order from its status page for a full refund, while it waits and not after', async () => {
    await title('fn-cancel', 5);
    const order = await paidOrder('fn-cancel', 2, 'cancel-buyer@example.com');
    const status = await t.post('order-status', { token: order.token });
    expect(status.body).toMatchObject({ status: 'preorder', preorders: [{ title: 'Title fn-cancel', releaseDate: '2099-06-01' }] });
    expect(await t.post('cancel-preorder', { token: order.token })).toEqual({
      status: 200,
      body: { message: 'Your pre-order is cancelled and your payment refunded in full. We have emailed you a receipt of the refund.' },
    });
    expect(await statusOf(order.id)).toBe('cancelled');
    expect((await mailsTo('cancel-buyer@example.com')).map((m) => m.subject)).toContain(`Your order ${await t.orderNumber(order.id)} has been cancelled and refunded`);
    const { data } = await t.service().rpc('preorder_left', { p_product_id: 'fn-cancel' });
    expect(data).toBe(5);
    // A second tab's Cancel, after the first tab's: told it is cancelled already, not that it cannot be cancelled.
    const again = await t.post('cancel-preorder', { token: order.token });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('This pre-order is cancelled already');
    expect((await t.post('cancel-preorder', { token: 'f'.repeat(64) })).status).toBe(404);
  });

  it('the publisher cancels a pre-order: the answer names the order, and its copies go back to the allocation', async () => {
    await title('fn-staff-cancel', 5);
    const order = await paidOrder('fn-staff-cancel', 2, 'staff-cancel@example.com');
    const number = await t.orderNumber(order.id);
    const cancelled = await t.post('admin-order', { action: 'cancel', orderId: order.id }, staff);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toMatch(new RegExp(`^Order ${number} cancelled and its copies put back; refund re_local_\\S+ recorded and the customer emailed\\.$`));
    expect(await statusOf(order.id)).toBe('cancelled');
    expect((await t.service().rpc('preorder_left', { p_product_id: 'fn-staff-cancel' })).data).toBe(5);
  });
});
