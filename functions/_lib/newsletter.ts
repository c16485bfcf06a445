/**
 * Sending the newsletter and unsubscribing from it.
 *
 * Each email carries the recipient's own unsubscribe token: their subscription id and an HMAC-SHA256 of it with
 * NEWSLETTER_SIGNING_SECRET, so a link cannot be made for someone else's address by guessing. The link in the
 * email opens the unsubscribe page (token in the fragment); the List-Unsubscribe header names the function mail
 * programs POST to for one-click unsubscribe (RFC 8058), token in the query.
 *
 * Sending claims the recipients a batch at a time in the database (newsletter_claim_batch), sends the batch in
 * one call to the email provider with an idempotency key made of the newsletter and batch number, and marks it
 * sent. A batch whose answer was lost is claimed again later with the same number, so the provider takes it
 * for the retry it is and sends nothing twice.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { NEWSLETTER } from '../../src/config/constants';
import type { ServerEnv } from '../../src/config/env';
import { newsletterEmail } from './emails';
import type { EmailProvider } from './providers/email';
import { ConfigurationError, localStandInsAllowed } from './runtime';

/** The key the local shop signs with when no secret is set (never in a deploy: see unsubscribeSecret). */
const LOCAL_SIGNING_KEY = 'local-shop-newsletter-signing-key (not for a deploy)';

/** The signing secret; a deploy without NEWSLETTER_SIGNING_SECRET cannot send a newsletter or take an unsubscribe. */
export function unsubscribeSecret(env: ServerEnv): string {
  if (env.NEWSLETTER_SIGNING_SECRET) return env.NEWSLETTER_SIGNING_SECRET;
  if (localStandInsAllowed(env)) return LOCAL_SIGNING_KEY;
  throw new ConfigurationError('NEWSLETTER_SIGNING_SECRET is not set for the functions: newsletters cannot be sent or unsubscribed from.');
}

const signature = (secret: string, subscriptionId: string) => createHmac('sha256', secret).update(`newsletter-unsubscribe:${subscriptionId}`).digest('base64url');

export function signUnsubscribeToken(secret: string, subscriptionId: string): string {
  return `${subscriptionId}.${signature(secret, subscriptionId)}`;
}

/** The subscription id a token was signed for, or null when it was not signed with this secret. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const match = token.trim().match(/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/i);
  if (!match) return null;
  const [, id, given] = match as unknown as [string, string, string];
  const expected = Buffer.from(signature(secret, id.toLowerCase()));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? id.toLowerCase() : null;
}

export const unsubscribePageUrl = (siteOrigin: string, token: string) => `${siteOrigin}${NEWSLETTER.unsubscribePagePath}#${token}`;
export const oneClickUnsubscribeUrl = (siteOrigin: string, token: string) => `${siteOrigin}${NEWSLETTER.unsubscribeApiPath}?token=${encodeURIComponent(token)}`;

export interface NewsletterSender {
  db: SupabaseClient;
  email: EmailProvider;
  siteOrigin: string;
  secret: string;
}

const newsletterRow = z.object({ id: z.string(), subject: z.string(), body_markdown: z.string() });
const claim = z.union([
  z.object({ batch: z.number().int().positive(), recipients: z.array(z.object({ email: z.string(), subscription_id: z.string().nullable() })) }),
  z.object({ batch: z.null(), state: z.enum(['done', 'busy']) }),
]);

export interface SendProgress {
  /** Emails this call sent. */
  sent: number;
  /** Recipients still to send to (claimed by another sender, or left for the next call). */
  waiting: number;
  state: 'done' | 'busy' | 'more';
}

/**
 * Sends the newsletter's next batches until none is left or `deadline` (ms since the epoch) has passed; the
 * caller calls again while the state is 'more'. Throws what the provider said when a batch fails (the batch
 * stays claimed and is sent again, with the same key, by a later call).
 */
export async function sendNewsletterBatches(sender: NewsletterSender, newsletterId: string, deadline: number): Promise<SendProgress | null> {
  const { data: row, error } = await sender.db.from('newsletters').select('id, subject, body_markdown').eq('id', newsletterId).maybeSingle();
  if (error) throw error;
  if (!row) return null;
  const newsletter = newsletterRow.parse(row);
  let sent = 0;
  for (;;) {
    const claimed = await sender.db.rpc('newsletter_claim_batch', { p_newsletter_id: newsletter.id, p_size: NEWSLETTER.batchSize });
    if (claimed.error) throw claimed.error;
    const next = claim.parse(claimed.data);
    if (next.batch === null) return { sent, waiting: await waitingCount(sender.db, newsletter.id), state: next.state };
    // A recipient removed since it was claimed has no subscription, so no unsubscribe link: not sent to.
    const messages = next.recipients.flatMap((r) => {
      if (!r.subscription_id) return [];
      const token = signUnsubscribeToken(sender.secret, r.subscription_id);
      return [
        newsletterEmail({
          to: r.email,
          subject: newsletter.subject,
          markdown: newsletter.body_markdown,
          pageUrl: unsubscribePageUrl(sender.siteOrigin, token),
          oneClickUrl: oneClickUnsubscribeUrl(sender.siteOrigin, token),
        }),
      ];
    });
    await sender.email.sendBatch(messages, { idempotencyKey: `newsletter-${newsletter.id}-batch-${next.batch}` });
    const marked = await sender.db.rpc('newsletter_batch_sent', { p_newsletter_id: newsletter.id, p_batch: next.batch });
    if (marked.error) throw marked.error;
    sent += messages.length;
    const waiting = z.number().parse(marked.data);
    if (waiting === 0) return { sent, waiting, state: 'done' };
    if (Date.now() > deadline) return { sent, waiting, state: 'more' };
  }
}

async function waitingCount(db: SupabaseClient, newsletterId: string): Promise<number> {
  const { data, error } = await db.from('newsletter_deliveries').select('email').eq('newsletter_id', newsletterId).in('status', ['pending', 'claimed']);
  if (error) throw error;
  return data.length;
}
