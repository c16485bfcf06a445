/**
 * POST /api/send-notification { type: 'newsletter' | 'contact' | 'back_in_stock', data, turnstileToken? }
 *
 * Stores a newsletter sign-up or a contact message and emails the publisher about it, or puts an address on a
 * sold-out book's waiting list ("Email me when it's available"; the bot-check as for the newsletter, no email
 * now: the shopper gets one when the publisher puts the book back in stock, functions/_lib/stock.ts). Browsers may not
 * insert these rows themselves: this function is the only way in, so every row has passed its bot-check
 * and its rate limit. The token is verified for the form's action and this site's hostname: a contact message
 * without a passing token is refused with 403 'Verification failed' and not stored. A newsletter sign-up
 * whose token the bot-check refused is refused the same way; one without a token, or whose token could not be
 * checked (Cloudflare unreachable), is still stored, as the sign-up form never required one (logged and noted
 * in the email). A deploy without TURNSTILE_SECRET_KEY answers 503 to both; only the local server runs
 * without a bot-check.
 *
 * Answers: 200 { ok: true } once the row is stored (an email that fails is only logged: the row is what
 * counts); 409 for an address already subscribed (in any letter case); 4xx { error } with a readable
 * message for any bad request (413 past the body limit); 502 when the row could not be stored; 503 where
 * the bot-check is not set up.
 */
import { HUMAN_CHECK_ACTIONS, NEWSLETTER } from '../src/config/constants';
import { readServerEnv, type ServerEnv } from '../src/config/env';
import { SITE } from '../src/config/site';
import { notificationRequestSchema, type NotificationRequest } from '../src/features/forms/notification';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { serviceClient } from './_lib/supabase-admin';
import { selectEmailProvider, selectHumanCheck } from './_lib/providers/select';
import type { EmailMessage } from './_lib/providers/email';
import type { HumanCheckResult } from './_lib/providers/human-check';

export const config: FunctionConfig = {
  path: '/api/send-notification',
  method: ['POST'],
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};

/** Where notifications go: NOTIFY_EMAIL_TO, else the sender, else the publisher's public address. */
export function notificationRecipient(env: ServerEnv): string {
  return env.NOTIFY_EMAIL_TO ?? env.EMAIL_FROM ?? SITE.email;
}

/** The visitor's address as Netlify (or a proxy) reports it; Turnstile uses it as an extra signal. */
function clientIp(request: Request): string | undefined {
  const ip = request.headers.get('x-nf-client-connection-ip') ?? request.headers.get('x-forwarded-for')?.split(',')[0];
  return ip?.trim() || undefined;
}

/** `refused`: a token was sent and the bot-check judged it bad (not merely missing or unchecked). */
type CheckOutcome = { state: 'off' } | { state: 'passed' } | { state: 'failed'; reason: string; refused: boolean };

async function runHumanCheck(env: ServerEnv, request: Request, body: NotificationRequest): Promise<CheckOutcome> {
  const check = selectHumanCheck(env);
  if (!check.verifies) return { state: 'off' };
  const token = body.turnstileToken?.trim() ?? '';
  if (!token) return { state: 'failed', reason: 'missing-input-response', refused: false };
  let result: HumanCheckResult;
  try {
    result = await check.verify(token, { action: HUMAN_CHECK_ACTIONS[body.type], hostname: new URL(request.url).hostname, remoteIp: clientIp(request) });
  } catch (error) {
    console.error('[send-notification] The bot-check could not be run.', error);
    result = { ok: false, reason: 'verification-error', unavailable: true };
  }
  return result.ok ? { state: 'passed' } : { state: 'failed', reason: result.reason, refused: !result.unavailable };
}

/** The contact form needs a passing token; the newsletter and the back-in-stock list refuse only a token the bot-check judged bad. */
const blocks = (type: NotificationRequest['type'], outcome: CheckOutcome) => outcome.state === 'failed' && (type === 'contact' || outcome.refused);

function describeCheck(outcome: CheckOutcome): string {
  if (outcome.state === 'off') return 'off (no TURNSTILE_SECRET_KEY configured)';
  if (outcome.state === 'passed') return 'passed';
  return `NOT passed (${outcome.reason}); subscribed anyway, as the newsletter does not require it`;
}

/** Only these tell the publisher; a back-in-stock request is counted in the back office instead. */
type PublisherNotice = Exclude<NotificationRequest, { type: 'back_in_stock' }>;

