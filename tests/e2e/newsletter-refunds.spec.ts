/**
 * The publisher refunds part of an order and sends the newsletter, on a phone and a desktop (375 and 1280 px):
 * a part refund with its reason (the history, the customer's email, what remains), a second refund for more than remains refused; a
 * newsletter to two subscribers who confirmed from their inbox (one email each, with the one-click unsubscribe
 * headers), one of them unsubscribing through the link, and the next newsletter reaching only the other.
 */
import { type APIRequestContext, expect as baseExpect, type Page, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { scanPage } from '../audit/accessibility';
import { confirmationTo, confirmWithoutPage, NEWSLETTER_CONFIRMATION, signUpElsewhere } from './mailbox';
import { grantStaff, guestBuys, horizontalOverflow, lookAtBothWidths, openFoundOrder, staffSignsIn, uniqueEmail } from './support';

const OUTBOX = 'test-results/outbox.jsonl';
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
// Each back-office screen loads its data after the session and the staff check: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

const dollars = (text: string) => Number(text.replace(/[^0-9.]/g, ''));
const price = (amount: number) => `$${amount.toFixed(2)}`;

async function publisher(page: Page, request: APIRequestContext, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const email = uniqueEmail('publisher');
  await grantStaff(request, email);
  await staffSignsIn(page, email);
}

const PREVIEW_FRAME = 'iframe[title="Preview of the newsletter email"]';

test.describe('the publisher refunds part of an order', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a part refund with its reason, then more than remains refused (on a phone, the form looked at on a desktop too)', async ({ browser, request }) => {
    const customer = uniqueEmail('part-refund');
    const guest = await browser.newPage();
    const number = await guestBuys(guest, customer);
    await guest.close();

    const page = await browser.newPage();
    await publisher(page, request, 375);
    // The order is to pack, so the list before the search may show it too: open it from what the search shows.
    await openFoundOrder(page, number, number);

    const form = page.getByRole('form', { name: 'Refund part' });
    const summary = form.getByTestId('refund-summary');
    await expect(summary).toContainText('Refunded $0.00');
    const paid = dollars((await summary.textContent())!.match(/Paid (\S+)/)![1]!);

    await form.getByLabel('Amount (AUD)').fill('5');
    await form.getByRole('button', { name: 'Refund part' }).click();
    await expect(form.getByRole('alert')).toHaveText('Give a reason for the refund.');
    await form.getByLabel(/^Reason/).fill('Cover arrived with a bent corner');
    await expect(form.getByLabel('Amount (AUD)')).not.toHaveAttribute('placeholder');
    await form.getByRole('button', { name: 'Refund part' }).click();
    // Nothing is refunded until the publisher confirms the amount; “Don’t refund” leaves it as it was.
    await expect(form.getByRole('status')).toHaveText('Refund $5.00 to the customer’s card? It cannot be undone.');
    await form.getByRole('button', { name: 'Don’t refund' }).click();
    await expect(summary).toContainText('Refunded $0.00');
    await form.getByRole('button', { name: 'Refund part' }).click();
    // The pressed button goes with the question, and focus to the one in its place each way.
    await expect(form.getByRole('button', { name: 'Confirm refund of $5.00' })).toBeFocused();
    await form.getByRole('button', { name: 'Confirm refund of $5.00' }).click();
    const left = paid - 5;
    await expect(summary).toContainText(`Refunded $5.00 · Left to refund ${price(left)}`);
    await expect(form.getByRole('button', { name: 'Refund part' })).toBeFocused();
    await expect(page.getByText('payment: partly refunded')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Part refunds' })).toContainText('$5.00 — Cover arrived with a bent corner');
    await expect(page.getByRole('region', { name: 'History' })).toContainText(/refunded part \(A\$5\.00: Cover arrived with a bent corner \(re_local_/);

    await expect
      .poll(async () => (await readOutbox(OUTBOX)).filter((m) => m.to === customer && m.subject === `A refund of $5.00 on your order ${number}`).length, { message: 'the customer’s refund email' })
      .toBe(1);
    const mail = (await readOutbox(OUTBOX)).find((m) => m.to === customer && m.subject.startsWith('A refund of'))!;
    expect(mail.text).toContain('Reason: Cover arrived with a bent corner');
    expect(mail.text).toContain(`with this refund, you have paid ${price(left)} AUD for it.`);

    // More than remains: refused, saying how much is left; nothing more is refunded.
    await form.getByLabel('Amount (AUD)').fill((left + 1).toFixed(2));
    await form.getByLabel(/^Reason/).fill('Postage refund');
    await form.getByRole('button', { name: 'Refund part' }).click();
    await expect(form.getByRole('alert')).toHaveText(`You can refund at most ${price(left)} on this order: that is what is left of its payment.`);
    await expect(form.getByLabel('Amount (AUD)')).toHaveAttribute('aria-invalid', 'true');
    await expect(summary).toContainText('Refunded $5.00');

    await form.scrollIntoViewIfNeeded();
    await lookAtBothWidths(page, 'refund-form');
    await page.close();
  });
});

test.describe('the publisher sends the newsletter', () => {
  // Two newsletters written and sent, a reader's page and three accessibility scans: a long journey on a busy machine.
  test.describe.configure({ timeout: 300_000 });

  test('to two subscribers; one unsubscribes through the link; the next reaches only the other (1280 then 375 px)', async ({ browser, request }) => {
    const [ann, ben] = [uniqueEmail('ann-news'), uniqueEmail('ben-news')];
    for (const email of [ann, ben]) {
      // From the readers' own address (see signUpElsewhere).
      expect(await signUpElsewhere('127.0.3.1', { type: 'newsletter', data: { email, page: '/blog' } })).toBe(200);
      // Each confirms from the email the sign-up sent (the confirmation page itself: mailing-consent.spec.ts).
      await confirmWithoutPage(request, await confirmationTo(email, NEWSLETTER_CONFIRMATION));
    }

    const page = await browser.newPage();
    await publisher(page, request, 1280);
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Newsletter' }).click();
    await expect(page.getByRole('heading', { name: 'Newsletter', level: 2 })).toBeVisible();

    /** Writes and sends a newsletter at `width`: how many readers the list says it went to, and the emails sent. */
    async function send(subject: string, body: string, width: number) {
      await page.getByLabel('Subject').fill(subject);
      await page.getByLabel('Message (Markdown)').fill(body);
      const preview = page.frameLocator(PREVIEW_FRAME);
      await expect(preview.getByRole('heading', { name: 'Hello from Sydney' })).toBeVisible();
      await expect(preview.getByText('Awesome Catholic Kids', { exact: true })).toBeVisible();
      await expect(preview.getByRole('link', { name: 'Unsubscribe' })).toBeVisible();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // Viewport shots: a full-page capture leaves out the sandboxed preview frame's paint.
      await page.getByRole('heading', { name: 'Write a newsletter' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/newsletter-${width}.png` });
      await page.locator(PREVIEW_FRAME).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/newsletter-preview-${width}.png` });
      // The preview is a sandboxed frame where no script may run, axe's included: the screen is scanned around it,
      // and the email it shows is scanned below as a document of its own.
      expect(await scanPage(page, { exclude: PREVIEW_FRAME }), 'axe on the newsletter screen').toEqual([]);
      await page.getByRole('button', { name: 'Send newsletter' }).click();
      const confirm = page.getByText(new RegExp(`^Send “${subject}” to (\\d+) subscribers? now\\?`));
      await expect(confirm).toBeVisible();
      // The pressed button went with the question: focus is on the one in its place, and back after.
      await expect(page.getByRole('button', { name: 'Send now' })).toBeFocused();
      const audience = Number((await confirm.textContent())!.match(/to (\d+) subscriber/)![1]);
      expect(audience).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Send now' }).click();
      await expect(page.getByRole('form', { name: 'Write a newsletter' }).getByRole('status')).toHaveText('It has gone to everyone it was for.', { timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Send newsletter' })).toBeFocused();
      // Everyone confirmed when it was written: other tests may confirm readers after the screen counted them.
      const row = page.getByRole('region', { name: 'Sent newsletters' }).getByRole('listitem').filter({ hasText: subject });
      await expect(row).toContainText(/sent to (\d+) of \1\b/);
      const sentTo = Number((await row.textContent())!.match(/sent to (\d+) of/)![1]);
      return { audience: sentTo, mails: (await readOutbox(OUTBOX)).filter((m) => m.subject === subject) };
    }

    const body = '## Hello from Sydney\n\nOur **new** book is nearly here.\n\n- a counting book\n- for little ones\n\n[See the book](https://awesomecatholickids.com.au/book)';
    const first = await send(`Spring news ${Date.now()}`, body, 1280);
    // One email per subscriber (run alone, that is exactly Ann and Ben), each with the one-click headers.
    expect(first.mails).toHaveLength(first.audience);
    expect(first.mails.filter((m) => m.to === ann)).toHaveLength(1);
    expect(first.mails.filter((m) => m.to === ben)).toHaveLength(1);
    for (const mail of first.mails) {
      expect(mail.headers?.['List-Unsubscribe']).toMatch(/^<http:\/\/localhost:\d+\/api\/newsletter-unsubscribe\?token=[^>]+>$/);
      expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }

    // The email itself, as a mail program shows it.
    const letter = await browser.newPage();
    await letter.setContent(first.mails[0]!.html!);
    expect(await scanPage(letter, { wcagOnly: true }), 'axe on the email').toEqual([]);
    await letter.close();

    // Ann opens the unsubscribe link in her email.
    const link = first.mails.find((m) => m.to === ann)!.html!.match(/href="(http:\/\/localhost:\d+\/newsletter\/unsubscribe#[^"]+)"/)![1]!;
    const reader = await browser.newPage();
    await reader.goto(link);
    await expect(reader.getByRole('status')).toHaveText('You have been unsubscribed. You will get no more newsletters from us.');
    expect(await scanPage(reader), 'axe on the unsubscribe page').toEqual([]);
    await reader.close();

    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Subscribers' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: ann })).toContainText('unsubscribed');
    await expect(page.getByRole('listitem').filter({ hasText: ben })).toContainText('confirmed');
    await expect(page.getByRole('listitem').filter({ hasText: ben })).toContainText('Website sign-up form, confirmed by email on /blog');

    // The next newsletter, written and sent on a phone, reaches Ben and not Ann.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Newsletter' }).click();
    const second = await send(`Summer news ${Date.now()}`, body, 375);
    expect(second.mails).toHaveLength(second.audience);
    expect(second.mails.filter((m) => m.to === ben)).toHaveLength(1);
    expect(second.mails.filter((m) => m.to === ann)).toHaveLength(0);
  });
});
