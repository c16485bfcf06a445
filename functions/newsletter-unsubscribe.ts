/**
 * POST /api/newsletter-unsubscribe?token=<signed token> — unsubscribes the address the token was signed for.
 * Mail programs POST here from the List-Unsubscribe header with the body `List-Unsubscribe=One-Click`
 * (RFC 8058); the unsubscribe page the email's link opens posts here the same way. The body is not needed and
 * not read. Answers 200 { message } (also when the address had already unsubscribed or was removed), 400 for a
 * token that is missing or not ours.
 */
import { readServerEnv } from '../src/config/env';
import { handle, json, problem, type FunctionConfig } from './_lib/http';
import { unsubscribeSecret, verifyUnsubscribeToken } from './_lib/newsletter';
import { serviceClient } from './_lib/supabase-admin';

export const UNSUBSCRIBED = 'You have been unsubscribed. You will get no more newsletters from us.';
export const LINK_NOT_VALID = 'This unsubscribe link is not valid. Please use the link in your most recent newsletter, or reply to it and we will take you off the list.';

export default handle(async (request) => {
  const env = readServerEnv();
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const subscriptionId = verifyUnsubscribeToken(unsubscribeSecret(env), token);
  if (!subscriptionId) return problem(400, LINK_NOT_VALID);
  const { data, error } = await serviceClient(env).rpc('newsletter_unsubscribe', { p_subscription_id: subscriptionId });
  if (error) throw error;
  if (data === 'unsubscribed') console.log(`[newsletter-unsubscribe] subscription ${subscriptionId} unsubscribed`);
  return json({ message: UNSUBSCRIBED });
});

export const config: FunctionConfig = { path: '/api/newsletter-unsubscribe', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
