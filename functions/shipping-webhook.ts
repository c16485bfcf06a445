/**
 * The shipping platform's tracking webhook (set in Starshipit under Settings > Tracking & notifications, with a
 * secret key). A forged signature is answered 401 and changes nothing; each event is kept once by its key, so a
 * repeat changes nothing; an event for an order the shop never sent is logged and answered 200, so the platform
 * stops retrying. Lodged or in transit ships the order (if it was not yet); delivered completes it. An event for an
 * order the publisher cancelled and refunded (a parcel labelled at the platform itself) leaves it cancelled, and
 * the publisher is emailed once. An event older than TRACKING_EVENT_MAX_AGE_DAYS by its own signed time is logged
 * and ignored. With REVIEW_REQUEST_DELAY_DAYS=0 a delivery sends the buyer's review request at once.
 */
import { readServerEnv } from '../src/config/env';
import { sendShippingEmailOnce } from './_lib/back-office';
import { notificationRecipient } from './_lib/fulfilment';
import { handle, json, problem, readBodyText, type FunctionConfig } from './_lib/http';
import { WebhookSignatureError } from './_lib/providers/errors';
import { SHIPPING_PLATFORM_NOT_SET_UP, selectEmailProvider, selectShippingPlatform } from './_lib/providers/select';
import { UnreadableTrackingEvent } from './_lib/providers/starshipit';
import { reviewRequestDelayDays, sendDueReviewRequests } from './_lib/review-requests';
import { platformActor, recordTrackingEvent, retryShipments } from './_lib/shipments';
import { serviceClient } from './_lib/supabase-admin';
import { siteOrigin } from './_lib/runtime';

/**
 * How old a tracking event may be, by its own time: the platform sends within minutes and retries for hours, so an
 * older one is a replay of a captured body (logged, answered 200 so nothing retries it, and changing nothing).
 */
export const TRACKING_EVENT_MAX_AGE_DAYS = 3;

export default handle(async (request) => {
  if (request.method !== 'POST') return problem(405, 'Use POST with the tracking event as JSON.');
  const env = readServerEnv();
  // Only what a tracking event needs: a deploy's payment settings have nothing to do with it.
  const platform = selectShippingPlatform(env);
  if (!platform) return problem(503, SHIPPING_PLATFORM_NOT_SET_UP);
  const services = { email: selectEmailProvider(env), siteOrigin: siteOrigin(env, request) };
  const raw = await readBodyText(request);
  let event: Awaited<ReturnType<typeof platform.readWebhook>>;
  try {
    event = await platform.readWebhook(raw, request.headers);
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      console.warn(`[shipping-webhook] refused: ${error.message}`);
      return problem(401, 'This tracking event is not signed by the shipping platform.');
    }
    if (error instanceof UnreadableTrackingEvent) {
      console.warn(`[shipping-webhook] unreadable: ${error.message}`);
      return problem(400, `${error.message} Send order_number, tracking_status and last_updated_date as Starshipit does.`);
    }
    throw error;
  }
  // The event's own time is inside what the platform signed: a body captured and sent again later is past it.
  const ageDays = (Date.now() - Date.parse(event.occurredAt)) / 86_400_000;
  if (ageDays > TRACKING_EVENT_MAX_AGE_DAYS) {
    console.warn(`[shipping-webhook] ignored ${event.status} for order ${event.orderNumber}: the event is from ${event.occurredAt}, over ${TRACKING_EVENT_MAX_AGE_DAYS} days ago`);
    return json({ received: true, outcome: 'too_old' });
  }
  const db = serviceClient(env);
  const outcome = await recordTrackingEvent(db, platform, event);
  if (outcome.outcome === 'unknown_order' || outcome.outcome === 'unknown_parcel') {
    console.warn(
      `[shipping-webhook] ignored ${event.status} for ${outcome.outcome === 'unknown_order' ? 'unknown order' : 'another parcel of order'} ${event.orderNumber} (${event.trackingNumber ?? 'no tracking number'})`,
    );
  }
  // The event was bound to its order by the order's number, so the number it carries is the order's.
  const number = event.orderNumber;
  // A parcel labelled at the platform itself: the shopper gets the tracking email as from /admin.
  if ((outcome.outcome === 'shipped' || outcome.outcome === 'shipped_and_delivered') && outcome.order_id) {
    await sendShippingEmailOnce({ db, services, actor: platformActor(platform) }, outcome.order_id, number);
  }
  if (outcome.outcome === 'cancelled_order' && outcome.notify && outcome.order_id) {
    const origin = services.siteOrigin.replace(/\/$/, '');
    // One key per order: a retried webhook call does not send it twice.
    await services.email.send({
      to: notificationRecipient(env),
      subject: `Order ${number} was cancelled, but the carrier has its parcel`,
      text: [
        `Order ${number} was cancelled and refunded, but the carrier reports it ${outcome.status ?? event.status}${event.trackingNumber ? ` (tracking number ${event.trackingNumber})` : ''}.`,
        'A label was printed for it at the shipping platform. The order stays cancelled in the shop: if the parcel can still be stopped, ask the carrier; otherwise contact the customer.',
        `The order: ${origin}/admin#order/${outcome.order_id}`,
      ].join('\n\n'),
      idempotencyKey: `cancelled-order-tracking-${outcome.order_id}`,
    });
  }
  // With no delay set, the buyer is asked for a review at delivery rather than at the next scheduled run.
  if ((outcome.outcome === 'delivered' || outcome.outcome === 'shipped_and_delivered') && reviewRequestDelayDays(env) === 0) {
    await sendDueReviewRequests({ db, email: services.email, env, siteOrigin: services.siteOrigin }).catch((error: unknown) =>
      console.error('[shipping-webhook] review requests failed; the scheduled run sends them', error),
    );
  }
  await retryShipments(db, platform, 2);
  return json({ received: true, outcome: outcome.outcome });
});

export const config: FunctionConfig = { path: '/api/shipping-webhook', method: ['POST'] };