export function composeNotification(body: PublisherNotice, to: string, outcome: CheckOutcome): EmailMessage {
  if (body.type === 'newsletter') {
    const email = body.data.email;
    return {
      to,
      subject: `New newsletter subscriber: ${email}`,
      text: [`${email} subscribed to the ${SITE.name} newsletter on the website.`, '', `Bot-check: ${describeCheck(outcome)}`].join('\n'),
    };
  }
  // The schema has already made name, email and subject single lines and cleaned the message.
  const { name, email, subject, message } = body.data;
  return {
    to,
    subject: `Contact form: ${subject}`,
    replyTo: email,
    text: [
      `New message from the ${SITE.name} contact form.`,
      '',
      `Name: ${name}`,
      `Email: ${email}`,
      `Subject: ${subject}`,
      '',
      'Message:',
      message,
      '',
      `Bot-check: ${describeCheck(outcome)}`,
      `Reply to this email to answer ${name}.`,
    ].join('\n'),
  };
}

/** Postgres unique_violation: the address (in any letter case) is already subscribed. */
const UNIQUE_VIOLATION = '23505';
export const ALREADY_SUBSCRIBED = "You're already subscribed!";
export const ALREADY_WAITING = "You're already on the list for this book: we'll email you once when it's available.";
/** Postgres foreign_key_violation: no such book. */
const FOREIGN_KEY_VIOLATION = '23503';

/** The waiting list of a sold-out book: one row per address and book, in any letter case. */
async function storeBackInStock(env: ServerEnv, body: Extract<NotificationRequest, { type: 'back_in_stock' }>): Promise<'stored' | Response> {
  const { error } = await serviceClient(env).from('back_in_stock_requests').insert({ product_id: body.data.productId, email: body.data.email });
  if (!error) return 'stored';
  if (error.code === UNIQUE_VIOLATION) return problem(409, ALREADY_WAITING);
  if (error.code === FOREIGN_KEY_VIOLATION) return problem(404, 'We could not find that book in the shop.');
  console.error('[send-notification] Storing the back-in-stock request failed.', error);
  return problem(502, 'Your details could not be saved. Please try again later.');
}

/** Inserts the row with the service role; an answer for the browser when that did not happen. */
async function store(env: ServerEnv, body: PublisherNotice): Promise<'stored' | Response> {
  const db = serviceClient(env);
  // A sign-up records when and where the subscriber agreed.
  const consent = { consent_source: NEWSLETTER.signupSource, consent_page: body.type === 'newsletter' ? (body.data.page ?? null) : null };
  const { error } = body.type === 'newsletter' ? await db.from('newsletter_subscriptions').insert({ email: body.data.email, ...consent }) : await db.from('contact_submissions').insert(body.data);
  if (!error) return 'stored';
  if (body.type === 'newsletter' && error.code === UNIQUE_VIOLATION) {
    // Someone who unsubscribed and signs up again: their new consent replaces the old one.
    const again = await db.rpc('newsletter_resubscribe', { p_email: body.data.email, p_source: consent.consent_source, p_page: consent.consent_page });
    if (!again.error && again.data === true) return 'stored';
    if (again.error) console.error('[send-notification] Re-subscribing failed.', again.error);
    return problem(409, ALREADY_SUBSCRIBED);
  }
  console.error(`[send-notification] Storing the ${body.type} failed.`, error);
  return problem(502, 'Your details could not be saved. Please try again later.');
}

export default handle(async (request) => {
  const parsed = await readJsonBody(request, notificationRequestSchema);
  if ('response' in parsed) return parsed.response;
  const body = parsed.data;

  const env = readServerEnv();
  const outcome = await runHumanCheck(env, request, body);
  if (outcome.state === 'failed') {
    if (blocks(body.type, outcome)) {
      console.warn(`[send-notification] ${body.type}: bot-check failed (${outcome.reason}); not stored.`);
      return problem(403, 'Verification failed');
    }
    console.warn(`[send-notification] ${body.type}: bot-check failed (${outcome.reason}); storing it anyway (no token, or none could be checked).`);
  }
  if (body.type === 'back_in_stock') {
    const stored = await storeBackInStock(env, body);
    return stored === 'stored' ? json({ ok: true }) : stored;
  }

  const stored = await store(env, body);
  if (stored !== 'stored') return stored;

  const email = selectEmailProvider(env);
  try {
    await email.send(composeNotification(body, notificationRecipient(env), outcome));
  } catch (error) {
    console.error(`[send-notification] ${email.name} could not send the ${body.type} notification; the ${body.type === 'contact' ? 'message' : 'subscription'} is stored.`, error);
  }
  return json({ ok: true });
});
