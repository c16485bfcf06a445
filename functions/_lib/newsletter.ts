/**
 * Sending a newsletter, or an availability mailing (the one email to everyone who waited for a book), which is sent
 * the same way.
 *
 * Each email carries the recipient's own signed unsubscribe link (mail-links.ts): in the footer, opening the
 * unsubscribe page, and in the List-Unsubscribe header, which mail programs POST to for one-click unsubscribe
 * (RFC 8058).
 *
 * Sending claims the recipients a batch at a time in the database (newsletter_claim_batch), sends the batch in
 * one call to the email provider with an idempotency key made of the mailing and batch number, and marks it
 * sent. A batch whose answer was lost is claimed again later with the same number, so the provider takes it
 * for the retry it is and sends nothing twice.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { NEWSLETTER } from '../../src/config/constants';
import { DB_OUTCOMES } from '../../src/lib/db-outcomes';
import { newsletterEmail } from './marketing-emails';
import { listUnsubscribeHeaders, type MailLink, type MarketingIdentity, signMailLink, unsubscribePageUrl } from './mail-links';
import type { EmailProvider } from './providers/email';
import { rpc } from './supabase-admin';

export interface NewsletterSender {
  db: SupabaseClient;
  email: EmailProvider;
  identity: MarketingIdentity;
}

const newsletterRow = z.object({ id: z.string(), subject: z.string(), body_markdown: z.string(), product_id: z.string().nullable() });
const claim = z.union([
  z.object({
    batch: z.number().int().positive(),
    recipients: z.array(z.object({ email: z.string(), subscription_id: z.string().nullable(), request_id: z.string().nullable() })),
  }),
  z.object({ batch: z.null(), state: z.enum(DB_OUTCOMES.newsletter_claim_batch) }),
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
  const { data: row, error } = await sender.db.from('newsletters').select('id, subject, body_markdown, product_id').eq('id', newsletterId).maybeSingle();
  if (error) throw error;
  if (!row) return null;
  const newsletter = newsletterRow.parse(row);
  let sent = 0;
  for (;;) {
    const next = await rpc(sender.db, 'newsletter_claim_batch', { p_newsletter_id: newsletter.id, p_size: NEWSLETTER.batchSize }, claim);
    if (next.batch === null) return { sent, waiting: await waitingCount(sender.db, newsletter.id), state: next.state };
    const list = newsletter.product_id ? 'availability' : 'newsletter';
    const { siteOrigin, secret, postalAddress } = sender.identity;
    // A recipient removed since it was claimed has no subscription or request, so no unsubscribe link: not sent to.
    const addressed = await Promise.all(
      next.recipients.map(async (r) => {
        const link: MailLink | null = r.subscription_id
          ? { kind: 'newsletter-unsubscribe', subscriptionId: r.subscription_id }
          : r.request_id
            ? { kind: 'availability-unsubscribe', email: r.email }
            : null;
        return link ? { r, token: await signMailLink(secret, link) } : null;
      }),
    );
    const messages = addressed.flatMap((one) => {
      if (!one) return [];
      const { r, token } = one;
      return [
        newsletterEmail({
          to: r.email,
          subject: newsletter.subject,
          markdown: newsletter.body_markdown,
          list,
          pageUrl: unsubscribePageUrl(siteOrigin, token),
          headers: listUnsubscribeHeaders(siteOrigin, token),
          postalAddress,
          siteOrigin,
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
