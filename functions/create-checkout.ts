/**
 * Creates the order (pending) from database prices and a server-side shipping quote, then the payment
 * session; answers with the payment page's URL. The browser's prices are never read.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { CheckoutRejection, cartInput, deliveryDays, email, priceCart, quotesFor, shippingDetailsSchema } from './_lib/checkout';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { selectPaymentProvider, selectShippingRates } from './_lib/providers/select';
import { ConfigurationError, serviceClient, userIdFromRequest } from './_lib/supabase-admin';

const body = z.object({
  cartItems: cartInput,
  shippingDetails: shippingDetailsSchema,
  customerEmail: email,
  successUrl: z.url().max(500).optional(),
  cancelUrl: z.url().max(500).optional(),
});

/** Return addresses must be on this site: a checkout can't be made to send a buyer elsewhere. */
function sameOrigin(url: string | undefined, origin: string, fallback: string): string | null {
  if (!url) return `${origin}${fallback}`;
  return new URL(url).origin === origin ? url : null;
}

export default handle(async (request) => {
  const parsed = await readJsonBody(request, body);
  if ('response' in parsed) return parsed.response;
  const { cartItems, shippingDetails, customerEmail } = parsed.data;
  const origin = new URL(request.url).origin;
  const successUrl = sameOrigin(parsed.data.successUrl, origin, '/order-confirmation?session_id={CHECKOUT_SESSION_ID}');
  const cancelUrl = sameOrigin(parsed.data.cancelUrl, origin, '/cart');
  if (!successUrl || !cancelUrl) return problem(400, 'successUrl and cancelUrl must be addresses on this site.');
  const success = successUrl.includes('{CHECKOUT_SESSION_ID}') ? successUrl : `${successUrl}${successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;

  const env = readServerEnv();
  const db = serviceClient(env);
  try {
    const { lines, subtotal } = await priceCart(db, cartItems);
    const shipping = await quotesFor(selectShippingRates(env), lines, subtotal, shippingDetails);
    const method = shipping.quotes.find((q) => q.id === shippingDetails.shippingMethod.id);
    if (!method) return problem(400, 'Please select a shipping method');

    const userId = await userIdFromRequest(db, request);
    const toCents = (n: number) => Math.round(n * 100);
    const total = (toCents(subtotal) + toCents(method.price)) / 100;
    const { fullName, email: _ignored, shippingMethod: _chosen, ...address } = shippingDetails;
    const order = await db
      .from('orders')
      .insert({
        user_id: userId,
        customer_email: customerEmail,
        customer_name: fullName || 'Guest Customer',
        subtotal_amount: subtotal,
        shipping_amount: method.price,
        total_amount: total,
        shipping_address: address,
        shipping_method: { id: method.id, name: method.plan_name, carrier: method.carrier, price: method.price, estimatedDelivery: method.eta.days_range },
        payment_provider: env.STRIPE_SECRET_KEY ? 'stripe' : 'local-test',
      })
      .select('id')
      .single();
    if (order.error) throw order.error;
    const orderId = order.data.id as string;
    const items = await db.from('order_items').insert(lines.map((l) => ({ order_id: orderId, product_id: l.productId, title: l.title, quantity: l.quantity, price_at_time: l.unitPrice })));
    if (items.error) throw items.error;

    const payments = selectPaymentProvider(env);
    const days = deliveryDays(method);
    const session = await payments.createCheckoutSession({
      orderId,
      customerEmail,
      lineItems: lines.map((l) => ({ name: l.title, unitAmountCents: toCents(l.unitPrice), quantity: l.quantity })),
      shipping: { name: method.plan_name, amountCents: toCents(method.price), minDays: days.min, maxDays: days.max },
      successUrl: success,
      cancelUrl,
      idempotencyKey: `checkout-${orderId}`,
    });
    const linked = await db.from('orders').update({ checkout_session_id: session.id }).eq('id', orderId);
    if (linked.error) throw linked.error;
    return json({ url: session.url, sessionId: session.id, orderId });
  } catch (error) {
    if (error instanceof CheckoutRejection) return problem(error.status, error.message);
    if (error instanceof ConfigurationError) {
      console.error('[create-checkout]', error.message);
      return problem(503, 'Card payments are not set up on this site yet. Please contact us to order.');
    }
    throw error;
  }
});

export const config: FunctionConfig = { path: '/api/create-checkout', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
