/**
 * The newsletter (/blog) and contact (/contact) forms end to end on the embedded backend: toasts, what is
 * stored (read back with the embedded backend's well-known service-role key) and the emails in the local outbox
 * file (LOCAL_OUTBOX_FILE in playwright.config.ts): a newsletter sign-up's confirmation, the publisher's notices.
 * No site key is set, so the bot-check is off.
 */
import { expect, test, type Page } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { scanPage } from '../audit/accessibility';
import { confirmationTo, confirmWithoutPage, mailsTo, NEWSLETTER_CONFIRMATION } from './mailbox';
import { horizontalOverflow, toasts, uniqueEmail } from './support';

const OUTBOX = 'test-results/outbox.jsonl';

/** Rows of a table with this email, read as the service role (anon may only insert). */
async function storedRows(baseURL: string | undefined, table: 'contact_submissions' | 'newsletter_subscriptions', email: string) {
  const response = await fetch(`${baseURL}/rest/v1/${table}?email=eq.${encodeURIComponent(email)}&select=*`, {
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
  });
  expect(response.ok, await response.clone().text()).toBe(true);
  return (await response.json()) as Array<Record<string, string>>;
}

/** Holds the form's request until `release()` is called, then answers it as a server whose database refuses. */
async function holdThenRefuseSubmit(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/send-notification', async (route) => {
    await held;
    await route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ error: 'Your details could not be saved. Please try again later.' }) });
  });
  return release;
}

/** Holds every script of the page until `release()` is called: the page shows, but no island hydrates. */
async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The toast region Radix renders (one toast at a time). */

async function newsletterForm(page: Page) {
  await page.goto('/blog');
  const box = page.getByRole('region', { name: 'Subscribe to Our Newsletter' });
  const button = box.getByRole('button', { name: 'Subscribe' });
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeEnabled(); // hydrated (client:visible)
  return { box, email: box.getByRole('textbox', { name: 'Email address' }), button };
}

async function contactForm(page: Page) {
  await page.goto('/contact');
  return contactFormReady(page);
}

/** The contact form of the open page, once hydrated. */
async function contactFormReady(page: Page) {
  const region = page.getByRole('region', { name: 'Send Us a Message' });
  const button = region.getByRole('button', { name: 'Send Message' });
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeEnabled();
  return {
    region,
    button,
    name: region.getByRole('textbox', { name: 'Name' }),
    email: region.getByRole('textbox', { name: 'Email' }),
    subject: region.getByRole('textbox', { name: 'Subject' }),
    message: region.getByRole('textbox', { name: 'Message' }),
  };
}

