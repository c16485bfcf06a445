/**
 * POST /api/email-confirm { token, answer: 'confirm' | 'decline' } — the links in a sign-up's confirmation email.
 * Confirming writes the consent (newsletter: when, and the page the sign-up was on) or puts the address on the
 * book's waiting list; only the newest confirmation email's link counts. Declining ("this wasn't me") leaves the
 * address unsubscribed (newsletter) or takes the request off the list. The publisher hears of a new subscriber
 * only once they have confirmed.
 *
 * Answers 200 { message, state } for every link the shop signed, whatever it found; 400 for a token that is
 * missing, not ours or past its 7 days.
 */
import { z } from 'zod';
import { CONSENT } from '../src/config/constants';
import { readServerEnv } from '../src/config/env';
import { SITE } from '../src/config/site';
import { DB_OUTCOMES, type DbOutcome } from '../src/lib/db-outcomes';
import { notificationRecipient } from './_lib/fulfilment';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { isConfirmation, readMailLink, signingSecret } from './_lib/mail-links';
import { selectEmailProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

const bodySchema = z.object({
  token: z.string({ error: 'The link is missing its code.' }).max(600, 'This link is not valid.'),
  answer: z.enum(['confirm', 'decline'], { error: "answer must be 'confirm' or 'decline'." }),
});

export const LINK_EXPIRED = `This link has expired: links in a confirmation email work for ${CONSENT.confirmationValidDays} days. Please sign up again and confirm from the new email.`;
export const LINK_NOT_VALID = 'This confirmation link is not valid. Please use the link in the email exactly as it came, or sign up again.';

const STALE = 'This link is from an earlier email. Please use the link in the newest email we sent you, or sign up again.';
/** Each list's answers, by the state its database functions report (DB_OUTCOMES): one sentence for each, no more. */
const NEWSLETTER_ANSWERS: Record<DbOutcome<'newsletter_confirm' | 'newsletter_decline'>, string> = {
  confirmed: "You're subscribed! Thank you for confirming: our newsletter will come to this address.",
  already: "You're already subscribed! No need to confirm again.",
  stale: STALE,
  declined: "Thank you for telling us. This address is not subscribed, and we won't write to it about the newsletter.",
  unknown: 'We could not find this sign-up: it may have expired. Please sign up again if you would like our newsletter.',
};
const AVAILABILITY_ANSWERS: Record<DbOutcome<'back_in_stock_confirm' | 'back_in_stock_decline'>, string> = {
  confirmed: "Thank you for confirming! We'll email you once when the book is available.",
  already: "You're already on the list: we'll email you once when the book is available.",
  stale: STALE,
  declined: "Thank you for telling us. This address is off the list, and we won't write to it about the book.",
  unknown: 'We could not find this request: it may have expired. Please ask again on the book page.',
  available: 'Good news: the book is available now, so there is nothing to wait for. You can order it from its page in the shop.',
  sent: 'We have already emailed you that the book is available. You can order it from its page in the shop.',
};

/** The state the function answered, with its sentence; a state not in the function's list is a broken function. */
function answerOf<W extends string>(answers: Record<W, string>, words: readonly [W, ...W[]], data: unknown): { state: W; message: string } {
  const state = z.enum(words).parse(data) as W;
  return { state, message: answers[state] };
}

export default handleJson(bodySchema, async (body) => {
  const env = readServerEnv();
  const read = await readMailLink(signingSecret(env), body.token);
  if (read.status === 'expired') return problem(400, LINK_EXPIRED);
  if (read.status === 'invalid' || !isConfirmation(read.link)) return problem(400, LINK_NOT_VALID);
  const link = read.link;
  const confirm = body.answer === 'confirm';
  const db = serviceClient(env);
  const issuedAt = read.madeAt.toISOString();
  const { data, error } =
    link.kind === 'newsletter-confirm'
      ? confirm
        ? await db.rpc('newsletter_confirm', { p_subscription_id: link.subscriptionId, p_source: CONSENT.newsletterSource, p_issued_at: issuedAt })
        : await db.rpc('newsletter_decline', { p_subscription_id: link.subscriptionId })
      : confirm
        ? await db.rpc('back_in_stock_confirm', { p_request_id: link.requestId, p_issued_at: issuedAt })
        : await db.rpc('back_in_stock_decline', { p_request_id: link.requestId });
  if (error) throw error;
  const answer =
    link.kind === 'newsletter-confirm'
      ? answerOf(NEWSLETTER_ANSWERS, confirm ? DB_OUTCOMES.newsletter_confirm : DB_OUTCOMES.newsletter_decline, data)
      : answerOf(AVAILABILITY_ANSWERS, confirm ? DB_OUTCOMES.back_in_stock_confirm : DB_OUTCOMES.back_in_stock_decline, data);
  if (answer.state === 'confirmed' && link.kind === 'newsletter-confirm') await tellPublisher(db, link.subscriptionId);
  return json(answer);
});

/** The publisher's notice of a new subscriber; a failed send is only logged (the consent is what counts). */
async function tellPublisher(db: ReturnType<typeof serviceClient>, subscriptionId: string): Promise<void> {
  const env = readServerEnv();
  const email = selectEmailProvider(env);
  try {
    const { data, error } = await db.from('newsletter_subscriptions').select('email, consent_page').eq('id', subscriptionId).single();
    if (error) throw error;
    const row = z.object({ email: z.string(), consent_page: z.string().nullable() }).parse(data);
    await email.send({
      to: notificationRecipient(env),
      subject: `New newsletter subscriber: ${row.email}`,
      text: `${row.email} subscribed to the ${SITE.name} newsletter on the website${row.consent_page ? ` (on ${row.consent_page})` : ''} and confirmed it from their inbox.`,
      idempotencyKey: `newsletter-subscriber-${subscriptionId}`,
    });
  } catch (cause) {
    console.error(`[email-confirm] ${email.name} could not tell the publisher of subscription ${subscriptionId}`, cause);
  }
}

export const config: FunctionConfig = { path: '/api/email-confirm', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
