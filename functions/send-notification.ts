/**
 * POST /api/send-notification { type: 'newsletter' | 'contact', data, turnstileToken? }
 *
 * Stores a newsletter sign-up or a contact message and emails the publisher about it. Browsers may not
 * insert these rows themselves: this function is the only way in, so every row has passed its bot-check
 * and its rate limit. When a bot-check is configured the token is verified for the form's action and this
 * site's hostname: a contact message without a passing token is refused with 403 'Verification failed'
 * and not stored; a newsletter sign-up is not blocked by it (only logged and noted in the email).
 *
 * Answers: 200 { ok: true } once the row is stored (an email that fails is only logged: the row is what
 * counts); 409 for an address already subscribed (in any letter case); 4xx { error } with a readable
 * message for any bad request; 502 when the row could not be stored.
 */
import { HUMAN_CHECK_ACTIONS } from '../src/config/constants';
import { readServerEnv, type ServerEnv } from '../src/config/env';
import { SITE } from '../src/config/site';
import { notificationRequestSchema, type NotificationRequest } from '../src/features/forms/notification';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { serviceClient } from './_lib/supabase-admin';
import { selectEmailProvider, selectHumanCheck } from './_lib/providers/select';
import type { EmailMessage } from './_lib/providers/email';
import type { HumanCheckResult } from './_lib/providers/human-check';

/** Far above the largest valid body (a 5000-character message, escaped, plus a 2048-character token). */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE = `The request body is too large (at most ${MAX_BODY_BYTES / 1024} KB).`;

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

type CheckOutcome = { state: 'off' } | { state: 'passed' } | { state: 'failed'; reason: string };

async function runHumanCheck(env: ServerEnv, request: Request, body: NotificationRequest): Promise<CheckOutcome> {
  const check = selectHumanCheck(env);
  if (!check.verifies) return { state: 'off' };
  const token = body.turnstileToken?.trim() ?? '';
  let result: HumanCheckResult;
  if (!token) {
    result = { ok: false, reason: 'missing-input-response' };
  } else {
    try {
      result = await check.verify(token, { action: HUMAN_CHECK_ACTIONS[body.type], hostname: new URL(request.url).hostname, remoteIp: clientIp(request) });
    } catch (error) {
      console.error('[send-notification] The bot-check could not be run.', error);
      result = { ok: false, reason: 'verification-error' };
    }
  }
  return result.ok ? { state: 'passed' } : { state: 'failed', reason: result.reason };
}

function describeCheck(outcome: CheckOutcome): string {
  if (outcome.state === 'off') return 'off (no TURNSTILE_SECRET_KEY configured)';
  if (outcome.state === 'passed') return 'passed';
  return `NOT passed (${outcome.reason}); subscribed anyway, as the newsletter does not require it`;
}

export function composeNotification(body: NotificationRequest, to: string, outcome: CheckOutcome): EmailMessage {
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

/** Inserts the row with the service role; an answer for the browser when that did not happen. */
async function store(env: ServerEnv, body: NotificationRequest): Promise<'stored' | Response> {
  const db = serviceClient(env);
  const { error } = body.type === 'newsletter' ? await db.from('newsletter_subscriptions').insert({ email: body.data.email }) : await db.from('contact_submissions').insert(body.data);
  if (!error) return 'stored';
  if (body.type === 'newsletter' && error.code === UNIQUE_VIOLATION) return problem(409, ALREADY_SUBSCRIBED);
  console.error(`[send-notification] Storing the ${body.type} failed.`, error);
  return problem(502, 'Your details could not be saved. Please try again later.');
}

export default handle(async (request) => {
  if (request.method !== 'POST') return problem(405, 'Use POST with a JSON body.');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) return problem(413, TOO_LARGE);
  const raw = await request.text();
  if (new TextEncoder().encode(raw).byteLength > MAX_BODY_BYTES) return problem(413, TOO_LARGE);

  const parsed = await readJsonBody(new Request(request.url, { method: 'POST', body: raw }), notificationRequestSchema);
  if ('response' in parsed) return parsed.response;
  const body = parsed.data;

  const env = readServerEnv();
  const outcome = await runHumanCheck(env, request, body);
  if (outcome.state === 'failed') {
    if (body.type === 'contact') {
      console.warn(`[send-notification] contact: bot-check failed (${outcome.reason}); not stored.`);
      return problem(403, 'Verification failed');
    }
    console.warn(`[send-notification] newsletter: bot-check failed (${outcome.reason}); subscribing anyway (it does not block a subscription).`);
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
