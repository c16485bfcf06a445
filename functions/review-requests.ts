/**
 * Scheduled (hourly, UTC): asks the buyers of delivered orders for a review, once per order
 * (`_lib/review-requests.ts`). Netlify runs it on its schedule; the local server runs it on the same schedule,
 * and at once on a POST to /.netlify/functions/review-requests. Answers { sent, failed }.
 */
import { readServerEnv } from '../src/config/env';
import { handle, json, type ScheduledFunctionConfig } from './_lib/http';
import { selectEmailProvider } from './_lib/providers/select';
import { sendDueReviewRequests } from './_lib/review-requests';
import { siteOrigin } from './_lib/runtime';
import { serviceClient } from './_lib/supabase-admin';

export default handle(async (request) => {
  const env = readServerEnv();
  const outcome = await sendDueReviewRequests({ db: serviceClient(env), email: selectEmailProvider(env), env, siteOrigin: siteOrigin(env, request) });
  if (outcome.sent > 0 || outcome.failed > 0) console.log(`[review-requests] sent ${outcome.sent}, failed ${outcome.failed}`);
  return json(outcome);
});

export const config: ScheduledFunctionConfig = { schedule: '@hourly' };
