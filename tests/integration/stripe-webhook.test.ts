/**
 * Stripe mode end to end on the server side: the webhook checks the signature on the raw body, a replayed
 * or concurrent event (and a concurrent verify-payment) fulfils once — one stock decrement, one email —
 * and a bad signature is refused with nothing written; a sold-out order's refund is retried by redelivery
 * until it succeeds. Every payment is bound to its order: the order is found by the session id the shop
 * stored, never by ids the event carries, and the amount and currency must match. Stripe's API is a local
 * server answering as Stripe.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestShop, type TestShop } from '../helpers/shop';
import { readOutbox } from '../../functions/_lib/providers/local-email';

const WEBHOOK_SECRET = 'whsec_test_local_secret';
const outbox = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'outbox.jsonl');
/** The sessions Stripe knows: what each charged, and the order id it carries (which anyone can set). */
const sessions = new Map<string, { orderId: string; paid: boolean; amountTotal: number; currency: string }>();
/** Refund requests Stripe answered, and whether it is failing them (an outage on Stripe's side). */
const refunds: Array<{ paymentIntent: string | null; idempotencyKey: string | undefined; answered: number }> = [];
let refundsFailing = false;
let stripeApi: Server;
let t: TestShop;

beforeAll(async () => {
  // GET /v1/checkout/sessions/:id and POST /v1/refunds, answered the way Stripe's API reference shows them.
  stripeApi = createServer(async (req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && req.url === '/v1/refunds') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const paymentIntent = new URLSearchParams(body).get('payment_intent');
      const answered = refundsFailing ? 500 : 200;
      refunds.push({ paymentIntent, idempotencyKey: req.headers['idempotency-key'] as string | undefined, answered });
      res.statusCode = answered;
      // Stripe's header telling its SDKs whether a retry could help; the redelivered webhook is the retry here.
      res.setHeader('stripe-should-retry', 'false');
      return void res.end(
        JSON.stringify(
          refundsFailing
            ? { error: { type: 'api_error', message: 'An unknown error occurred' } }
            : { id: `re_${refunds.length}`, object: 'refund', amount: 3700, currency: 'aud', payment_intent: paymentIntent, status: 'succeeded' },
        ),
      );
    }
    const id = req.url?.match(/^\/v1\/checkout\/sessions\/([^/?]+)/)?.[1];
    const session = id ? sessions.get(id) : undefined;
    if (!session) {
      res.statusCode = 404;
      return void res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${id}'` } }));
    }
    res.end(
      JSON.stringify({
        id,
        object: 'checkout.session',
        status: session.paid ? 'complete' : 'open',
        payment_status: session.paid ? 'paid' : 'unpaid',
        payment_intent: session.paid ? `pi_${id}` : null,
        amount_total: session.amountTotal,
        currency: session.currency,
        metadata: { order_id: session.orderId },
        client_reference_id: session.orderId,
      }),
    );
  });
  await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  const port = (stripeApi.address() as { port: number }).port;
  Object.assign(process.env, { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE_URL: `http://127.0.0.1:${port}`, LOCAL_OUTBOX_FILE: outbox });
  t = await startTestShop();
});
afterAll(async () => {
  await t.close();
  stripeApi.close();
  for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE_URL', 'LOCAL_OUTBOX_FILE']) delete process.env[key];
});

async function pendingOrder(sessionId: string, quantity = 1, productId = 'book-10-reasons'): Promise<string> {
  const { data, error } = await t
    .service()
    .from('orders')
    .insert({
      customer_email: 'stripe@example.com',
      subtotal_amount: 22 * quantity,
      shipping_amount: 15,
      total_amount: 22 * quantity + 15,
      shipping_address: { line1: '1 St' },
      shipping_method: { name: 'AU Standard Courier' },
      checkout_session_id: sessionId,
    })
    .select('id')
    .single();
  if (error) throw error;
  await t.service().from('order_items').insert({ order_id: data.id, product_id: productId, title: 'Book', quantity, price_at_time: 22 });
  sessions.set(sessionId, { orderId: data.id as string, paid: true, amountTotal: (22 * quantity + 15) * 100, currency: 'aud' });
  return data.id as string;
}

