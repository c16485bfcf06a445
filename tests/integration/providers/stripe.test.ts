/**
 * The Stripe adapter's Checkout Sessions, through the real `stripe` package, against a local server answering
 * /v1/checkout/sessions like Stripe (tests/helpers/fake-stripe.ts): form-encoded parameters in, JSON out, and
 * { error: { type, message, code } } on failure. Closing a page, refunds and webhooks: stripe-after-checkout.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createStripePayments } from '../../../functions/_lib/providers/stripe';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import { excludedPaymentMethods } from '../../../src/features/checkout/payment-methods';
import { INPUT, SECRET_KEY, session, stripeError, stripeJson, useFakeStripe, WEBHOOK_SECRET } from '../../helpers/fake-stripe';

const { fake, fakeStripe } = useFakeStripe();

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
