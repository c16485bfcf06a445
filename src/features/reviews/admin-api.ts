/**
 * The back office's Reviews section: the reviews and the counts read with the staff member's own token
 * (`admin_list_reviews`, `admin_review_counts`), and each action sent to /api/admin-reviews, which rebuilds the site
 * when the action changes what it shows.
 */
import * as z from '@/lib/zod-mini';
import { maybeText, postForMessage, rpc, text } from '@/features/admin/api';
import { REVIEW_STATUSES, type ReviewAction } from './contract';

const reviewRow = z.object({
  id: text,
  order_id: text,
  order_number: text,
  product_id: text,
  book_title: text,
  rating: z.number(),
  title: text,
  body: text,
  display_name: text,
  status: z.enum(REVIEW_STATUSES),
  created_at: text,
  updated_at: text,
  published_at: maybeText,
  rejection_note: maybeText,
  reply: maybeText,
  history: z.array(z.object({ at: text, action: text, actor: text, rating: z.number(), title: text, body: text, note: maybeText })),
});
export type ReviewRow = z.infer<typeof reviewRow>;

const counts = z.object({ asked: z.number(), answered: z.number(), published: z.number(), average: z.nullable(z.coerce.number()) });
export type ReviewCounts = z.infer<typeof counts>;

export const listReviews = () => rpc(z.array(reviewRow), 'admin_list_reviews', {}, 'load the reviews');
export const reviewCounts = () => rpc(counts, 'admin_review_counts', {}, 'count the reviews');

/** Runs a moderation action; resolves to the sentence for the publisher, or throws it. */
export const runReviewAction = (action: ReviewAction) => postForMessage('/api/admin-reviews', action);
