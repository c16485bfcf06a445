/**
 * The Stripe adapter after checkout, through the real `stripe` package against a local server answering like
 * Stripe (tests/helpers/fake-stripe.ts): closing a payment page, refunds in full and in part, and webhooks, signed
 * with the package's own test-header helper exactly as Stripe signs them.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createStripePayments } from '../../../functions/_lib/providers/stripe';
import { ProviderError, WebhookSignatureError } from '../../../functions/_lib/providers/errors';
import { SECRET_KEY, session, stripeError, stripeJson, useFakeStripe, WEBHOOK_SECRET } from '../../helpers/fake-stripe';

const { fake, fakeStripe } = useFakeStripe();

describe('Stripe closing a payment page (expire)', () => {
  it('POSTs /v1/checkout/sessions/{id}/expire with no parameters, and maps the expired session it answers', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session({ status: 'expired', payment_status: 'unpaid' })));
    const closed = await createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).expireSession('cs_test_a1b2c3');
    expect(closed).toMatchObject({ id: 'cs_test_a1b2c3', status: 'expired', paymentStatus: 'unpaid' });
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]!.method).toBe('POST');
    expect(fake.seen[0]!.url.pathname).toBe('/v1/checkout/sessions/cs_test_a1b2c3/expire');
    expect([...fake.seen[0]!.body]).toEqual([]);
  });

  it('a session no longer open (400: paid meanwhile, or expired already) is read instead, so the caller learns which', async () => {
    let now = session({ status: 'complete', payment_status: 'paid' });
    const stripeOptions = await fakeStripe((seen, res) => {
      if (seen.method === 'POST') {
        stripeError(res, 400, {
          type: 'invalid_request_error',
          message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of ${String(now.status)}.`,
        });
      } else stripeJson(res, 200, now);
    });
    const payments = createStripePayments({ secretKey: SECRET_KEY, stripeOptions });
    expect(await payments.expireSession('cs_test_a1b2c3')).toMatchObject({ status: 'complete', paymentStatus: 'paid' });
    expect(fake.seen.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(['POST /v1/checkout/sessions/cs_test_a1b2c3/expire', 'GET /v1/checkout/sessions/cs_test_a1b2c3']);
    now = session({ status: 'expired', payment_status: 'unpaid' });
    expect(await payments.expireSession('cs_test_a1b2c3')).toMatchObject({ status: 'expired' });
  });

  it('an unknown session (404), a wrong key (401) or Stripe failing (500) is a ProviderError, never taken for closed', async () => {
    let answer: [number, { type: string; message: string; code?: string }] = [404, { type: 'invalid_request_error', code: 'resource_missing', message: "No such checkout.session: 'cs_test_missing'" }];
    const stripeOptions = await fakeStripe((_seen, res) => stripeError(res, ...answer));
    const payments = createStripePayments({ secretKey: SECRET_KEY, stripeOptions });
    await expect(payments.expireSession('cs_test_missing')).rejects.toMatchObject({ status: 404, message: expect.stringContaining('close the checkout session') });
    answer = [500, { type: 'api_error', message: 'Something went wrong on Stripe’s end.' }];
    await expect(payments.expireSession('cs_test_a1b2c3')).rejects.toBeInstanceOf(ProviderError);
    await expect(createStripePayments({ secretKey: 'sk_test_wrong', stripeOptions }).expireSession('cs_test_a1b2c3')).rejects.toMatchObject({ status: 401 });
  });
});

describe('Stripe refunds', () => {
  /** Stripe as a refund meets it: the session paid by one payment intent, and the refund it makes answered as `refund`. */
  async function refundingStripe(refund: { id: string; amount: number; status: string }) {
    const stripeOptions = await fakeStripe((seen, res) => {
      if (seen.method === 'GET') return stripeJson(res, 200, session({ status: 'complete', payment_status: 'paid', payment_intent: 'pi_3LocalFake' }));
      stripeJson(res, 200, { ...refund, object: 'refund', currency: 'aud', payment_intent: 'pi_3LocalFake' });
    });
    return createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions });
  }

  it('refunds the session’s whole payment intent once, under the idempotency key, with the order id', async () => {
    const refund = await (await refundingStripe({ id: 're_3LocalFake', amount: 5900, status: 'succeeded' })).refundSession('cs_test_a1b2c3', {
      orderId: 'order-123',
      idempotencyKey: 'order-refund-order-123',
    });
    expect(refund).toEqual({ id: 're_3LocalFake', status: 'succeeded' });

    const [read, create] = fake.seen;
    expect(read!.url.pathname).toBe('/v1/checkout/sessions/cs_test_a1b2c3');
    expect(create!.method).toBe('POST');
    expect(create!.url.pathname).toBe('/v1/refunds');
    expect(create!.headers['idempotency-key']).toBe('order-refund-order-123');
    // No amount: the whole payment goes back.
    expect(Object.fromEntries(create!.body)).toEqual({ payment_intent: 'pi_3LocalFake', 'metadata[order_id]': 'order-123', 'metadata[reason]': 'sold_out_at_fulfilment' });
  });

  it('refunds part of the payment: the amount in cents, the publisher’s reason and the shop’s id in the metadata, under its own key', async () => {
    const refund = await (await refundingStripe({ id: 're_3Part', amount: 1250, status: 'pending' })).refundSession('cs_test_a1b2c3', {
      orderId: 'order-123',
      idempotencyKey: 'order-part-refund-r1',
      amountCents: 1250,
      reason: 'Bent corner',
      partRefundId: 'r1',
    });
    expect(refund).toEqual({ id: 're_3Part', status: 'pending' });
    const create = fake.seen[1]!;
    expect(create.headers['idempotency-key']).toBe('order-part-refund-r1');
    expect(Object.fromEntries(create.body)).toEqual({
      payment_intent: 'pi_3LocalFake',
      amount: '1250',
      'metadata[order_id]': 'order-123',
      'metadata[reason]': 'part_refund',
      'metadata[note]': 'Bent corner',
      'metadata[part_refund_id]': 'r1',
    });
  });

  it('finds a part refund again by the shop’s id in its metadata, among the payment’s refunds; none when Stripe never made it', async () => {
    const stripeOptions = await fakeStripe((seen, res) => {
      if (seen.url.pathname.startsWith('/v1/checkout/sessions/')) return stripeJson(res, 200, session({ status: 'complete', payment_status: 'paid', payment_intent: 'pi_3LocalFake' }));
      stripeJson(res, 200, {
        object: 'list',
        url: '/v1/refunds',
        has_more: false,
        data: [
          {
            id: 're_other',
            object: 'refund',
            amount: 500,
            status: 'succeeded',
            payment_intent: 'pi_3LocalFake',
            metadata: { order_id: 'order-123', reason: 'part_refund', part_refund_id: 'r-other' },
          },
          { id: 're_full', object: 'refund', amount: 3700, status: 'succeeded', payment_intent: 'pi_3LocalFake', metadata: {} },
          { id: 're_mine', object: 'refund', amount: 1250, status: 'pending', payment_intent: 'pi_3LocalFake', metadata: { order_id: 'order-123', reason: 'part_refund', part_refund_id: 'r1' } },
        ],
      });
    });
    const payments = createStripePayments({ secretKey: SECRET_KEY, stripeOptions });
    expect(await payments.findPartRefund('cs_test_a1b2c3', 'r1')).toEqual({ id: 're_mine', status: 'pending' });
    expect(await payments.findPartRefund('cs_test_a1b2c3', 'r-never-made')).toBeNull();
    const list = fake.seen[1]!;
    expect(list.method).toBe('GET');
    expect(list.url.pathname).toBe('/v1/refunds');
    expect(Object.fromEntries(list.body)).toEqual({ payment_intent: 'pi_3LocalFake', limit: '100' });
  });

  it('refuses a part refund that is not a whole number of cents before asking Stripe', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session({ payment_intent: 'pi_3LocalFake' })));
    await expect(createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).refundSession('cs_test_a1b2c3', { orderId: 'o', idempotencyKey: 'k', amountCents: 12.5 })).rejects.toThrow(TypeError);
    expect(fake.seen).toEqual([]);
  });

  it('a session with no payment to refund is a ProviderError, and Stripe is not asked to refund', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session({ payment_intent: null })));
    await expect(createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).refundSession('cs_test_a1b2c3', { orderId: 'order-123', idempotencyKey: 'k' })).rejects.toMatchObject({ status: 409 });
    expect(fake.seen.map((r) => r.url.pathname)).toEqual(['/v1/checkout/sessions/cs_test_a1b2c3']);
  });

  it('a charge already refunded (400 charge_already_refunded) is a ProviderError with Stripe’s code', async () => {
    const stripeOptions = await fakeStripe((seen, res) => {
      if (seen.method === 'GET') return stripeJson(res, 200, session({ payment_intent: 'pi_3LocalFake' }));
      stripeError(res, 400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge ch_3LocalFake has already been refunded.' });
    });
    await expect(createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).refundSession('cs_test_a1b2c3', { orderId: 'order-123', idempotencyKey: 'k' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('charge_already_refunded'),
    });
  });
});

