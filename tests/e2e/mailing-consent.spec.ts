/**
 * Confirmed opt-in in the browser, each journey once, the reader on a phone and the publisher on a desktop, with
 * each screen looked at in both widths (lookAtBothWidths): a newsletter
 * sign-up on /blog is only a request, confirmed from the email it sends (the confirmation page, its button and what
 * it says), and only the confirmed reader gets the newsletter the publisher sends from /admin; a reader who
 * unsubscribed through their newsletter's link stays unsubscribed when a stranger signs their address up again (one
 * confirmation email, nothing else, and "This wasn't me" leaves it so); "Email me when it's available" on a
 * sold-out book, confirmed from its email, brings exactly one availability email, sent by the batch sender, when
 * the publisher receives stock, and none to an address that never confirmed.
 *
 * Screenshots of the confirmation page before and after confirming, and of the Subscribers screen with a pending,
 * a confirmed and an unsubscribed address, at both widths, go to each test's output folder.
 */
import { type APIRequestContext, type Browser, expect as baseExpect, type Page, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { availabilityConfirmation, confirmationTo, confirmLink, mailsTo, NEWSLETTER_CONFIRMATION, OUTBOX, signUpElsewhere, signUpsFrom, unsubscribeLink, type VisitorAddress } from './mailbox';
import { asService, grantStaff, lookAtBothWidths, ownProduct, staffSignsIn, toasts, uniqueEmail, WIDTHS } from './support';

const [PHONE, DESKTOP] = WIDTHS;
// Each back-office screen loads its data after the session and the staff check: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe.configure({ timeout: 240_000 });

/**
 * Where people sign up from (see signUpElsewhere): the reader's browser, and everyone else. Each address stays
 * well under /api/send-notification's 10 sign-ups a minute, retries included.
 */
const VISITORS = { browser: '127.0.4.1', elsewhere: '127.0.4.2' } as const satisfies { browser: VisitorAddress; elsewhere: VisitorAddress };

const backOffice = (page: Page, section: 'Newsletter' | 'Subscribers' | 'Stock') => page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: section, exact: true }).click();

/** Signs `email` up on /blog as a visitor does, and waits for what the form says. */
async function signUpOnBlog(page: Page, email: string): Promise<void> {
  await page.goto('/blog');
  const box = page.getByRole('region', { name: 'Subscribe to Our Newsletter' });
  const button = box.getByRole('button', { name: 'Subscribe' });
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeEnabled(); // hydrated (client:visible)
  await box.getByRole('textbox', { name: 'Email address' }).fill(email);
  await button.click();
  await expect(toasts(page).getByRole('status')).toContainText('Almost done: please check your inbox for the email we have sent you.');
  await expect(box.getByRole('textbox', { name: 'Email address' })).toHaveValue('');
}

/** Opens a confirmation email's link, checks the page asks `question`, and presses `yes`; answers what it then says. Both answers are looked at in both widths. */
async function confirmOnPage(page: Page, link: string, question: string, yes: string, shot: string): Promise<string> {
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Confirm your email', level: 1 })).toBeVisible();
  await expect(page.getByText(question)).toBeVisible();
  const confirm = page.getByRole('button', { name: yes });
  await expect(confirm).toBeEnabled();
  await expect(page.getByRole('button', { name: "This wasn't me" })).toBeEnabled();
  await lookAtBothWidths(page, `${shot}-before`, { axe: false });
  await confirm.click();
  const status = page.getByRole('status');
  await expect(status).not.toHaveText(/^(Confirming\.\.\.)?$/);
  await expect(confirm).toBeHidden();
  await lookAtBothWidths(page, `${shot}-after`);
  return (await status.textContent()) ?? '';
}

/** A staff member of the test's own, signed in to /admin on a desktop. */
async function publisher(browser: Browser, request: APIRequestContext): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height } })).newPage();
  const email = uniqueEmail('consent-publisher');
  await grantStaff(request, email);
  await staffSignsIn(page, email);
  return page;
}

