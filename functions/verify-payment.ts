/**
 * Asks the payment provider about a session; a paid one is fulfilled (idempotently) before answering with what
 * happened. A paid order's answer is what the confirmation page shows: its lines, total, delivery address, the email
 * the confirmation went to, the gift and its message if it is one, and its status page (whoever holds the session id paid for it).
 */
import { z } from 'zod';
import { SHIPPING } from '../src/config/constants';
import { readServerEnv } from '../src/config/env';
import { orderDeliveryEstimate } from '../src/features/checkout/delivery-estimates';
import { orderStatusPath } from '../src/lib/paths';
import { postalAddressLines } from '../src/lib/postal-address';
import { fulfilmentServices, fulfilPaidSession } from './_lib/fulfilment';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { findOrderBySession, getOrderWithItems } from './_lib/orders';
import { selectPaymentProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

const body = z.object({
  sessionId: z
    .string()
    .trim()
    .min(1, 'sessionId is required')
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'sessionId is not a payment session id'),
});

export default handleJson(body, async (input, request) => {
  const env = readServerEnv();
  const payments = selectPaymentProvider(env);
  const db = serviceClient(env);

  const order = await findOrderBySession(db, input.sessionId);
  if (!order) return problem(404, 'We could not find that payment session.');

  const session = await payments.retrieveSession(input.sessionId);
  const paymentStatus = await fulfilPaidSession(db, fulfilmentServices(env, request, payments), order, session);
  const method = order.shippingMethod;
  const paid = paymentStatus === 'paid' ? await getOrderWithItems(db, order.id) : null;
  return json({
    paymentStatus,
    orderId: order.id,
    orderNumber: order.number,
    ...(paid && {
      order: {
        items: paid.items.map((item) => ({ title: item.title, quantity: item.quantity, amount: item.unitPrice * item.quantity })),
        discount: paid.discount,
        shipping: paid.shippingAmount,
        total: paid.total,
        deliverTo: [paid.customerName, ...postalAddressLines(paid.shippingAddress)],
        email: paid.customerEmail,
        statusPath: orderStatusPath(paid.statusToken),
        gift: paid.gift ? { recipient: paid.customerName, message: paid.gift.message, hidePrices: paid.gift.hidePrices } : null,
        // A pre-order: the title the whole order waits for (the one out last), and the day it is out.
        preorder: paid.preorders?.[0] ? { title: paid.preorders[0].title, releaseDate: paid.preorders[0].releaseDate } : null,
      },
    }),
    shippingDetails: {
      shippingMethod: {
        name: method.name ?? SHIPPING.fallback.domestic.name,
        estimatedDelivery: orderDeliveryEstimate({ country: order.shippingAddress.country, methodId: method.id, estimatedDelivery: method.estimatedDelivery }),
        carrier: method.carrier ?? SHIPPING.defaultCarrier,
      },
    },
  });
});

export const config: FunctionConfig = { path: '/api/verify-payment', method: ['POST'], rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
