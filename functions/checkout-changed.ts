/**
 * POST /api/checkout-changed { cartId } — the checkout tab's cart, address or delivery changed while a payment page
 * for it was open: that page is closed now (at the provider, and its order cancelled), so it can no longer take a
 * payment for an order that is not the one on screen. Proceed then opens a page for the order as it is.
 *
 * Answers 200 { closed } (how many pages were closed; none is fine), 409 when the page was paid meanwhile (the tab
 * then shows the confirmation), 503 when the provider could not close it, 400 for a cart id that cannot be one.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { CART_ID_PATTERN } from '../src/features/checkout/contract';
import { closeOtherPages } from './_lib/cart-checkout';
import { CheckoutRejection } from './_lib/checkout';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { openCheckoutsOfCart } from './_lib/order-checkouts';
import { selectPaymentProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

const bodySchema = z.object({ cartId: z.string({ error: 'cartId is missing.' }).regex(CART_ID_PATTERN, 'cartId must be 8 to 100 letters, digits, - or _.') });

export default handleJson(bodySchema, async (body) => {
  const env = readServerEnv();
  const db = serviceClient(env);
  const open = await openCheckoutsOfCart(db, body.cartId);
  try {
    await closeOtherPages(db, selectPaymentProvider(env), open);
  } catch (error) {
    if (error instanceof CheckoutRejection) return problem(error.status, error.message);
    throw error;
  }
  return json({ closed: open.length });
});

export const config: FunctionConfig = { path: '/api/checkout-changed', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