/** A signed event about a session; the session's amount and currency are Stripe's record of it unless overridden. */
function completedEvent(eventId: string, sessionId: string, orderId: string, type = 'checkout.session.completed', session: Record<string, unknown> = {}) {
  const known = sessions.get(sessionId);
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        amount_total: known?.amountTotal ?? 3700,
        currency: known?.currency ?? 'aud',
        metadata: { order_id: orderId },
        client_reference_id: orderId,
        ...session,
      },
    },
  });
}

const orderState = async (orderId: string) => (await t.service().from('orders').select('status, payment_status').eq('id', orderId).single()).data;
const verify = async (sessionId: string) =>
  (await fetch(`${t.url}/api/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId }) })).json();

async function sendWebhook(payload: string, signature?: string) {
  const header = signature ?? (await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET }));
  const response = await fetch(`${t.url}/api/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': header, 'content-type': 'application/json' }, body: payload });
  return response.status;
}

const stock = async () => (await t.anon().from('products').select('stock').eq('id', 'book-10-reasons').single()).data!.stock as number;
const emailsFor = async (orderId: string) => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `order-confirmation-${orderId}`);

describe('the name on the parcel', () => {
  it('an order placed with the name left out takes the payer’s name from the session; a name the shopper typed stays', async () => {
    const blank = await pendingOrder('cs_test_payer_name');
    expect(
      await sendWebhook(completedEvent('evt_payer_name', 'cs_test_payer_name', blank, 'checkout.session.completed', { customer_details: { name: 'Jane Payer', email: 'stripe@example.com' } })),
    ).toBe(200);
    expect((await t.service().from('orders').select('customer_name').eq('id', blank).single()).data?.customer_name).toBe('Jane Payer');
    expect((await emailsFor(blank))[0]?.text).toMatch(/^Hello Jane Payer,/m);

    const named = await pendingOrder('cs_test_typed_name');
    await t.service().from('orders').update({ customer_name: 'Grandma Rose' }).eq('id', named);
    expect(await sendWebhook(completedEvent('evt_typed_name', 'cs_test_typed_name', named, 'checkout.session.completed', { customer_details: { name: 'Card Holder' } }))).toBe(200);
    expect((await t.service().from('orders').select('customer_name').eq('id', named).single()).data?.customer_name).toBe('Grandma Rose');
  });
});

