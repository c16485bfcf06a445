/**
 * The Stripe adapter, through the real `stripe` package, against a local server answering /v1/checkout/sessions
 * like Stripe: form-encoded parameters in, JSON out, and { error: { type, message, code } } on failure.
 * Webhooks are signed with the package's own test-header helper, exactly as Stripe signs them.
 */
import type { ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createStripePayments } from '../../../functions/_lib/providers/stripe';
import { ProviderError, WebhookSignatureError } from '../../../functions/_lib/providers/errors';
import type { CheckoutSessionInput } from '../../../functions/_lib/providers/payments';
import { sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';
import { excludedPaymentMethods } from '../../../src/features/checkout/payment-methods';

const SECRET_KEY = 'sk_test_51LocalFakeKey';
const WEBHOOK_SECRET = 'whsec_test_local_secret';

// Stripe takes form-encoded parameters: in the query for a GET, in the body otherwise.
const fake = useFakeProvider({ parseBody: (raw, { method, url }) => new URLSearchParams(method === 'GET' ? url.search : raw) });

/** Stripe's JSON answers carry a request id. */
function stripeJson(response: ServerResponse, status: number, body: unknown): void {
  sendJson(response, status, body, { 'request-id': 'req_local' });
}

function stripeError(response: ServerResponse, status: number, error: { type: string; message: string; code?: string; param?: string }): void {
  stripeJson(response, status, { error });
}

function session(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'cs_test_a1b2c3',
    object: 'checkout.session',
    mode: 'payment',
    currency: 'aud',
    amount_total: 5900,
    client_reference_id: 'order-123',
    customer_email: 'buyer@example.com',
    // As Stripe Checkout collects them: the payer's name and country, with the address fields it does not ask for left null.
    customer_details: {
      email: 'buyer@example.com',
      name: 'Jane Payer',
      phone: null,
      address: { country: 'AU', postal_code: null, city: null, line1: null, line2: null, state: null },
      tax_exempt: 'none',
      tax_ids: [],
    },
    livemode: false,
    metadata: { order_id: 'order-123' },
    payment_status: 'unpaid',
    status: 'open',
    url: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3#fidkdWxOYHwnPyd1blpxYHZxWjA0',
    // Stripe's default without expires_at: a day after the session was made.
    expires_at: 1_893_542_400,
    ...overrides,
  };
}

