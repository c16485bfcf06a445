/**
 * The payment provider's webhook: the signature is checked on the raw body before anything else, then the
 * event's action is carried out on the order the shop stored for that payment session. Sessions the shop did
 * not create are ignored, whatever ids they carry. Replays are recorded and ignored.
 *
 * Invoices (schools and parishes on account) are bound the same way: an invoice event changes the shop's invoice
 * only when the provider's invoice is the one stored when it was sent, names the shop's invoice in its metadata,
 * and totals what the shop's does in AUD (functions/_lib/invoices.ts).
 */
import { readServerEnv } from '../src/config/env';
import { remindUnpaidCheckout } from './_lib/checkout-reminder';
import { fulfilmentServices, fulfilPaidSession } from './_lib/fulfilment';
import { handle, json, problem, readBodyText, type FunctionConfig } from './_lib/http';
import { invoiceClosedByProvider, invoicePaid } from './_lib/invoices';
import { cancelUnpaid, findOrderBySession } from './_lib/orders';
import { isEventHandled, recordEventHandled } from './_lib/payment-events';
import { selectInvoiceProvider, selectPaymentProvider } from './_lib/providers/select';
import { STRIPE_INVOICE_WEBHOOK_EVENTS } from './_lib/providers/stripe-invoicing';
import { WebhookSignatureError } from './_lib/providers/errors';
import type { PaymentEvent } from './_lib/providers/payments';
import { serviceClient } from './_lib/supabase-admin';

/** Stripe's checkout.session events are a few KB; this leaves room for any of them, and no more. */
const MAX_EVENT_BYTES = 256 * 1024;

async function receive(request: Request): Promise<Response> {
  if (request.method !== 'POST') return problem(405, 'Use POST with the Stripe event as JSON.');
  const env = readServerEnv();
  const rawBody = await readBodyText(request, MAX_EVENT_BYTES);
  const payments = selectPaymentProvider(env);
  let event: PaymentEvent;
  try {
    event = await payments.parseWebhook(rawBody, request.headers.get('stripe-signature'));
  } catch (error) {
    if (error instanceof WebhookSignatureError) return problem(400, 'Webhook signature verification failed.');
    throw error;
  }

  const db = serviceClient(env);
  if (await isEventHandled(db, event.id)) return json({ received: true, duplicate: true });

  if (event.action === 'ignore' && (STRIPE_INVOICE_WEBHOOK_EVENTS as readonly string[]).includes(event.type)) {
    const services = fulfilmentServices(env, request, payments);
    const invoiceEvent = await selectInvoiceProvider(env, services.siteOrigin).parseWebhook(rawBody, request.headers.get('stripe-signature'));
    if (invoiceEvent) {
      const { invoice } = invoiceEvent;
      const outcome =
        invoiceEvent.action === 'paid'
          ? await invoicePaid(db, services, invoice, 'Stripe')
          : invoiceEvent.action === 'payment_failed'
            ? 'ignored'
            : await invoiceClosedByProvider(db, services, invoice, invoiceEvent.action, 'Stripe');
      // A failed payment leaves the invoice open (Stripe tells the school); nothing changes here.
      if (outcome !== 'paid' && outcome !== 'closed' && outcome !== 'already') console.warn(`[stripe-webhook] ${event.type} for invoice ${invoice.id}: ${outcome}, nothing changed.`);
    }
  } else if (event.action !== 'ignore') {
    const order = await findOrderBySession(db, event.session.id);
    if (!order) {
      // Another Checkout session of the same account (a Payment Link, another integration): not the shop's.
      console.warn(`[stripe-webhook] ${event.type} for session ${event.session.id}, which no order of this shop has: ignored.`);
      return json({ received: true, ignored: true });
    }
    if (event.action === 'fulfil') {
      // A failed refund answers 502 before the event is recorded, so the provider delivers it again and the refund is retried.
      await fulfilPaidSession(db, fulfilmentServices(env, request, payments), order, event.session, { raiseRefundFailure: true });
    } else {
      await cancelUnpaid(db, order.id);
      // The shopper left the payment page unpaid: one reminder, only if they agreed to it at checkout. A failed
      // send answers an error before the event is recorded, so the provider delivers it again.
      // A page the shop closed itself, because the same cart was checked out again, is no page left unpaid.
      if (event.type === 'checkout.session.expired' && !order.replacedAt) await remindUnpaidCheckout(db, fulfilmentServices(env, request, payments), order.id, { raise: true });
    }
  }
  await recordEventHandled(db, event);
  return json({ received: true });
}

export default handle(receive, { maxBodyBytes: MAX_EVENT_BYTES });

export const config: FunctionConfig = { path: '/api/stripe-webhook', method: ['POST'] };
