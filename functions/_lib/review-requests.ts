/**
 * Asking buyers for a review, once per order: the database claims the orders whose request is due
 * (`claim_review_requests`: delivered REVIEW_REQUEST_DELAY_DAYS ago, or shipped without tracking events
 * REVIEWS.untrackedDeliveryDays before that; paid, not refunded in full or cancelled, not every book on it
 * refunded, the address not opted out of marketing email), each is emailed under an idempotency key of its order, and marked sent; a failed send gives
 * its claim back for the next run. Run by the scheduled function `review-requests`, and at once after a delivery
 * event when the delay is 0.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { REVIEWS, shortDisplayName } from '../../src/features/reviews/contract';
import { reviewRequestEmail } from './marketing-emails';
import { listUnsubscribeHeaders, marketingIdentity, signMailLink, unsubscribePageUrl } from './mail-links';
import type { EmailProvider } from './providers/email';
import { reviewFormUrl, signReviewLink } from './review-links';
import { rpc } from './supabase-admin';

const claimed = z.array(
  z.object({
    order_id: z.string(),
    number: z.string(),
    email: z.string(),
    bought_by: z.string().nullable(),
    items: z.array(z.object({ product_id: z.string(), title: z.string() })),
  }),
);

/** REVIEW_REQUEST_DELAY_DAYS as a whole number of days (0 asks at delivery); the default when unset or not a number. */
export function reviewRequestDelayDays(env: ServerEnv): number {
  const days = Number(env.REVIEW_REQUEST_DELAY_DAYS);
  return env.REVIEW_REQUEST_DELAY_DAYS !== undefined && Number.isInteger(days) && days >= 0 && days <= 60 ? days : REVIEWS.defaultDelayDays;
}

export interface ReviewRequestSender {
  db: SupabaseClient;
  email: EmailProvider;
  env: ServerEnv;
  siteOrigin: string;
}

/** Sends every request that is due, a batch at a time, until none is left; answers how many were sent and failed. */
export async function sendDueReviewRequests({ db, email, env, siteOrigin }: ReviewRequestSender): Promise<{ sent: number; failed: number }> {
  const { secret, postalAddress } = marketingIdentity(env, siteOrigin);
  let sent = 0;
  let failed = 0;
  for (;;) {
    const due = await rpc(db, 'claim_review_requests', { p_delay_days: reviewRequestDelayDays(env), p_untracked_days: REVIEWS.untrackedDeliveryDays, p_size: REVIEWS.batchSize }, claimed);
    if (due.length === 0) return { sent, failed };
    const done: string[] = [];
    const givenBack: string[] = [];
    for (const order of due) {
      try {
        const token = await signReviewLink(env, order.order_id);
        // The address-wide opt-out the checkout reminder's link records: no marketing email of any kind again.
        const unsubscribe = await signMailLink(secret, { kind: 'reminder-unsubscribe', email: order.email });
        await email.send(
          reviewRequestEmail(
            {
              orderId: order.order_id,
              number: order.number,
              to: order.email,
              name: shortDisplayName(order.bought_by).replace(/ \S\.$/, '') || null,
              books: order.items.map((item) => ({ title: item.title, url: reviewFormUrl(siteOrigin, token, item.product_id) })),
            },
            { pageUrl: unsubscribePageUrl(siteOrigin, unsubscribe), headers: listUnsubscribeHeaders(siteOrigin, unsubscribe), postalAddress },
          ),
        );
        done.push(order.order_id);
      } catch (error) {
        console.error(`[review requests] the request for order ${order.number} failed; it is asked again next run`, error);
        givenBack.push(order.order_id);
      }
    }
    if (done.length > 0) sent += await rpc(db, 'review_requests_sent', { p_order_ids: done }, z.number());
    if (givenBack.length > 0) {
      await rpc(db, 'release_review_requests', { p_order_ids: givenBack }, z.number());
      failed += givenBack.length;
      // Whatever refused these will refuse the rest of this run too; the next run tries again.
      return { sent, failed };
    }
  }
}
