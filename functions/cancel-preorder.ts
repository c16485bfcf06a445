/**
 * POST /api/cancel-preorder { token }: the buyer cancels their own pre-order from its status page (found by the
 * unguessable token in their emails), for a full refund, while it waits for its release. It runs the back office's
 * own cancel-and-refund (`runOrderAction`), so the copies, the refund, its email and the history are the same
 * whoever cancels; the history names the buyer. Answers { message } or a 4xx with what to do instead.
 */
import { readServerEnv } from '../src/config/env';
import { runOrderAction } from './_lib/back-office';
import { fulfilmentServices } from './_lib/fulfilment';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { findOrderByStatusToken, statusTokenBody } from './_lib/orders';
import { serviceClient } from './_lib/supabase-admin';

/** Cancelled already (from another tab, or by the shop): said as it is, not as "cannot be cancelled". */
const ALREADY_CANCELLED = 'This pre-order is cancelled already, for a full refund.';

/** Packed or shipped: the buyer is sent to the shop. */
const NOT_WAITING = 'This order is no longer waiting for its release, so it cannot be cancelled here. Reply to your confirmation email and we will help.';

export default handleJson(statusTokenBody, async (body, request) => {
  const env = readServerEnv();
  const db = serviceClient(env);
  const order = await findOrderByStatusToken(db, body.token);
  if (!order) return problem(404, 'We could not find that order. Open the link again from your email.');
  if (order.status === 'cancelled') return problem(409, ALREADY_CANCELLED);
  if (order.status !== 'preorder' || order.paymentStatus !== 'paid') {
    return problem(409, NOT_WAITING);
  }
  const outcome = await runOrderAction({ db, services: fulfilmentServices(env, request), actor: `buyer ${order.customerEmail}` }, { action: 'cancel', orderId: order.id });
  if (outcome.status === 409) return problem(409, (await findOrderByStatusToken(db, body.token))?.status === 'cancelled' ? ALREADY_CANCELLED : NOT_WAITING);
  if (outcome.status >= 500) return json({ message: 'Your pre-order is cancelled. The refund has not gone through yet: we will try again and email you when it is made.' });
  if (outcome.status >= 400) return problem(outcome.status, outcome.message);
  return json({ message: 'Your pre-order is cancelled and your payment refunded in full. We have emailed you a receipt of the refund.' });
});

export const config: FunctionConfig = { path: '/api/cancel-preorder', method: ['POST'], rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