describe('Stripe webhooks', () => {
  // Webhooks are verified locally; the client still points at a closed local port so nothing can reach Stripe.
  const offline: Stripe.StripeConfig = { host: '127.0.0.1', port: 9, protocol: 'http', maxNetworkRetries: 0, telemetry: false };
  const payments = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions: offline });

  function event(type: string, object: Record<string, unknown>): string {
    return JSON.stringify({ id: 'evt_1Q2w3e', object: 'event', api_version: '2026-10-28.endive', created: 1763778600, livemode: false, type, data: { object } }, null, 2);
  }

  async function sign(payload: string, options: { secret?: string; timestamp?: number } = {}): Promise<string> {
    return Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: options.secret ?? WEBHOOK_SECRET, ...(options.timestamp ? { timestamp: options.timestamp } : {}) });
  }

  it('a correctly signed checkout.session.completed is a fulfil action with the mapped session', async () => {
    const payload = event('checkout.session.completed', session({ status: 'complete', payment_status: 'paid' }));
    expect(await payments.parseWebhook(payload, await sign(payload))).toEqual({
      id: 'evt_1Q2w3e',
      type: 'checkout.session.completed',
      action: 'fulfil',
      session: { id: 'cs_test_a1b2c3', status: 'complete', paymentStatus: 'paid', amountTotalCents: 5900, currency: 'aud', payerName: 'Jane Payer' },
    });
  });

  it.each([
    ['checkout.session.completed', 'unpaid', 'ignore'],
    ['checkout.session.async_payment_succeeded', 'paid', 'fulfil'],
    ['checkout.session.async_payment_failed', 'unpaid', 'cancel'],
    ['checkout.session.expired', 'unpaid', 'cancel'],
  ])('%s (payment %s) is the provider-neutral action %s', async (type, paymentStatus, action) => {
    const payload = event(type, session({ payment_status: paymentStatus }));
    expect(await payments.parseWebhook(payload, await sign(payload))).toMatchObject({ type, action });
  });

  it('other event types are ignored, without a session', async () => {
    const payload = event('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' });
    expect(await payments.parseWebhook(payload, await sign(payload))).toEqual({ id: 'evt_1Q2w3e', type: 'payment_intent.succeeded', action: 'ignore', session: null });
  });

  it('a missing, forged, stale or tampered signature is a WebhookSignatureError', async () => {
    const payload = event('checkout.session.completed', session({ status: 'complete', payment_status: 'paid' }));
    await expect(payments.parseWebhook(payload, null)).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(payments.parseWebhook(payload, await sign(payload, { secret: 'whsec_someone_else' }))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(payments.parseWebhook(payload, await sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 }))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(payments.parseWebhook(payload.replace('"paid"', '"unpaid"'), await sign(payload))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(payments.parseWebhook(payload, 'garbage')).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('the raw body must be used as received: re-serialised JSON no longer matches', async () => {
    const payload = event('checkout.session.completed', session());
    const reserialised = JSON.stringify(JSON.parse(payload));
    await expect(payments.parseWebhook(reserialised, await sign(payload))).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('a signed checkout event whose session is unreadable is a ProviderError', async () => {
    const payload = event('checkout.session.completed', { id: 'cs_test_x', object: 'checkout.session', status: 'open' });
    await expect(payments.parseWebhook(payload, await sign(payload))).rejects.toMatchObject({ code: 'invalid-response' });
  });

  it('without a webhook secret nothing is trusted', async () => {
    const payload = event('checkout.session.completed', session());
    const unconfigured = createStripePayments({ secretKey: SECRET_KEY, stripeOptions: offline });
    await expect(unconfigured.parseWebhook(payload, await sign(payload))).rejects.toMatchObject({ status: 500, code: 'unsupported' });
  });
});