async function fakeStripe(handler: Handler<URLSearchParams>): Promise<Stripe.StripeConfig> {
  const { port } = await fake.start((seen, response) => {
    if (seen.headers.authorization !== `Bearer ${SECRET_KEY}`) {
      stripeError(response, 401, { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***rong' });
      return;
    }
    handler(seen, response);
  });
  return { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false };
}

const INPUT: CheckoutSessionInput = {
  orderId: 'order-123',
  customerEmail: 'buyer@example.com',
  lineItems: [
    { name: '10 Reasons Why Being Catholic is Awesome!', unitAmountCents: 2200, quantity: 2 },
    { name: 'Counting Book', unitAmountCents: 1500, quantity: 1 },
  ],
  shipping: { name: 'AU Standard Courier', amountCents: 0, deliveryDays: { min: 3, max: 7 } },
  successUrl: 'https://shop.example.com.au/order-confirmation?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://shop.example.com.au/cart',
  idempotencyKey: 'checkout-order-123',
};

describe('Stripe Checkout Sessions', () => {
  it('creates a payment session in AUD with database prices, the shipping rate, the order id and the idempotency key', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session()));
    const created = await createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).createCheckoutSession(INPUT);
    expect(created).toEqual({ id: 'cs_test_a1b2c3', url: 'https://checkout.stripe.com/c/pay/cs_test_a1b2c3#fidkdWxOYHwnPyd1blpxYHZxWjA0', expiresAt: '2030-01-02T00:00:00.000Z' });

    const request = fake.seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/v1/checkout/sessions');
    expect(request.headers['idempotency-key']).toBe('checkout-order-123');
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request.body)).toEqual({
      mode: 'payment',
      currency: 'aud',
      customer_email: 'buyer@example.com',
      client_reference_id: 'order-123',
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'aud',
      'line_items[0][price_data][unit_amount]': '2200',
      'line_items[0][price_data][product_data][name]': '10 Reasons Why Being Catholic is Awesome!',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][currency]': 'aud',
      'line_items[1][price_data][unit_amount]': '1500',
      'line_items[1][price_data][product_data][name]': 'Counting Book',
      'shipping_options[0][shipping_rate_data][type]': 'fixed_amount',
      'shipping_options[0][shipping_rate_data][fixed_amount][amount]': '0',
      'shipping_options[0][shipping_rate_data][fixed_amount][currency]': 'aud',
      'shipping_options[0][shipping_rate_data][display_name]': 'AU Standard Courier',
      'shipping_options[0][shipping_rate_data][delivery_estimate][minimum][unit]': 'business_day',
      'shipping_options[0][shipping_rate_data][delivery_estimate][minimum][value]': '3',
      'shipping_options[0][shipping_rate_data][delivery_estimate][maximum][unit]': 'business_day',
      'shipping_options[0][shipping_rate_data][delivery_estimate][maximum][value]': '7',
      success_url: INPUT.successUrl,
      cancel_url: INPUT.cancelUrl,
      'metadata[order_id]': 'order-123',
      'payment_intent_data[metadata][order_id]': 'order-123',
    });
  });

  it('a promotion code: a coupon of the order’s own for exactly the discount (once, one redemption), applied to the session, which closes in 31 minutes', async () => {
    const stripeOptions = await fakeStripe((seen, res) =>
      seen.url.pathname === '/v1/coupons'
        ? stripeJson(res, 200, { id: 'coupon_order_123', object: 'coupon', amount_off: 590 })
        : stripeJson(res, 200, session({ expires_at: Number(seen.body.get('expires_at')) })),
    );
    const before = Math.floor(Date.now() / 1000);
    const made = await createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).createCheckoutSession({ ...INPUT, discount: { name: 'Code PARISH10', amountOffCents: 590 } });
    const [coupon, created] = fake.seen;
    expect(coupon!.url.pathname).toBe('/v1/coupons');
    expect(coupon!.headers['idempotency-key']).toBe('checkout-order-123-coupon');
    expect(Object.fromEntries(coupon!.body)).toEqual({ amount_off: '590', currency: 'aud', duration: 'once', max_redemptions: '1', name: 'Code PARISH10', 'metadata[order_id]': 'order-123' });
    const body = Object.fromEntries(created!.body);
    expect(body['discounts[0][coupon]']).toBe('coupon_order_123');
    expect(Number(body.expires_at) - before).toBeGreaterThanOrEqual(31 * 60);
    expect(Number(body.expires_at) - before).toBeLessThan(32 * 60);
    // When the page closes goes back with it: the order holds the code's use until then.
    expect(made.expiresAt).toBe(new Date(Number(body.expires_at) * 1000).toISOString());
    // The line items keep their database prices: Stripe takes the coupon off their subtotal, never the shipping.
    expect(body['line_items[0][price_data][unit_amount]']).toBe('2200');
  });

  it('an order holding a pre-order: the pay-later methods are left out of the page, whatever the dashboard turns on', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session()));
    const payments = createStripePayments({ secretKey: SECRET_KEY, stripeOptions });
    await payments.createCheckoutSession({ ...INPUT, excludedPaymentMethods: excludedPaymentMethods(true) });
    const excluded = [...fake.seen[0]!.body].filter(([key]) => key.startsWith('excluded_payment_method_types')).map(([, value]) => value);
    expect(excluded).toEqual(['afterpay_clearpay', 'klarna', 'zip', 'affirm']);
    // Without one, the session names no methods at all: the dashboard's choice stands.
    await payments.createCheckoutSession({ ...INPUT, excludedPaymentMethods: excludedPaymentMethods(false) });
    expect([...fake.seen[1]!.body.keys()].filter((key) => key.includes('payment_method'))).toEqual([]);
  });

  it('refuses a discount larger than the goods before calling Stripe', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session()));
    await expect(createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).createCheckoutSession({ ...INPUT, discount: { name: 'Code X', amountOffCents: 6000 } })).rejects.toThrow(TypeError);
    expect(fake.seen).toHaveLength(0);
  });

  it('refuses malformed input before calling Stripe (fractional cents, no session placeholder, no items)', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session()));
    const payments = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions });
    await expect(payments.createCheckoutSession({ ...INPUT, lineItems: [{ name: 'Book', unitAmountCents: 22.5, quantity: 1 }] })).rejects.toThrow(/unitAmountCents/);
    await expect(payments.createCheckoutSession({ ...INPUT, successUrl: 'https://shop.example.com.au/order-confirmation' })).rejects.toThrow(/CHECKOUT_SESSION_ID/);
    await expect(payments.createCheckoutSession({ ...INPUT, lineItems: [] })).rejects.toThrow(/lineItems/);
    expect(fake.seen).toHaveLength(0);
  });

  it('a wrong secret key: 401 invalid_request_error becomes a ProviderError with status 401', async () => {
    const stripeOptions = await fakeStripe(() => undefined);
    const error = await createStripePayments({ secretKey: 'sk_test_wrong', webhookSecret: WEBHOOK_SECRET, stripeOptions })
      .createCheckoutSession(INPUT)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'stripe', status: 401, code: 'rejected', message: expect.stringContaining('Invalid API Key') });
  });

  it('a 400 parameter error keeps Stripe’s code and message', async () => {
    const stripeOptions = await fakeStripe((_seen, res) =>
      stripeError(res, 400, { type: 'invalid_request_error', code: 'email_invalid', param: 'customer_email', message: 'Invalid email address: buyer@example' }),
    );
    await expect(
      createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).createCheckoutSession({ ...INPUT, customerEmail: 'buyer@example' }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/email_invalid.*Invalid email address/),
    });
  });

  it('an idempotency key reused with different parameters (idempotency_error) is a ProviderError', async () => {
    const stripeOptions = await fakeStripe((_seen, res) =>
      stripeError(res, 400, { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' }),
    );
    await expect(createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).createCheckoutSession(INPUT)).rejects.toMatchObject({ status: 400, code: 'rejected' });
  });

  it('a 500 api_error and a 429 rate_limit_error are ProviderErrors with their status', async () => {
    let status = 500;
    const stripeOptions = await fakeStripe((_seen, res) =>
      status === 500
        ? stripeError(res, 500, { type: 'api_error', message: 'An unknown error occurred' })
        : stripeError(res, 429, { type: 'rate_limit_error', code: 'rate_limit', message: 'Too many requests.' }),
    );
    const payments = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions });
    await expect(payments.createCheckoutSession(INPUT)).rejects.toMatchObject({ status: 500 });
    status = 429;
    await expect(payments.createCheckoutSession(INPUT)).rejects.toMatchObject({ status: 429 });
  });

  it('a session without a payment page URL, or garbage, is a ProviderError', async () => {
    let body: unknown = session({ url: null });
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, body));
    const payments = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions });
    await expect(payments.createCheckoutSession(INPUT)).rejects.toMatchObject({ code: 'invalid-response' });
    body = { id: 42 };
    await expect(payments.createCheckoutSession(INPUT)).rejects.toMatchObject({ code: 'invalid-response' });
  });

  it('a Stripe that does not answer in time is a ProviderError', async () => {
    const stripeOptions = await fakeStripe(() => undefined /* never answers */);
    const started = Date.now();
    const error = await createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions: { ...stripeOptions, timeout: 200 } })
      .createCheckoutSession(INPUT)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'network', status: 504 });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('retrieves a session and maps status, payment status, amount, currency and the payer’s name (never an order id it carries)', async () => {
    let body = session({ status: 'complete', payment_status: 'paid' });
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, body));
    const payments = createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions });

    expect(await payments.retrieveSession('cs_test_a1b2c3')).toEqual({
      id: 'cs_test_a1b2c3',
      status: 'complete',
      paymentStatus: 'paid',
      amountTotalCents: 5900,
      currency: 'aud',
      payerName: 'Jane Payer',
    });
    expect(fake.seen[0]!.method).toBe('GET');
    expect(fake.seen[0]!.url.pathname).toBe('/v1/checkout/sessions/cs_test_a1b2c3');

    body = session({ status: 'expired', payment_status: 'unpaid', amount_total: null, customer_details: null });
    expect(await payments.retrieveSession('cs_test_a1b2c3')).toMatchObject({ status: 'expired', paymentStatus: 'unpaid', amountTotalCents: null, payerName: null });

    body = session({ payment_status: 'no_payment_required' });
    expect(await payments.retrieveSession('cs_test_a1b2c3')).toMatchObject({ paymentStatus: 'no_payment_required' });
  });

  it('leaves the delivery estimate out when none is known, instead of inventing one', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session()));
    await createStripePayments({ secretKey: SECRET_KEY, stripeOptions }).createCheckoutSession({ ...INPUT, shipping: { name: 'International Shipping', amountCents: 2500, deliveryDays: null } });
    const sent = Object.fromEntries(fake.seen[0]!.body);
    expect(sent['shipping_options[0][shipping_rate_data][display_name]']).toBe('International Shipping');
    expect(Object.keys(sent).filter((key) => key.includes('delivery_estimate'))).toEqual([]);
  });

  it('an unknown session: 404 resource_missing becomes a ProviderError with status 404', async () => {
    const stripeOptions = await fakeStripe((_seen, res) =>
      stripeError(res, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'session', message: "No such checkout.session: 'cs_test_missing'" }),
    );
    await expect(createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).retrieveSession('cs_test_missing')).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('resource_missing'),
    });
  });

  it('a session with a status we do not know is a ProviderError, not a guess', async () => {
    const stripeOptions = await fakeStripe((_seen, res) => stripeJson(res, 200, session({ payment_status: 'maybe' })));
    await expect(createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).retrieveSession('cs_test_a1b2c3')).rejects.toMatchObject({
      code: 'invalid-response',
    });
  });
});

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
  it('refunds the session’s whole payment intent once, under the idempotency key, with the order id', async () => {
    const stripeOptions = await fakeStripe((seen, res) => {
      if (seen.method === 'GET') return stripeJson(res, 200, session({ status: 'complete', payment_status: 'paid', payment_intent: 'pi_3LocalFake' }));
      stripeJson(res, 200, { id: 're_3LocalFake', object: 'refund', amount: 5900, currency: 'aud', payment_intent: 'pi_3LocalFake', status: 'succeeded' });
    });
    const refund = await createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).refundSession('cs_test_a1b2c3', {
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
    const stripeOptions = await fakeStripe((seen, res) => {
      if (seen.method === 'GET') return stripeJson(res, 200, session({ status: 'complete', payment_status: 'paid', payment_intent: 'pi_3LocalFake' }));
      stripeJson(res, 200, { id: 're_3Part', object: 'refund', amount: 1250, currency: 'aud', payment_intent: 'pi_3LocalFake', status: 'pending' });
    });
    const refund = await createStripePayments({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, stripeOptions }).refundSession('cs_test_a1b2c3', {
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
