/** What comes in and goes out by email: contact messages, newsletter subscribers, newsletters and their sending. */
import * as z from '@/lib/zod-mini';
import { toCsv } from '@/lib/csv';
import { maybeText, money, newestFirst, postAsStaff, rpc, text } from './api';

const message = z.object({ id: text, name: text, email: text, subject: text, message: text, created_at: text, handled_at: maybeText });
export type ContactMessage = z.infer<typeof message>;
const subscriber = z.object({
  id: text,
  email: text,
  created_at: text,
  /** pending: signed up, not confirmed yet (no consent on record); confirmed; unsubscribed. */
  status: z.enum(['pending', 'confirmed', 'unsubscribed']),
  consent_at: maybeText,
  consent_source: maybeText,
  consent_page: maybeText,
  confirmation_sent_at: maybeText,
  confirmation_page: maybeText,
  unsubscribed_at: maybeText,
});
export type Subscriber = z.infer<typeof subscriber>;
export const markMessageHandled = (id: string) => rpc(z.boolean(), 'admin_mark_message_handled', { p_message_id: id }, 'mark the message handled');
export const removeSubscriber = (id: string) => rpc(z.boolean(), 'admin_remove_subscriber', { p_subscriber_id: id }, 'remove the subscriber');
export const listMessages = () => newestFirst('contact_submissions', message, 'load the messages');
export const listSubscribers = () => newestFirst('newsletter_subscriptions', subscriber, 'load the subscribers');

/**
 * One row per address: its state, when it confirmed from its inbox and on which page it signed up (the consent
 * the Spam Act asks the sender to be able to show), a confirmation still waiting, and an unsubscribe.
 */
export function subscribersCsv(rows: Subscriber[]): string {
  return toCsv(
    ['email', 'status', 'confirmed_at', 'consent_source', 'consent_page', 'confirmation_sent_at', 'unsubscribed_at'],
    rows.map((r) => [r.email, r.status, r.consent_at ?? '', r.consent_source ?? '', r.consent_page ?? '', r.confirmation_sent_at ?? '', r.unsubscribed_at ?? '']),
  );
}
const newsletter = z.object({
  id: text,
  subject: text,
  /** An availability mailing: the book that came back. */
  product_id: z.optional(maybeText),
  created_by: text,
  created_at: text,
  finished_at: maybeText,
  recipients: money,
  sent: money,
  skipped: money,
  unknown: money,
  waiting: money,
});
export type Newsletter = z.infer<typeof newsletter>;
export const listNewsletters = () => rpc(z.array(newsletter), 'admin_list_newsletters', {}, 'load the newsletters');
export const createNewsletter = (subject: string, body: string) =>
  rpc(z.object({ id: text, recipients: money }), 'admin_create_newsletter', { p_subject: subject, p_body: body }, 'save the newsletter');
const sendProgress = z.object({ sent: z.number(), waiting: z.number(), state: z.enum(['done', 'busy', 'more']), message: text });
/** Sends the newsletter's next batches (the server stops after a few seconds; call again while the state is 'more'). */
const sendNewsletter = async (newsletterId: string) => sendProgress.parse(await postAsStaff('/api/admin-newsletter', { newsletterId }));
/** Sends a newsletter or availability mailing until everyone has it (or another send holds the last batch); answers the last message. */
export async function sendAll(newsletterId: string, onProgress: (message: string) => void = () => {}): Promise<string> {
  for (;;) {
    const progress = await sendNewsletter(newsletterId);
    onProgress(progress.message);
    if (progress.state !== 'more') return progress.message;
  }
}