test.describe('newsletter on /blog', () => {
  test('asks the address to confirm by email, notifies the publisher once it has, and answers the same address (any case) again exactly as before, telling its inbox', async ({
    page,
    request,
    baseURL,
  }) => {
    const address = uniqueEmail('newsletter');
    const form = await newsletterForm(page);
    await expect(form.email).toHaveAttribute('type', 'email');
    await expect(form.email).toHaveAttribute('required', '');
    await expect(form.email).toHaveAttribute('maxlength', '254');

    await form.email.fill(address);
    await form.button.click();
    // One message, the same for every address: never "Successfully subscribed!" before anything is confirmed.
    const signedUp = toasts(page).getByRole('status');
    await expect(signedUp).toHaveCount(1);
    await expect(signedUp).toContainText('Almost done: please check your inbox for the email we have sent you.');
    await expect(signedUp).not.toContainText('Successfully subscribed!');
    await expect(form.email).toHaveValue('');
    expect(await storedRows(baseURL, 'newsletter_subscriptions', address)).toEqual([expect.objectContaining({ status: 'pending', consent_at: null })]);
    // Only the confirmation goes out; the publisher hears of a subscriber once the address is confirmed.
    const confirmation = await confirmationTo(address, NEWSLETTER_CONFIRMATION);
    const notice = async () => (await readOutbox(OUTBOX)).some((m) => m.subject === `New newsletter subscriber: ${address}`);
    expect(await notice()).toBe(false);
    await confirmWithoutPage(request, confirmation);
    await expect.poll(notice, { message: 'notification in the outbox' }).toBe(true);

    const again = await newsletterForm(page);
    await again.email.fill(address.toUpperCase());
    await again.button.click();
    // The page says what it said to a new address; the address's own inbox says it is already subscribed.
    await expect(toasts(page).getByRole('status')).toHaveCount(1);
    await expect(toasts(page).getByRole('status')).toContainText('Almost done: please check your inbox for the email we have sent you.');
    expect(await storedRows(baseURL, 'newsletter_subscriptions', address)).toEqual([expect.objectContaining({ status: 'confirmed' })]);
    await expect.poll(async () => (await mailsTo(address)).map((m) => m.subject)).toEqual([NEWSLETTER_CONFIRMATION, "You're already subscribed to the Awesome Catholic Kids newsletter"]);
  });

  test('an address typed before the form hydrates is the one subscribed', async ({ page, baseURL }) => {
    const address = uniqueEmail('early');
    const release = await holdScripts(page);
    await page.goto('/blog', { waitUntil: 'commit' });
    const box = page.getByRole('region', { name: 'Subscribe to Our Newsletter' });
    const button = box.getByRole('button', { name: 'Subscribe' });
    await expect(button).toBeDisabled(); // not hydrated yet
    await box.getByRole('textbox', { name: 'Email address' }).fill(address);
    release();
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeEnabled();
    await expect(box.getByRole('textbox', { name: 'Email address' })).toHaveValue(address);
    await button.click();
    await expect(toasts(page).getByText('Almost done: please check your inbox for the email we have sent you.')).toBeVisible();
    expect(await storedRows(baseURL, 'newsletter_subscriptions', address)).toHaveLength(1);
  });

  test('posting straight to the database with the public key is refused; only the server function stores a row', async ({ page, baseURL }) => {
    await page.goto('/blog');
    const address = uniqueEmail('bot');
    const answers = await page.evaluate(
      async ({ key, email }) => {
        const post = (table: string, row: object) =>
          fetch(`/rest/v1/${table}`, { method: 'POST', headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(row) }).then((r) => r.status);
        return [await post('newsletter_subscriptions', { email }), await post('contact_submissions', { name: 'Bot', email, subject: 'Buy', message: 'Spam' })];
      },
      { key: LOCAL_ANON_KEY, email: address },
    );
    expect(answers).toEqual([401, 401]);
    expect(await storedRows(baseURL, 'newsletter_subscriptions', address)).toEqual([]);
    expect(await storedRows(baseURL, 'contact_submissions', address)).toEqual([]);
  });

  test('shows Subscribing... while busy and Failed to subscribe when the database refuses', async ({ page }) => {
    const form = await newsletterForm(page);
    const release = await holdThenRefuseSubmit(page);

    await form.email.fill(uniqueEmail('busy'));
    await form.button.click();
    await expect(form.box.getByRole('button', { name: 'Subscribing...' })).toHaveAttribute('aria-disabled', 'true');
    await expect(form.box.getByRole('status')).toHaveText('Subscribing...');
    release();
    await expect(toasts(page).getByText('Failed to subscribe')).toBeVisible();
    await expect(toasts(page).getByText('Please try again later.')).toBeVisible();
    await expect(form.box.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
  });

  test('the browser blocks an empty or malformed address before anything is sent', async ({ page }) => {
    const form = await newsletterForm(page);
    const inserts: string[] = [];
    page.on('request', (r) => (r.url().includes('/rest/v1/') || r.url().includes('/api/send-notification')) && inserts.push(r.url()));

    await form.button.click();
    expect(await form.email.evaluate((el) => el.matches(':invalid'))).toBe(true);
    // type=email accepts each of these; the shop's rule does not (no top-level domain, a one-letter one, & and %).
    for (const address of ['parent@localhost', 'jane@example.c', 'jane&bcc%40evil@example.com']) {
      await form.email.fill(address);
      await form.button.click();
      expect(await form.email.evaluate((el: HTMLInputElement) => el.validationMessage), address).toBe('Please enter a valid email address.');
    }
    expect(inserts).toEqual([]);
  });
});

test.describe('contact form on /contact', () => {
  test('sends a message: toast, cleared form, stored row and a notification', async ({ page, baseURL }) => {
    const address = uniqueEmail('contact');
    const subject = `Parish order ${Date.now()}`;
    const form = await contactForm(page);
    for (const [field, max] of [
      [form.name, '100'],
      [form.email, '254'],
      [form.subject, '200'],
      [form.message, '5000'],
    ] as const) {
      await expect(field).toHaveAttribute('required', '');
      await expect(field).toHaveAttribute('maxlength', max);
    }

    await form.name.fill('Maria Rossi');
    await form.email.fill(address);
    await form.subject.fill(subject);
    await form.message.fill('Could we order 30 copies for our parish school?\nThank you!');
    await form.button.click();

    await expect(toasts(page).getByText('Message sent!')).toBeVisible();
    for (const field of [form.name, form.email, form.subject, form.message]) await expect(field).toHaveValue('');

    const rows = await storedRows(baseURL, 'contact_submissions', address);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Maria Rossi', email: address, subject, message: 'Could we order 30 copies for our parish school?\nThank you!' });

    await expect.poll(async () => (await readOutbox(OUTBOX)).find((m) => m.subject === `Contact form: ${subject}`)?.text ?? '').toContain(`Email: ${address}`);
  });

  test('a message typed before the form hydrates is the one sent', async ({ page, baseURL }) => {
    const address = uniqueEmail('early-contact');
    const release = await holdScripts(page);
    await page.goto('/contact', { waitUntil: 'commit' });
    const region = page.getByRole('region', { name: 'Send Us a Message' });
    await expect(region.getByRole('button', { name: 'Send Message' })).toBeDisabled();
    await region.getByRole('textbox', { name: 'Name' }).fill('Early Bird');
    await region.getByRole('textbox', { name: 'Email' }).fill(address);
    await region.getByRole('textbox', { name: 'Subject' }).fill('Typed early');
    await region.getByRole('textbox', { name: 'Message' }).fill('Written before the page woke up');
    release();
    const form = await contactFormReady(page);
    await form.button.click();
    await expect(toasts(page).getByText('Message sent!')).toBeVisible();
    expect(await storedRows(baseURL, 'contact_submissions', address)).toEqual([expect.objectContaining({ name: 'Early Bird', subject: 'Typed early', message: 'Written before the page woke up' })]);
  });

  test('shows Sending... while busy', async ({ page }) => {
    const form = await contactForm(page);
    const release = await holdThenRefuseSubmit(page);
    await form.name.fill('Busy Person');
    await form.email.fill(uniqueEmail('busy'));
    await form.subject.fill('Hello');
    await form.message.fill('Hello there');
    await form.button.click();
    await expect(form.region.getByRole('button', { name: 'Sending...' })).toHaveAttribute('aria-disabled', 'true');
    await expect(form.region.getByRole('status')).toHaveText('Sending your message...');
    release();
    await expect(toasts(page).getByText('Failed to send message')).toBeVisible();
    // A failed send keeps what the person wrote.
    await expect(form.message).toHaveValue('Hello there');
  });

  test('a missing field is blocked by the browser and nothing is stored', async ({ page, baseURL }) => {
    const address = uniqueEmail('missing');
    const form = await contactForm(page);
    const inserts: string[] = [];
    page.on('request', (r) => (r.url().includes('/rest/v1/') || r.url().includes('/api/send-notification')) && inserts.push(r.url()));

    await form.name.fill('Maria Rossi');
    await form.email.fill(address);
    await form.message.fill('A message without a subject');
    await form.button.click();
    expect(await form.subject.evaluate((el) => el.matches(':invalid'))).toBe(true);
    await expect(form.subject).toBeFocused();

    // Spaces only count as missing too, in the words the server would answer with (the request's own schema).
    await form.subject.fill('   ');
    await form.button.click();
    expect(await form.subject.evaluate((el) => el.matches(':invalid'))).toBe(true);
    expect(await form.subject.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe('Please enter a subject.');
    await expect(form.subject).toBeFocused();

    await expect(toasts(page).getByText('Message sent!')).toHaveCount(0);
    expect(inserts).toEqual([]);
    expect(await storedRows(baseURL, 'contact_submissions', address)).toEqual([]);
  });
});

test.describe('forms at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

  test('both forms fit the viewport and their fields are full width', async ({ page }) => {
    for (const open of [newsletterForm, contactForm]) {
      const form = await open(page);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      const box = await form.button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    }
  });
});

test.describe('forms accessibility', () => {
  test.use({ reducedMotion: 'reduce' });

  test('axe finds nothing on the hydrated forms and a toast', async ({ page }) => {
    // Two pages, two forms hydrated and two full axe scans: more than one page's share of time on a busy machine.
    test.setTimeout(90_000);
    const form = await contactForm(page);
    await form.button.click(); // shows the browser's own validation bubble, not a page change
    expect(await scanPage(page), 'axe on the contact form after an empty send').toEqual([]);

    const newsletter = await newsletterForm(page);
    await newsletter.email.fill(uniqueEmail('axe'));
    await newsletter.button.click();
    await expect(toasts(page).getByText('Almost done: please check your inbox for the email we have sent you.')).toBeVisible();
    expect(await scanPage(page), 'axe on the newsletter form and its toast').toEqual([]);
  });

  test('every field shows a visible focus ring from the keyboard', async ({ page }) => {
    const form = await contactForm(page);
    await form.name.focus();
    for (const field of [form.name, form.email, form.subject, form.message, form.button]) {
      await expect(field).toBeFocused();
      const outline = await field.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline).not.toBe('none');
      await page.keyboard.press('Tab');
    }
  });
});
