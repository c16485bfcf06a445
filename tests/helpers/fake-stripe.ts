/**
 * Stripe's Checkout API as the Stripe adapter's tests need it, through the real `stripe` package: a local server
 * answering like Stripe (form-encoded parameters in, JSON out, { error: { type, message, code } } on failure), a
 * session as Stripe answers it, and a checkout's input.
 */
import type { ServerResponse } from 'node:http';
import type Stripe from 'stripe';
import type { CheckoutSessionInput } from '../../functions/_lib/providers/payments';
import { type Handler, sendJson, useFakeProvider } from './fake-provider';

export const SECRET_KEY = 'sk_test_51LocalFakeKey';
export const WEBHOOK_SECRET = 'whsec_test_local_secret';

/** Stripe's JSON answers carry a request id. */
export function stripeJson(response: ServerResponse, status: number, body: unknown): void {
  sendJson(response, status, body, { 'request-id': 'req_local' });
}

export function stripeError(response: ServerResponse, status: number, error: { type: string; message: string; code?: string; param?: string }): void {
  stripeJson(response, status, { error });
}

export function session(overrides: Record<string, unknown> = {}): Record<string, unknown> {
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

export const INPUT: CheckoutSessionInput = {
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

/**
 * A fake Stripe for the test file (closed after each test): `fakeStripe(handler)` starts one that refuses any key but
 * SECRET_KEY as Stripe does, and answers the client's options for it; `fake.seen` is what it was asked.
 */
export function useFakeStripe() {
  // Stripe takes form-encoded parameters: in the query for a GET, in the body otherwise.
  const fake = useFakeProvider({ parseBody: (raw, { method, url }) => new URLSearchParams(method === 'GET' ? url.search : raw) });

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

  return { fake, fakeStripe };
}
