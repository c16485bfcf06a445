/**
 * POST /api/review — the review form of a review request's link (no sign-in: the signed link names the order).
 * `{ action: 'read', token }` answers the order's books with the buyer's reviews so far; `{ action: 'save', token,
 * productId, review }` saves one book's review (new, or a change until it is published). A link the shop did not
 * sign, or altered by a character, is refused (400); an expired one says so (410); a review the form would refuse
 * is refused field by field (400 { error, fields }); a published, rejected or unpublished review is no longer
 * changed (409), nor one saved from another window since this form loaded it (409: the form sends the version it
 * loaded, the database compares).
 */
import { readServerEnv } from '../src/config/env';
import { REVIEW_MESSAGES, reviewFormAnswer, reviewRequestBody, reviewStatus, shortDisplayName } from '../src/features/reviews/contract';
import { handleJson, json, problem, type FunctionConfig } from './_lib/http';
import { readReviewLink } from './_lib/review-links';
import { outcomeAnswer, rpc, serviceClient } from './_lib/supabase-admin';
import { z } from 'zod';

const formRow = z.object({
  number: z.string(),
  bought_by: z.string().nullable(),
  books: z.array(
    z.object({
      product_id: z.string(),
      title: z.string(),
      review: z.object({ rating: z.number(), title: z.string(), body: z.string(), display_name: z.string(), status: reviewStatus, version: z.number() }).nullable(),
    }),
  ),
});

const version = { version: z.number() };
const submitAnswer = outcomeAnswer('review_submit', {
  saved: version,
  updated: version,
  unchanged: version,
  changed_elsewhere: version,
  published: {},
  not_published: {},
  not_asked: {},
  not_in_order: {},
});

const SAVED = {
  saved: 'Thank you! Your review is with the publisher, who reads every review before it goes on the site.',
  updated: 'Your changes are saved. The publisher reads every review before it goes on the site.',
  unchanged: 'Your review is saved; nothing had changed.',
} as const;

export default handleJson(reviewRequestBody, async (body) => {
  const env = readServerEnv();
  const link = await readReviewLink(env, body.token);
  if (link.status === 'expired') return problem(410, REVIEW_MESSAGES.linkExpired);
  if (link.status !== 'ok') return problem(400, REVIEW_MESSAGES.linkNotValid);
  const db = serviceClient(env);

  if (body.action === 'read') {
    const row = await rpc(db, 'review_form', { p_order_id: link.orderId }, formRow.nullable());
    if (!row) return problem(404, REVIEW_MESSAGES.linkNotValid);
    return json(
      reviewFormAnswer.parse({
        number: row.number,
        displayName: shortDisplayName(row.bought_by),
        books: row.books.map((b) => ({
          productId: b.product_id,
          title: b.title,
          review: b.review && {
            rating: b.review.rating,
            title: b.review.title,
            body: b.review.body,
            displayName: b.review.display_name,
            status: b.review.status,
            version: b.review.version,
          },
        })),
      }),
    );
  }

  const { review } = body;
  const { data, error } = await db.rpc('review_submit', {
    p_order_id: link.orderId,
    p_product_id: body.productId,
    p_rating: review.rating,
    p_title: review.title,
    p_body: review.body,
    p_display_name: review.displayName,
    p_consent: review.consent,
    p_version: body.version,
  });
  if (error) {
    // The database's own limits back the form's: a value past one is the visitor's to fix, not a server fault.
    if (error.code === '23514') return problem(400, 'Please check your review: one of its fields is too long or empty.');
    throw error;
  }
  const answer = submitAnswer.parse(data);
  if (answer.outcome === 'published') return problem(409, REVIEW_MESSAGES.published);
  if (answer.outcome === 'not_published') return problem(409, REVIEW_MESSAGES.notPublished);
  if (answer.outcome === 'changed_elsewhere') return problem(409, REVIEW_MESSAGES.changedElsewhere);
  if (answer.outcome === 'not_asked') return problem(404, REVIEW_MESSAGES.linkNotValid);
  if (answer.outcome === 'not_in_order') return problem(400, 'That book is not in this order. Please review a book from the list.');
  return json({ outcome: answer.outcome, message: SAVED[answer.outcome], version: answer.version });
});

export const config: FunctionConfig = { path: '/api/review', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
