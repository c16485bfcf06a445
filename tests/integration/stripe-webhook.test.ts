/**
 * Stripe mode end to end on the server side: the webhook checks the signature on the raw body, a replayed
 * or concurrent event (and a concurrent verify-payment) fulfils once — one stock decrement, one email —
 * and a bad signature is refused with nothing written. Stripe's API is a local server answering as Stripe.
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
const sessions = new Map<string, { orderId: string; paid: boolean }>();
let stripeApi: Server;
let t: TestShop;

beforeAll(async () => {
  // GET /v1/checkout/sessions/:id, answered the way Stripe's API reference shows it.
  stripeApi = createServer((req, res) => {
    const id = req.url?.match(/^\/v1\/checkout\/sessions\/([^/?]+)/)?.[1];
    const session = id ? sessions.get(id) : undefined;
    res.setHeader('content-type', 'application/json');
    if (!session) {
      res.statusCode = 404;
      return void res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${id}'` } }));
    }
    res.end(JSON.stringify({ id, object: 'checkout.session', status: session.paid ? 'complete' : 'open', payment_status: session.paid ? 'paid' : 'unpaid', metadata: { order_id: session.orderId }, client_reference_id: session.orderId }));
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

async function pendingOrder(sessionId: string, quantity = 1): Promise<string> {
  const { data, error } = await t
    .service()
    .from('orders')
    .insert({ customer_email: 'stripe@example.com', subtotal_amount: 22 * quantity, shipping_amount: 15, total_amount: 22 * quantity + 15, shipping_address: { line1: '1 St' }, shipping_method: { name: 'AU Standard Courier' }, checkout_session_id: sessionId })
    .select('id')
    .single();
  if (error) throw error;
  await t.service().from('order_items').insert({ order_id: data.id, product_id: 'book-10-reasons', title: 'Book', quantity, price_at_time: 22 });
  sessions.set(sessionId, { orderId: data.id as string, paid: true });
  return data.id as string;
}

function completedEvent(eventId: string, sessionId: string, orderId: string, type = 'checkout.session.completed') {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    data: { object: { id: sessionId, object: 'checkout.session', status: 'complete', payment_status: 'paid', metadata: { order_id: orderId } } },
  });
}

async function sendWebhook(payload: string, signature?: string) {
  const header = signature ?? (await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET }));
  const response = await fetch(`${t.url}/api/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': header, 'content-type': 'application/json' }, body: payload });
  return response.status;
}

const stock = async () => ((await t.anon().from('products').select('stock').eq('id', 'book-10-reasons').single()).data!.stock as number);
const emailsFor = async (orderId: string) => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `order-confirmation-${orderId}`);

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
      ...[1, 2, 3].map(() => fetch(`${t.url}/api/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: 'cs_test_race' }) }).then(async (r) => ({ status: r.status, body: await r.json() }))),
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

  it('verify-payment reports an unpaid session as not paid, without fulfilling', async () => {
    const orderId = await pendingOrder('cs_test_open');
    sessions.set('cs_test_open', { orderId, paid: false });
    const before = await stock();
    const response = await fetch(`${t.url}/api/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: 'cs_test_open' }) });
    expect(await response.json()).toMatchObject({ paymentStatus: 'unpaid', orderId });
    expect(await stock()).toBe(before);
  });
});
