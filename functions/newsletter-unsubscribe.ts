/**
 * POST /api/newsletter-unsubscribe?token=<signed token> — the one-click unsubscribe of every marketing email: the
 * newsletter (its subscription), an availability email (the address, off every waiting list), the checkout
 * reminder and the review request (the address). Mail programs POST here from the List-Unsubscribe header with the body
 * `List-Unsubscribe=One-Click` (RFC 8058); the unsubscribe page the email's link opens posts here the same way.
 * The body is not needed and not read. Each records an opt-out, so the address gets no checkout reminder again.
 * Answers 200 { message } (also when the address had already unsubscribed or was removed), 400 for a token that
 * is missing or not ours.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { DB_OUTCOMES } from '../src/lib/db-outcomes';
import { handle, json, problem, type FunctionConfig } from './_lib/http';
import { isConfirmation, readMailLink, signingSecret } from './_lib/mail-links';
import { serviceClient } from './_lib/supabase-admin';

export const UNSUBSCRIBED = {
  'newsletter-unsubscribe': 'You have been unsubscribed. You will get no more newsletters from us.',
  'availability-unsubscribe': 'You have been unsubscribed. We will send you no more availability emails or checkout reminders.',
  'reminder-unsubscribe': 'You have been unsubscribed. We will send you no more checkout reminders or review requests.',
} as const;
export const LINK_NOT_VALID = 'This unsubscribe link is not valid. Please use the link in your most recent email from us, or reply to it and we will take you off the list.';

export default handle(async (request) => {
  const env = readServerEnv();
  const read = await readMailLink(signingSecret(env), new URL(request.url).searchParams.get('token') ?? '');
  if (read.status !== 'ok' || isConfirmation(read.link)) return problem(400, LINK_NOT_VALID);
  const { link } = read;
  const db = serviceClient(env);
  const { data, error } =
    link.kind === 'newsletter-unsubscribe'
      ? await db.rpc('newsletter_unsubscribe', { p_subscription_id: link.subscriptionId })
      : await db.rpc('marketing_opt_out', { p_email: link.email, p_via: link.kind === 'availability-unsubscribe' ? 'availability' : 'reminder' });
  if (error) throw error;
  const outcome = (link.kind === 'newsletter-unsubscribe' ? z.enum(DB_OUTCOMES.newsletter_unsubscribe) : z.enum(DB_OUTCOMES.marketing_opt_out)).parse(data);
  if (outcome === 'unsubscribed') console.log(`[unsubscribe] ${link.kind}: unsubscribed`);
  return json({ message: UNSUBSCRIBED[link.kind] });
});

export const config: FunctionConfig = { path: '/api/newsletter-unsubscribe', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
