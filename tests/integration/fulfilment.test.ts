/** Fulfilment is the one place stock changes: atomic, idempotent, and never below zero. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fulfilmentServices, fulfilOrder, type FulfilmentServices } from '../../functions/_lib/fulfilment';
import type { ServerEnv } from '../../src/config/env';
import { SITE } from '../../src/config/site';
import type { EmailMessage } from '../../functions/_lib/providers/email';
import type { PaymentRefund } from '../../functions/_lib/providers/payments';
import { startTestShop, type TestShop } from '../helpers/shop';
import { insertOrder } from '../helpers/insert-order';

let t: TestShop;
beforeAll(async () => {
  t = await startTestShop();
});
afterAll(() => t.close());

async function createOrder(productId: string, quantity: number, checkoutSessionId?: string): Promise<string> {
  return insertOrder(
    t.service(),
    {
      checkout_session_id: checkoutSessionId,
      customer_email: 'buyer@example.com',
      subtotal_amount: 22 * quantity,
      shipping_amount: 0,
      total_amount: 22 * quantity,
      shipping_address: { line1: '1 St', city: 'Sydney', country: 'AU' },
      shipping_method: { id: 'au-standard', name: 'AU Standard Courier' },
    },
    [{ product_id: productId, title: 'Item', quantity, price_at_time: 22 }],
  );
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

/** Stand-ins for the payment and email providers that record what fulfilment asked of them. */
function recordingServices(refund: () => Promise<PaymentRefund> = async () => ({ id: 're_test_1', status: 'succeeded' }), notifyTo?: string) {
  const sent: EmailMessage[] = [];
  const services = {
    email: { name: 'recording', send: vi.fn(async (message: EmailMessage) => void sent.push(message)) },
    payments: { refundSession: vi.fn(refund) },
    siteOrigin: 'https://shop.example',
    notifyTo,
  } as unknown as FulfilmentServices & { payments: { refundSession: ReturnType<typeof vi.fn> } };
  return { services, sent };
}

describe('a payment whose copies sold out first', () => {
  it('is refunded in full, recorded once and the shopper told once, however many callers arrive', async () => {
    await t.service().from('products').insert({ id: 'refund-copy', title: 'Refund Copy', price: 22, stock: 1 });
    const [first, second] = await Promise.all([createOrder('refund-copy', 1, 'cs_test_refund_1'), createOrder('refund-copy', 1, 'cs_test_refund_2')]);
    const { services, sent } = recordingServices();

    // The webhook and verify-payment for both orders, all at once, then a retry of each.
    const results = await Promise.all([first, second, first, second].map((id) => fulfilOrder(t.service(), services, id)));
    await Promise.all([first, second].map((id) => fulfilOrder(t.service(), services, id)));
    expect(results.filter((r) => r === 'out_of_stock').length).toBe(2);

    const { data: orders } = await t.service().from('orders').select('id, payment_status, refund_id, refunded_at, checkout_session_id').in('id', [first, second]);
    const soldOut = orders!.find((o) => o.payment_status === 'refund_due')!;
    expect(soldOut).toMatchObject({ refund_id: 're_test_1', refunded_at: expect.any(String) });
    // Every refund request is for the sold-out session under one key, so the provider refunds once.
    const refundCalls = services.payments.refundSession.mock.calls as Array<[string, { orderId: string; idempotencyKey: string }]>;
    expect(new Set(refundCalls.map(([session, input]) => `${session}|${input.orderId}|${input.idempotencyKey}`))).toEqual(
      new Set([`${soldOut.checkout_session_id}|${soldOut.id}|order-refund-${soldOut.id}`]),
    );
    expect(sent.map((m) => m.subject.replace(/^Your order [1-9][0-9]{3,} /, '')).sort()).toEqual(['has been refunded', 'is confirmed']);
    expect(sent.find((m) => m.subject.endsWith('refunded'))!.text).toContain('We have refunded the full $22.00 AUD');
    expect(await stockOf('refund-copy')).toBe(0);
  });

  it('a failed refund leaves the order refund_due and unrecorded, and the next call refunds it', async () => {
    await t.service().from('products').insert({ id: 'refund-retry', title: 'Refund Retry', price: 22, stock: 0 });
    const order = await createOrder('refund-retry', 1, 'cs_test_refund_retry');
    const failing = recordingServices(async () => Promise.reject(new Error('Stripe could not refund the payment (504)')));
    expect(await fulfilOrder(t.service(), failing.services, order)).toBe('out_of_stock');
    let { data } = await t.service().from('orders').select('payment_status, refunded_at').eq('id', order).single();
    expect(data).toEqual({ payment_status: 'refund_due', refunded_at: null });
    expect(failing.sent).toEqual([]);

    const working = recordingServices(async () => ({ id: 're_test_retry', status: 'pending' }));
    expect(await fulfilOrder(t.service(), working.services, order)).toBe('out_of_stock');
    ({ data } = await t.service().from('orders').select('payment_status, refund_id').eq('id', order).single());
    expect(data).toEqual({ payment_status: 'refund_due', refund_id: 're_test_retry' });
    expect(working.sent).toHaveLength(1);
  });

  it('a refund can be recorded only for an order that is refund_due, and only once', async () => {
    const order = await createOrder('book-10-reasons', 1);
    expect((await t.service().rpc('record_refund', { p_order_id: order, p_refund_id: 're_x' })).data).toBe(false);
    const { error } = await t.service().from('orders').update({ refund_id: 're_x', refunded_at: new Date().toISOString() }).eq('id', order);
    expect(error?.code).toBe('23514');
  });
});

