/**
 * POST /api/admin-reviews — the publisher moderates a buyer's review: `{ action: 'publish' | 'reject' | 'reply',
 * reviewId, note | reply }`. Staff only; each change is kept in the review's history with the staff member's
 * address. Whatever changes what the site shows (publishing, rejecting or replying to a published review) asks for
 * a rebuild of the site (NETLIFY_BUILD_HOOK_URL, or locally the server's own rebuild); without a way to rebuild,
 * publishing is refused (503) rather than promising what the pages will never show. Publish again after a
 * failed rebuild asks again. Answers { outcome, message }.
 */
import { z } from 'zod';
import { reviewActionBody } from '../src/features/reviews/contract';
import { staffEndpoint } from './_lib/back-office';
import { json, problem, type FunctionConfig } from './_lib/http';
import { SITE_BUILDS_NOT_SET_UP, selectSiteBuilds } from './_lib/providers/select';
import { rpc, serviceClient } from './_lib/supabase-admin';

const SHOWN_SOON = 'The site is being rebuilt; the book’s pages show it in a few minutes.';

export default staffEndpoint(reviewActionBody, async ({ env, staffEmail, body }) => {
  const db = serviceClient(env);
  const { data: current, error } = await db.from('reviews').select('status').eq('id', body.reviewId).maybeSingle();
  if (error) throw error;
  if (!current) return problem(404, 'We could not find that review. It may have been removed; reload the list.');
  const wasPublished = current.status === 'published';
  const changesSite = body.action === 'publish' || wasPublished;
  const builds = selectSiteBuilds(env);
  if (changesSite && !builds) return problem(503, SITE_BUILDS_NOT_SET_UP);

  const outcome =
    body.action === 'reply'
      ? await rpc(db, 'review_reply', { p_review_id: body.reviewId, p_reply: body.reply, p_actor: staffEmail }, z.enum(['replied', 'removed', 'unchanged', 'unknown']))
      : await rpc(
          db,
          'review_moderate',
          { p_review_id: body.reviewId, p_action: body.action, p_note: body.action === 'reject' ? body.note : null, p_actor: staffEmail },
          z.enum(['published', 'rejected', 'already', 'unknown']),
        );
  if (outcome === 'unknown') return problem(404, 'We could not find that review. It may have been removed; reload the list.');

  const messages: Record<Exclude<typeof outcome, 'unknown'>, string> = {
    published: 'Review published.',
    already: body.action === 'publish' ? 'The review was already published.' : 'The review was already rejected.',
    rejected: wasPublished ? 'Review rejected and taken off the site.' : 'Review rejected. It will not appear on the site.',
    replied: 'Reply saved.',
    removed: 'Reply removed.',
    unchanged: 'Nothing changed.',
  };
  // Publish again after a failed rebuild asks again: 'already' rebuilds too.
  if (changesSite && builds && outcome !== 'unchanged' && !(outcome === 'already' && body.action === 'reject')) {
    try {
      await builds.rebuild(`Review ${body.action === 'reply' ? 'reply' : outcome} by ${staffEmail}`);
    } catch (cause) {
      console.error('[admin-reviews] the rebuild was refused', cause);
      const reason = cause instanceof Error ? cause.message : String(cause);
      return problem(502, `${messages[outcome]} But the site could not be rebuilt (${reason}), so its pages do not show the change yet. Press Publish again to try again.`);
    }
    return json({ outcome, message: `${messages[outcome]} ${SHOWN_SOON}` });
  }
  return json({ outcome, message: messages[outcome] });
});

export const config: FunctionConfig = { path: '/api/admin-reviews', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
