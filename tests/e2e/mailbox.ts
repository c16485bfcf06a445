/**
 * Reading the local outbox as a reader reads their inbox: the emails to one address, the confirmation a sign-up
 * sent, and the links in an email. The shop's emails are appended to the outbox file before the request that
 * sent them answers, so what the page has just said was sent is there.
 *
 * And sign-ups from a visitor's own address: the shop allows a visitor 10 sign-ups a minute (/api/send-notification's
 * limit, counted per client address as Netlify counts it), and every test's browser and `request` come from
 * 127.0.0.1, so a story with several people gives each an address of their own, and the suite's sign-ups together
 * do not reach one visitor's limit.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { type OutboxEntry, readOutbox } from '../../functions/_lib/providers/local-email';
import { postFrom, type VisitorAddress } from '../helpers/post-from';

export type { VisitorAddress };

export const OUTBOX = 'test-results/outbox.jsonl';

/** Every email to `email`, oldest first. */
export const mailsTo = async (email: string, outbox = OUTBOX): Promise<OutboxEntry[]> => (await readOutbox(outbox)).filter((m) => m.to.toLowerCase() === email.toLowerCase());

export const NEWSLETTER_CONFIRMATION = 'Please confirm your subscription to the Awesome Catholic Kids newsletter';
export const availabilityConfirmation = (title: string) => `Please confirm: email me when ${title} is available`;

/** The one confirmation email with this subject to `email` (waited for, and there must be only one). */
export async function confirmationTo(email: string, subject: string, outbox = OUTBOX): Promise<OutboxEntry> {
  await expect.poll(async () => (await mailsTo(email, outbox)).filter((m) => m.subject === subject).length, { message: `the confirmation email to ${email}` }).toBe(1);
  return (await mailsTo(email, outbox)).find((m) => m.subject === subject)!;
}

/** The confirmation link of a confirmation email, or its "This wasn't me" link. */
export function confirmLink(mail: OutboxEntry, answer: 'confirm' | 'decline' = 'confirm'): string {
  const link = mail.text.match(answer === 'confirm' ? /(https?:\/\/\S+\/newsletter\/confirm#\S+)/ : /(https?:\/\/\S+\/newsletter\/confirm\?answer=decline#\S+)/)?.[1];
  expect(link, `the ${answer} link in “${mail.subject}”`).toBeTruthy();
  return link!;
}

/** Confirms as the confirmation page does, without opening it: the link's token posted to /api/email-confirm. */
export async function confirmWithoutPage(request: APIRequestContext, mail: OutboxEntry): Promise<void> {
  const token = confirmLink(mail).split('#')[1]!;
  const response = await request.post('/api/email-confirm', { data: { token, answer: 'confirm' } });
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as { state: string }).state).toBe('confirmed');
}

/** The unsubscribe page's link in a newsletter or availability email. */
export function unsubscribeLink(mail: OutboxEntry): string {
  const link = mail.html?.match(/href="(https?:\/\/[^"]+\/newsletter\/unsubscribe#[^"]+)"/)?.[1];
  expect(link, `the unsubscribe link in “${mail.subject}”`).toBeTruthy();
  return link!;
}

/** A POST to the shop from `visitor`'s address; answers the status, content type and body. */
const postToShop = (visitor: VisitorAddress, path: string, body: string) => postFrom(test.info().project.use.baseURL!, visitor, path, body);

/** Another person's sign-up, posted from their own address. Answers the status. */
export async function signUpElsewhere(visitor: VisitorAddress, body: { type: 'newsletter' | 'back_in_stock'; data: Record<string, string> }): Promise<number> {
  return (await postToShop(visitor, '/api/send-notification', JSON.stringify(body))).status;
}

/** The page's sign-ups (its forms' posts to /api/send-notification) reach the shop from `visitor`'s own address. */
export async function signUpsFrom(page: Page, visitor: VisitorAddress): Promise<void> {
  await page.route('**/api/send-notification', async (route) => {
    const answer = await postToShop(visitor, '/api/send-notification', route.request().postData() ?? '');
    await route.fulfill({ status: answer.status, contentType: answer.contentType, body: answer.body });
  });
}
