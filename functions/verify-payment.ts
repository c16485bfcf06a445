/** Asks the payment provider about a session; a paid one is fulfilled (idempotently) before answering. */
import { z } from 'zod';
import { SHIPPING } from '../src/config/constants';
import { readServerEnv } from '../src/config/env';
import { fulfilOrder } from './_lib/fulfilment';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { selectEmailProvider, selectPaymentProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

const body = z.object({ sessionId: z.string().trim().min(1, 'sessionId is required').max(200).regex(/^[A-Za-z0-9_-]+$/, 'sessionId is not a payment session id') });

export default handle(async (request) => {
  const parsed = await readJsonBody(request, body);
  if ('response' in parsed) return parsed.response;
  const env = readServerEnv();
  const db = serviceClient(env);

  const order = await db.from('orders').select('id, shipping_method').eq('checkout_session_id', parsed.data.sessionId).maybeSingle();
  if (order.error) throw order.error;
  if (!order.data) return problem(404, 'We could not find that payment session.');

  const payments = selectPaymentProvider(env);
  const session = await payments.retrieveSession(parsed.data.sessionId);
  let paymentStatus: string = session.paymentStatus;
  if (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required') {
    const result = await fulfilOrder(db, { email: selectEmailProvider(env), payments }, order.data.id as string);
    paymentStatus = result === 'out_of_stock' ? 'refund_due' : 'paid';
  }
  const method = (order.data.shipping_method ?? {}) as { name?: string; estimatedDelivery?: string; carrier?: string };
  return json({
    paymentStatus,
    orderId: order.data.id,
    shippingDetails: {
      shippingMethod: {
        name: method.name ?? SHIPPING.fallback.domestic.name,
        estimatedDelivery: method.estimatedDelivery ?? SHIPPING.confirmationDeliveryEstimate,
        carrier: method.carrier ?? SHIPPING.defaultCarrier,
      },
    },
  });
});

export const config: FunctionConfig = { path: '/api/verify-payment', method: ['POST'], rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