/** Writes and sends a newsletter from /admin, and waits until the list of sent newsletters shows everyone had it. */
async function sendNewsletter(admin: Page, subject: string): Promise<void> {
  await backOffice(admin, 'Newsletter');
  await expect(admin.getByRole('heading', { name: 'Newsletter', level: 2 })).toBeVisible();
  await admin.getByLabel('Subject').fill(subject);
  await admin.getByLabel('Message (Markdown)').fill('## News from Sydney\n\nA new book is on its way.');
  await admin.getByRole('button', { name: 'Send newsletter' }).click();
  await expect(admin.getByText(new RegExp(`^Send “${subject}” to \\d+ subscribers? now\\?`))).toBeVisible();
  await admin.getByRole('button', { name: 'Send now' }).click();
  const row = admin.getByRole('region', { name: 'Sent newsletters' }).getByRole('listitem').filter({ hasText: subject });
  await expect(row).toContainText(/sent to (\d+) of \1\b/, { timeout: 30_000 });
}

const subscriberRow = (admin: Page, email: string) => admin.getByRole('region', { name: 'Subscribers' }).getByRole('listitem').filter({ hasText: email });

test.use({ viewport: { width: PHONE.width, height: PHONE.height } });

test('a newsletter sign-up is confirmed from its email before any newsletter reaches it; an unsubscribed reader stays so when a stranger signs them up', async ({ browser, page, request }) => {
  const [reader, second, earlier] = [uniqueEmail('first-reader'), uniqueEmail('second-reader'), uniqueEmail('earlier-reader')];
  // A reader who confirmed before this story began (for the Subscribers screen's confirmed row).
  await asService(request, 'POST', 'newsletter_subscriptions', {
    email: earlier,
    consent_at: new Date().toISOString(),
    consent_source: 'Website sign-up form, confirmed by email',
    consent_page: '/blog',
  });

  // The reader signs up on /blog: the form says to confirm, and the only email is the confirmation.
  await signUpsFrom(page, VISITORS.browser);
  await signUpOnBlog(page, reader);
  const confirmation = await confirmationTo(reader, NEWSLETTER_CONFIRMATION);
  expect(await mailsTo(reader)).toHaveLength(1);
  expect(confirmation.text).toContain(confirmLink(confirmation, 'decline'));
  // A second address is signed up, elsewhere, and never confirmed.
  expect(await signUpElsewhere(VISITORS.elsewhere, { type: 'newsletter', data: { email: second, page: '/blog' } })).toBe(200);
  await confirmationTo(second, NEWSLETTER_CONFIRMATION);

  // The reader opens the link in their email and confirms.
  const said = await confirmOnPage(page, confirmLink(confirmation), 'Subscribe this address to the Awesome Catholic Kids newsletter?', 'Yes, subscribe me', 'confirm-newsletter');
  expect(said).toBe("You're subscribed! Thank you for confirming: our newsletter will come to this address.");

  // The publisher writes and sends a newsletter: it reaches the confirmed reader once, and not the second address.
  const admin = await publisher(browser, request);
  const first = `Consent news ${Date.now()}`;
  await sendNewsletter(admin, first);
  const newsletter = (await mailsTo(reader)).filter((m) => m.subject === first);
  expect(newsletter).toHaveLength(1);
  expect(newsletter[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  expect((await mailsTo(second)).map((m) => m.subject)).toEqual([NEWSLETTER_CONFIRMATION]);

  // The reader unsubscribes through the link in that newsletter.
  await page.goto(unsubscribeLink(newsletter[0]!));
  await expect(page.getByRole('status')).toHaveText('You have been unsubscribed. You will get no more newsletters from us.');
  const before = (await mailsTo(reader)).length;

  // A stranger, elsewhere, signs the reader's address up: it is answered as any sign-up, and the reader gets
  // one confirmation email and nothing else.
  expect(await signUpElsewhere(VISITORS.elsewhere, { type: 'newsletter', data: { email: reader, page: '/blog' } })).toBe(200);
  await expect.poll(async () => (await mailsTo(reader)).slice(before).map((m) => m.subject), { message: 'what reached the reader after unsubscribing' }).toEqual([NEWSLETTER_CONFIRMATION]);

  // The Subscribers screen: the reader still unsubscribed, the second address waiting, the earlier reader confirmed.
  await backOffice(admin, 'Subscribers');
  await expect(admin.getByRole('heading', { name: 'Subscribers', level: 2 })).toBeVisible();
  const readerRow = subscriberRow(admin, reader);
  await expect(readerRow.getByText('unsubscribed', { exact: true })).toBeVisible();
  await expect(readerRow).toContainText('not yet followed');
  await expect(subscriberRow(admin, second).getByText('pending', { exact: true })).toBeVisible();
  await expect(subscriberRow(admin, earlier).getByText('confirmed', { exact: true })).toBeVisible();
  // Without the newsletter's toast over the list (it closes by itself after 5 s).
  await expect(toasts(admin).locator('[role="status"], [role="alert"]')).toHaveCount(0);
  await lookAtBothWidths(admin, 'subscribers');

  // The next newsletter does not reach the reader, nor the second address.
  const next = `Consent news again ${Date.now()}`;
  await sendNewsletter(admin, next);
  expect((await readOutbox(OUTBOX)).filter((m) => m.subject === next && [reader, second].includes(m.to))).toEqual([]);
  expect((await readOutbox(OUTBOX)).filter((m) => m.subject === next && m.to === earlier)).toHaveLength(1);

  // The reader answers the stranger's confirmation with "This wasn't me": still unsubscribed, nothing waiting.
  const strangers = (await mailsTo(reader)).slice(before)[0]!;
  await page.goto(confirmLink(strangers, 'decline'));
  // Only "This wasn't me" is offered, and nothing happens until it is pressed.
  await expect(page.getByRole('button', { name: 'Yes, subscribe me' })).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('');
  await page.getByRole('button', { name: "This wasn't me" }).click();
  await expect(page.getByRole('status')).toHaveText("Thank you for telling us. This address is not subscribed, and we won't write to it about the newsletter.");
  await expect(page.getByRole('button', { name: 'Yes, subscribe me' })).toBeHidden();
  await backOffice(admin, 'Newsletter');
  await backOffice(admin, 'Subscribers');
  await expect(readerRow.getByText('unsubscribed', { exact: true })).toBeVisible();
  await expect(readerRow).not.toContainText('not yet followed');
  expect((await mailsTo(reader)).slice(before)).toHaveLength(1);
  await admin.close();
});

test('the confirmation page without its code, with a mangled one, or with one the shop did not sign confirms nothing and says so', async ({ page }) => {
  // Each link opened afresh, as from an email (a new fragment on the open page would not load it again).
  const open = async (link: string) => {
    await page.goto('about:blank');
    await page.goto(link);
  };
  for (const link of ['/newsletter/confirm', '/newsletter/confirm#%E0%A4%A', '/newsletter/confirm#not-a-token']) {
    await open(link);
    await expect(page.getByText('This link is missing its code. Please use the link in the email exactly as it came')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Yes/ })).toBeHidden();
  }
  // Shaped like a newsletter confirmation, signed by someone else: the page asks, the shop refuses.
  await open(`/newsletter/confirm#nc.00000000-0000-4000-8000-000000000000.${Math.floor(Date.now() / 1000).toString(36)}.${'A'.repeat(43)}`);
  await page.getByRole('button', { name: 'Yes, subscribe me' }).click();
  await expect(page.getByRole('status')).toHaveText('This confirmation link is not valid. Please use the link in the email exactly as it came, or sign up again.');
  await lookAtBothWidths(page, 'confirm-refused', { axe: false });
});