describe('the Stripe webhook', () => {
  it('a bad signature is refused with 400 and writes nothing', async () => {
    const orderId = await pendingOrder('cs_test_badsig');
    const before = await stock();
    expect(await sendWebhook(completedEvent('evt_bad', 'cs_test_badsig', orderId), 't=1,v1=forged')).toBe(400);
    expect(await sendWebhook(completedEvent('evt_bad', 'cs_test_badsig', orderId), '')).toBe(400);
    expect(await stock()).toBe(before);
    expect((await t.service().from('payment_events').select('id').eq('id', 'evt_bad')).data).toEqual([]);
    expect((await t.service().from('orders').select('payment_status').eq('id', orderId).single()).data?.payment_status).toBe('unpaid');
  });

  it('a replayed event fulfils once: one stock decrement, one email', async () => {
    const orderId = await pendingOrder('cs_test_replay', 2);
    const before = await stock();
    const payload = completedEvent('evt_replay', 'cs_test_replay', orderId);
    expect(await sendWebhook(payload)).toBe(200);
    expect(await sendWebhook(payload)).toBe(200);
    expect(await sendWebhook(completedEvent('evt_replay_2', 'cs_test_replay', orderId, 'checkout.session.async_payment_succeeded'))).toBe(200);
    expect(await stock()).toBe(before - 2);
    expect(await emailsFor(orderId)).toHaveLength(1);
  });

  it('a webhook and verify-payment at the same moment fulfil once', async () => {
    const orderId = await pendingOrder('cs_test_race', 3);
    const before = await stock();
    const [webhook, ...verifies] = await Promise.all([
      sendWebhook(completedEvent('evt_race', 'cs_test_race', orderId)),
      ...[1, 2, 3].map(() =>
        fetch(`${t.url}/api/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: 'cs_test_race' }) }).then(async (r) => ({
          status: r.status,
          body: await r.json(),
        })),
      ),
    ]);
    expect(webhook).toBe(200);
    for (const verify of verifies) expect(verify).toMatchObject({ status: 200, body: { paymentStatus: 'paid', orderId } });
    expect(await stock()).toBe(before - 3);
    expect(await emailsFor(orderId)).toHaveLength(1);
  });

  it('an expired session cancels the order and leaves stock untouched', async () => {
    const orderId = await pendingOrder('cs_test_expired');
    const before = await stock();
    expect(await sendWebhook(completedEvent('evt_expired', 'cs_test_expired', orderId, 'checkout.session.expired'))).toBe(200);
    expect(await stock()).toBe(before);
    expect((await t.service().from('orders').select('status').eq('id', orderId).single()).data?.status).toBe('cancelled');
  });

  it('a sold-out order whose refund fails answers 502 unrecorded, and Stripe’s redelivery refunds it once', async () => {
    await t.service().from('products').insert({ id: 'webhook-sold-out', title: 'Sold Out', price: 22, stock: 0 });
    const orderId = await pendingOrder('cs_test_sold_out', 1, 'webhook-sold-out');
    const payload = completedEvent('evt_sold_out', 'cs_test_sold_out', orderId);
    const order = async () => (await t.service().from('orders').select('payment_status, refund_id, refunded_at').eq('id', orderId).single()).data;
    const refundEmails = async () => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `order-refund-${orderId}`);

    refundsFailing = true;
    expect(await sendWebhook(payload)).toBe(502);
    expect((await t.service().from('payment_events').select('id').eq('id', 'evt_sold_out')).data).toEqual([]);
    expect(await order()).toEqual({ payment_status: 'refund_due', refund_id: null, refunded_at: null });

    refundsFailing = false;
    expect(await sendWebhook(payload)).toBe(200);
    expect(await sendWebhook(payload)).toBe(200);
    expect(await order()).toMatchObject({ payment_status: 'refund_due', refund_id: expect.stringMatching(/^re_/), refunded_at: expect.any(String) });
    // Both requests for the one payment under one key: had the first reached Stripe, the second would not refund again.
    expect(refunds).toEqual([
      { paymentIntent: 'pi_cs_test_sold_out', idempotencyKey: `order-refund-${orderId}`, answered: 500 },
      { paymentIntent: 'pi_cs_test_sold_out', idempotencyKey: `order-refund-${orderId}`, answered: 200 },
    ]);
    expect(await refundEmails()).toHaveLength(1);
    expect(await emailsFor(orderId)).toEqual([]);
  });

  it('a paid session the shop did not create fulfils nothing, even when it names a real order', async () => {
    const orderId = await pendingOrder('cs_test_ours');
    const before = await stock();
    // A Payment Link or another integration on the same account: the buyer chose client_reference_id and metadata.
    expect(await sendWebhook(completedEvent('evt_foreign', 'cs_test_someone_elses', orderId, 'checkout.session.completed', { amount_total: 100 }))).toBe(200);
    expect(await orderState(orderId)).toEqual({ status: 'pending', payment_status: 'unpaid' });
    expect(await stock()).toBe(before);
    expect(await emailsFor(orderId)).toEqual([]);
  });

  it('an expired session the shop did not create cancels nothing; its own expired session cancels the order', async () => {
    const orderId = await pendingOrder('cs_test_still_open');
    expect(await sendWebhook(completedEvent('evt_foreign_expiry', 'cs_test_not_ours', orderId, 'checkout.session.expired', { status: 'expired', payment_status: 'unpaid' }))).toBe(200);
    expect(await orderState(orderId)).toEqual({ status: 'pending', payment_status: 'unpaid' });
    expect(await sendWebhook(completedEvent('evt_own_expiry', 'cs_test_still_open', orderId, 'checkout.session.expired', { status: 'expired', payment_status: 'unpaid' }))).toBe(200);
    expect(await orderState(orderId)).toEqual({ status: 'cancelled', payment_status: 'expired' });
  });

  it.each<[string, { amount_total?: number; currency?: string }]>([
    ['an amount other than the order total', { amount_total: 100 }],
    ['another currency', { currency: 'usd' }],
  ])('the shop’s own session paid with %s fulfils nothing', async (_, change) => {
    const sessionId = `cs_test_mismatch_${Object.keys(change)[0]}`;
    const orderId = await pendingOrder(sessionId);
    Object.assign(sessions.get(sessionId)!, change.amount_total ? { amountTotal: change.amount_total } : { currency: change.currency });
    const before = await stock();
    expect(await sendWebhook(completedEvent(`evt_${sessionId}`, sessionId, orderId))).toBe(200);
    expect(await verify(sessionId)).toMatchObject({ paymentStatus: 'unpaid' });
    expect(await orderState(orderId)).toEqual({ status: 'pending', payment_status: 'unpaid' });
    expect(await stock()).toBe(before);
  });

  it('a delayed payment that fails cancels the unpaid order (checkout.session.async_payment_failed)', async () => {
    const orderId = await pendingOrder('cs_test_async_failed');
    expect(await sendWebhook(completedEvent('evt_async_failed', 'cs_test_async_failed', orderId, 'checkout.session.async_payment_failed', { payment_status: 'unpaid' }))).toBe(200);
    expect(await orderState(orderId)).toEqual({ status: 'cancelled', payment_status: 'expired' });
  });

  it('verify-payment reports a cancelled order as cancelled, not paid', async () => {
    const orderId = await pendingOrder('cs_test_cancelled_then_paid');
    expect(await sendWebhook(completedEvent('evt_cancel_first', 'cs_test_cancelled_then_paid', orderId, 'checkout.session.expired', { payment_status: 'unpaid' }))).toBe(200);
    const before = await stock();
    expect(await verify('cs_test_cancelled_then_paid')).toMatchObject({ paymentStatus: 'cancelled', orderId });
    expect(await stock()).toBe(before);
  });

  it('a refund email that fails after the refund is recorded is sent by the next confirmation visit, once', async () => {
    await t.service().from('products').insert({ id: 'webhook-sold-out-email', title: 'Sold Out Too', price: 22, stock: 0 });
    const orderId = await pendingOrder('cs_test_refund_email', 1, 'webhook-sold-out-email');
    const refundEmails = async () => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `order-refund-${orderId}`);
    // The outbox path runs through a file, so the email provider fails to send (as Resend failing would).
    process.env.LOCAL_OUTBOX_FILE = join(outbox, 'not-a-folder', 'outbox.jsonl');
    try {
      expect(await sendWebhook(completedEvent('evt_refund_email', 'cs_test_refund_email', orderId))).toBe(200);
    } finally {
      process.env.LOCAL_OUTBOX_FILE = outbox;
    }
    expect((await t.service().from('orders').select('refund_id, refund_email_sent_at').eq('id', orderId).single()).data).toEqual({
      refund_id: expect.stringMatching(/^re_/),
      refund_email_sent_at: null,
    });
    expect(await refundEmails()).toEqual([]);

    await Promise.all([verify('cs_test_refund_email'), verify('cs_test_refund_email')]);
    expect(await verify('cs_test_refund_email')).toMatchObject({ paymentStatus: 'refund_due' });
    expect(await refundEmails()).toHaveLength(1);
  });

  it('verify-payment reports an unpaid session as not paid, without fulfilling', async () => {
    const orderId = await pendingOrder('cs_test_open');
    sessions.set('cs_test_open', { ...sessions.get('cs_test_open')!, paid: false });
    const before = await stock();
    const response = await fetch(`${t.url}/api/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: 'cs_test_open' }) });
    expect(await response.json()).toMatchObject({ paymentStatus: 'unpaid', orderId });
    expect(await stock()).toBe(before);
  });
});