describe('the publisher is told of each paid order', () => {
  it('once, at NOTIFY_EMAIL_TO, with the order number, items, total, delivery method and a link to it in /admin; the shopper gets the status link', async () => {
    const order = await createOrder('book-10-reasons', 2, 'cs_test_notice');
    const { services, sent } = recordingServices(undefined, 'publisher@example.com.au');
    await Promise.all([1, 2, 3].map(() => fulfilOrder(t.service(), services, order)));
    const notices = sent.filter((m) => m.to === 'publisher@example.com.au');
    expect(notices).toHaveLength(1);
    const number = await t.orderNumber(order);
    expect(number).toMatch(/^[1-9][0-9]{3,}$/);
    expect(notices[0]!.subject).toBe(`New order ${number}: $44.00 AUD`);
    expect(notices[0]!.text).toContain('Item × 2 — $44.00');
    expect(notices[0]!.text).toContain('Delivery: AU Standard Courier');
    expect(notices[0]!.text).toContain(`https://shop.example/admin#order/${order}`);
    const confirmation = sent.find((m) => m.to === 'buyer@example.com')!;
    expect(confirmation.text).toMatch(/Follow your order: https:\/\/shop\.example\/order-status#[0-9a-f]{64}/);
  });

  it("at the site's own contact address when NOTIFY_EMAIL_TO is unset or empty, so a new deploy hears of its first sale", () => {
    const request = new Request('https://shop.example/api/verify-payment');
    const payments = { refundSession: vi.fn() } as unknown as FulfilmentServices['payments'];
    const services = (env: Partial<ServerEnv>) => fulfilmentServices({ SHOP_LOCAL_SERVER: '1', ...env } as ServerEnv, request, payments);
    expect(services({}).notifyTo).toBe(SITE.email);
    expect(services({ NOTIFY_EMAIL_TO: '' }).notifyTo).toBe(SITE.email);
    expect(services({ NOTIFY_EMAIL_TO: 'orders@example.com.au' }).notifyTo).toBe('orders@example.com.au');
  });

  it('not at all when the services name no publisher address', async () => {
    const order = await createOrder('book-10-reasons', 1, 'cs_test_no_notice');
    const { services, sent } = recordingServices();
    await fulfilOrder(t.service(), services, order);
    expect(sent.map((m) => m.to)).toEqual(['buyer@example.com']);
  });
});