test('“Email me when it’s available” confirmed from its email: one availability email from the batch sender when stock is received, none to an address that never confirmed', async ({
  browser,
  page,
  request,
}) => {
  const book = await ownProduct(request, 'consent', { stock: 0 });
  const [waiter, unconfirmed] = [uniqueEmail('waiter'), uniqueEmail('not-confirmed')];

  async function ask(shopper: Page, email: string): Promise<void> {
    await shopper.goto(`/store/product/${book.id}`);
    await expect(shopper.getByText('Out of Stock').first()).toBeVisible();
    const form = shopper.getByRole('form', { name: `Email me when ${book.title} is available` });
    await form.getByLabel('Email address').fill(email);
    await form.getByRole('button', { name: "Email me when it's available" }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Almost done' })).toHaveText(`Almost done: please check your inbox at ${email} for the email we have sent you about ${book.title}.`);
  }

  await signUpsFrom(page, VISITORS.browser);
  await ask(page, waiter);
  const confirmation = await confirmationTo(waiter, availabilityConfirmation(book.title));
  const said = await confirmOnPage(
    page,
    confirmLink(confirmation),
    'Email this address once when the book you asked about is available?',
    'Yes, email me when it is available',
    'confirm-availability',
  );
  expect(said).toBe("Thank you for confirming! We'll email you once when the book is available.");
  // A second address asks too, elsewhere, and never confirms.
  expect(await signUpElsewhere(VISITORS.elsewhere, { type: 'back_in_stock', data: { email: unconfirmed, productId: book.id } })).toBe(200);
  await confirmationTo(unconfirmed, availabilityConfirmation(book.title));

  // The publisher sees one shopper waiting (the confirmed one) and receives stock.
  const admin = await publisher(browser, request);
  await backOffice(admin, 'Stock');
  const card = admin.getByRole('region', { name: `Stock of ${book.title}` });
  await expect(card.getByText('1 waiting to hear it is back')).toBeVisible();
  await card.getByLabel('Copies received').fill('5');
  await card.getByLabel('Reason').fill('Reprint delivered');
  await card.getByRole('button', { name: 'Received' }).click();
  const told = toasts(admin)
    .getByRole('status')
    .filter({ hasText: `${book.title}: 5 received, 5 in stock; emailing 1 waiting shopper.` });
  await expect(told).toContainText('It has gone to everyone it was for.', { timeout: 30_000 });
  await expect(card.getByText('Nobody waiting to hear it is back')).toBeVisible();
  await expect(card.getByText('In stock: 5')).toBeVisible();

  // Exactly one availability email, to the confirmed address, in a batch with its one-click unsubscribe.
  const available = (await readOutbox(OUTBOX)).filter((m) => m.subject === `${book.title} is available`);
  expect(available.map((m) => m.to)).toEqual([waiter]);
  expect(available[0]!.batchKey).toMatch(/^newsletter-[0-9a-f-]{36}-batch-1$/);
  expect(available[0]!.headers?.['List-Unsubscribe']).toMatch(/^<http:\/\/localhost:\d+\/api\/newsletter-unsubscribe\?token=[^>]+>$/);
  expect(available[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  expect(available[0]!.text).toContain(`/store/product/${book.id}`);
  expect((await mailsTo(waiter)).map((m) => m.subject)).toEqual([availabilityConfirmation(book.title), `${book.title} is available`]);
  expect((await mailsTo(unconfirmed)).map((m) => m.subject)).toEqual([availabilityConfirmation(book.title)]);

  // The mailing is listed with the newsletters, sent to its one shopper.
  await backOffice(admin, 'Newsletter');
  const mailing = admin
    .getByRole('region', { name: 'Sent newsletters' })
    .getByRole('listitem')
    .filter({ hasText: `${book.title} is available` });
  await expect(mailing).toContainText('availability email');
  await expect(mailing).toContainText('sent to 1 of 1');
  await admin.close();
});
