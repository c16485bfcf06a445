/**
 * POST /api/admin-newsletter { newsletterId } — sends the next batches of a newsletter the publisher wrote in
 * /admin (admin_create_newsletter drew its recipients), or of an availability mailing a stock change drew. Staff only. Answers { sent, waiting, state, message }:
 * 'more' while there is more to send (the back office calls again), 'busy' while another send holds the last
 * batch, 'done' when everyone has it. A batch the email provider refuses stays claimed and is sent again, with
 * the same idempotency key, by the next call (Resume sending).
 */
import { z } from 'zod';
import { staffEndpoint } from './_lib/back-office';
import { json, problem, type FunctionConfig } from './_lib/http';
import { marketingIdentity } from './_lib/mail-links';
import { sendNewsletterBatches } from './_lib/newsletter';
import { selectEmailProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';
import { siteOrigin } from './_lib/runtime';

/** How long one call keeps sending before it hands back (well inside a function's time limit). */
const SEND_BUDGET_MS = 6000;

const bodySchema = z.object({ newsletterId: z.uuid('newsletterId must be a newsletter id') });

export default staffEndpoint(bodySchema, async ({ request, env, body }) => {
  const sender = { db: serviceClient(env), email: selectEmailProvider(env), identity: marketingIdentity(env, siteOrigin(env, request)) };
  let progress: Awaited<ReturnType<typeof sendNewsletterBatches>>;
  try {
    progress = await sendNewsletterBatches(sender, body.newsletterId, Date.now() + SEND_BUDGET_MS);
  } catch (cause) {
    console.error(`[admin-newsletter] sending ${body.newsletterId} stopped`, cause);
    const reason = cause instanceof Error ? cause.message : String(cause);
    return problem(502, `Sending stopped (${reason}). Nobody gets it twice: use Resume sending to carry on.`);
  }
  if (!progress) return problem(404, 'We could not find that newsletter.');
  const message =
    progress.state === 'done'
      ? 'It has gone to everyone it was for.'
      : progress.state === 'busy'
        ? `Another send is under way; ${progress.waiting} still to go.`
        : `Sent ${progress.sent}; ${progress.waiting} still to go.`;
  return json({ ...progress, message });
});

export const config: FunctionConfig = { path: '/api/admin-newsletter', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
