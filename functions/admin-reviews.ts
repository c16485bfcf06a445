/**
 * POST /api/admin-reviews — the publisher moderates a buyer's review: `{ action: 'publish' | 'reject' | 'unpublish'
 * | 'reply', reviewId, note | reply }`. Staff only; each change is kept in the review's history with the staff
 * member's address. Whatever changes what the site shows (publishing, unpublishing, replying to a published review)
 * asks for a rebuild of the site (NETLIFY_BUILD_HOOK_URL, or locally the server's own rebuild); without a way to
 * rebuild it is refused (503) rather than promising what the pages will never show. The same press again after a
 * failed rebuild asks again. A published review is unpublished, never rejected (409). Answers { outcome, message }.
 */
import { z } from 'zod';
import { type ReviewAction, reviewActionBody } from '../src/features/reviews/contract';
import { staffEndpoint } from './_lib/back-office';
import { json, problem, type FunctionConfig } from './_lib/http';
import { SITE_BUILDS_NOT_SET_UP, selectSiteBuilds } from './_lib/providers/select';
import { rpc, serviceClient } from './_lib/supabase-admin';

const NOT_FOUND = 'We could not find that review. It may have been removed; reload the list.';
const moderated = z.enum(['published', 'rejected', 'unpublished', 'already', 'is_published', 'not_published', 'unknown']);
const replied = z.enum(['replied', 'removed', 'unchanged', 'unknown']);
type Outcome = Exclude<z.infer<typeof moderated> | z.infer<typeof replied>, 'unknown'>;

/** Each action's button (pressed again after a failed rebuild) and what it made of the review. */
const BUTTON: Record<ReviewAction['action'], string> = { publish: 'Publish', reject: 'Reject', unpublish: 'Unpublish', reply: 'Save reply' };
const DONE: Record<ReviewAction['action'], string> = { publish: 'published', reject: 'rejected', unpublish: 'unpublished', reply: 'replied to' };

function message(outcome: Outcome, action: ReviewAction['action']): string {
  const messages: Record<Outcome, string> = {
    published: 'Review published. The site is being rebuilt; the book’s pages show it in a few minutes.',
    unpublished: 'Review unpublished. The site is being rebuilt; it comes off the book’s pages in a few minutes.',
    rejected: 'Review rejected. It will not appear on the site.',
    already: `The review was already ${DONE[action]}.`,
    is_published: 'This review is on the site, so it cannot be rejected: use Unpublish to take it off. Reload the list.',
    not_published: 'This review is not on the site, so there is nothing to unpublish. Reload the list.',
    replied: 'Reply saved.',
    removed: 'Reply removed.',
    unchanged: 'Nothing changed.',
  };
  return messages[outcome];
}

export default staffEndpoint(reviewActionBody, async ({ env, staffEmail, body }) => {
  const db = serviceClient(env);
  const { data: current, error } = await db.from('reviews').select('status').eq('id', body.reviewId).maybeSingle();
  if (error) throw error;
  if (!current) return problem(404, NOT_FOUND);
  const changesSite = body.action === 'publish' || body.action === 'unpublish' || (body.action === 'reply' && current.status === 'published');
  const builds = selectSiteBuilds(env);
  if (changesSite && !builds) return problem(503, SITE_BUILDS_NOT_SET_UP);

  const outcome =
    body.action === 'reply'
      ? await rpc(db, 'review_reply', { p_review_id: body.reviewId, p_reply: body.reply, p_actor: staffEmail }, replied)
      : await rpc(db, 'review_moderate', { p_review_id: body.reviewId, p_action: body.action, p_note: body.action === 'publish' ? null : body.note, p_actor: staffEmail }, moderated);
  if (outcome === 'unknown') return problem(404, NOT_FOUND);
  if (outcome === 'is_published' || outcome === 'not_published') return problem(409, message(outcome, body.action));

  // The same press after a failed rebuild ('already', or a reply 'unchanged') asks again.
  if (changesSite && builds) {
    try {
      await builds.rebuild(`Review ${DONE[body.action]} by ${staffEmail}`);
    } catch (cause) {
      console.error('[admin-reviews] the rebuild was refused', cause);
      const reason = cause instanceof Error ? cause.message : String(cause);
      const done = message(outcome, body.action).replace(/ The site is being rebuilt.*$/, '');
      return problem(502, `${done} But the site could not be rebuilt (${reason}), so its pages do not show the change yet. Press ${BUTTON[body.action]} again to try again.`);
    }
  }
  return json({ outcome, message: message(outcome, body.action) });
});

export const config: FunctionConfig = { path: '/api/admin-reviews', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
