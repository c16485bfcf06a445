/**
 * Stripe's webhook: the signature is checked on the raw body before anything else; completed (and
 * asynchronously succeeded) sessions are fulfilled, expired ones cancelled. Replays are recorded and ignored.
 */
import { readServerEnv } from '../src/config/env';
import { fulfilOrder } from './_lib/fulfilment';
import { handle, json, problem, type FunctionConfig } from './_lib/http';
import { selectEmailProvider, selectPaymentProvider } from './_lib/providers/select';
import { WebhookSignatureError } from './_lib/providers/types';
import { serviceClient } from './_lib/supabase-admin';

const FULFIL = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const CANCEL = new Set(['checkout.session.expired', 'checkout.session.async_payment_failed']);

export default handle(async (request) => {
  if (request.method !== 'POST') return problem(405, 'Use POST.');
  const env = readServerEnv();
  const rawBody = await request.text();
  const payments = selectPaymentProvider(env);
  let event;
  try {
    event = await payments.parseWebhook(rawBody, request.headers.get('stripe-signature'));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return problem(400, 'Webhook signature verification failed.');
    throw error;
  }

  const db = serviceClient(env);
  const seen = await db.from('payment_events').select('id').eq('id', event.id).maybeSingle();
  if (seen.error) throw seen.error;
  if (seen.data) return json({ received: true, duplicate: true });

  const orderId = event.session?.orderId;
  if (orderId && FULFIL.has(event.type) && event.session?.paymentStatus !== 'unpaid') {
    // A failed refund answers 502 before the event is recorded, so Stripe delivers it again and the refund is retried.
    await fulfilOrder(db, { email: selectEmailProvider(env), payments }, orderId, { raiseRefundFailure: true });
  } else if (orderId && CANCEL.has(event.type)) {
    const cancelled = await db.rpc('cancel_unpaid_order', { p_order_id: orderId });
    if (cancelled.error) throw cancelled.error;
  }
  // Recorded after handling, so a failure above is retried by Stripe; handling itself is idempotent.
  const recorded = await db.from('payment_events').insert({ id: event.id, type: event.type });
  if (recorded.error && recorded.error.code !== '23505') throw recorded.error;
  return json({ received: true });
});

export const config: FunctionConfig = { path: '/api/stripe-webhook', method: ['POST'] };
