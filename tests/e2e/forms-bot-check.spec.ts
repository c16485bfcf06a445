/**
 * The newsletter and contact forms with the bot-check on: the site built with Turnstile's always-passing
 * test site key and served with the matching secret (tests/e2e/bot-check/server.ts). Cloudflare's script is
 * replaced by a stand-in that behaves like a Managed widget: it passes invisibly, fails, or shows its
 * checkbox (calling before-interactive-callback) and hands over a token once the visitor ticks it. A form whose
 * bot-check gives no token sends nothing: the server would refuse it.
 */
import { expect, test, type Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { botCheckPort } from './bot-check/keys';
import { confirmationTo, mailsTo, NEWSLETTER_CONFIRMATION } from './mailbox';
import { toasts, uniqueEmail } from './support';

const BASE_URL = `http://localhost:${botCheckPort(Number(process.env.E2E_PORT ?? 4399))}`;
const OUTBOX = 'test-results/outbox-bot-check.jsonl';
test.use({ baseURL: BASE_URL });

type WidgetMode = 'pass' | 'fail' | 'challenge';

/** Cloudflare's api.js, as a stand-in that answers each execute the way `mode` says. */
function turnstileStandIn(mode: WidgetMode): string {
  return `
    window.turnstile = {
      widgets: {},
      render(container, options) {
        const id = 'w' + Object.keys(this.widgets).length;
        this.widgets[id] = { container, options };
        return id;
      },
      execute(id) {
        const { container, options } = this.widgets[id];
        const token = 'XXXX.DUMMY.TOKEN.XXXX';
        if (${JSON.stringify(mode)} === 'pass') return setTimeout(() => options.callback(token), 50);
        if (${JSON.stringify(mode)} === 'fail') return setTimeout(() => options['error-callback']('300030'), 50);
        options['before-interactive-callback']();
        const box = document.createElement('label');
        box.innerHTML = '<input type="checkbox"> Verify you are human';
        box.querySelector('input').addEventListener('change', () => {
          options['after-interactive-callback']();
          options.callback(token);
        });
        container.append(box);
      },
      remove(id) { delete this.widgets[id]; },
    };`;
}

async function useWidget(page: Page, mode: WidgetMode) {
  await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js*', (route) => route.fulfill({ contentType: 'text/javascript', body: turnstileStandIn(mode) }));
}

async function storedRows(table: 'contact_submissions' | 'newsletter_subscriptions', email: string) {
  const response = await fetch(`${BASE_URL}/rest/v1/${table}?email=eq.${encodeURIComponent(email)}&select=*`, {
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}` },
  });
  return (await response.json()) as Array<Record<string, string>>;
}

/** The form in the region `name` on the page at `path`, once its button `submit` is ready. */
async function readyForm(page: Page, path: string, name: string, submit: string) {
  await page.goto(path);
  const region = page.getByRole('region', { name });
  const button = region.getByRole('button', { name: submit });
  await button.scrollIntoViewIfNeeded();
  await expect(button).toBeEnabled();
  return { region, button };
}

/** The blog's newsletter box, once its button is ready, with `email` typed in. */
async function fillNewsletter(page: Page, email: string) {
  const { region: box, button } = await readyForm(page, '/blog', 'Subscribe to Our Newsletter', 'Subscribe');
  await box.getByRole('textbox', { name: 'Email address' }).fill(email);
  return { box, button };
}

/** The contact form filled in by a fresh address (`tag`) and sent, with the bot-check answering as `mode` says. */
async function sendContact(page: Page, mode: WidgetMode, tag: string) {
  await useWidget(page, mode);
  const address = uniqueEmail(tag);
  const { region, button } = await readyForm(page, '/contact', 'Send Us a Message', 'Send Message');
  await region.getByRole('textbox', { name: 'Name' }).fill('Maria Rossi');
  await region.getByRole('textbox', { name: 'Email' }).fill(address);
  await region.getByRole('textbox', { name: 'Subject' }).fill('Parish order');
  await region.getByRole('textbox', { name: 'Message' }).fill('Thirty copies, please.');
  await button.click();
  return { address, region };
}

test.describe('forms with the bot-check on', () => {
  test('a newsletter sign-up sends a passing token and is stored', async ({ page }) => {
    await useWidget(page, 'pass');
    const address = uniqueEmail('botcheck-news');
    const { button } = await fillNewsletter(page, address);
    const sent = page.waitForRequest('**/api/send-notification');
    await button.click();
    expect((await sent).postDataJSON()).toMatchObject({ type: 'newsletter', turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    await expect(toasts(page).getByText('Almost done: please check your inbox for the email we have sent you.')).toBeVisible();
    expect(await storedRows('newsletter_subscriptions', address)).toEqual([expect.objectContaining({ status: 'pending' })]);
    // Past the bot-check, the sign-up is still only a request: the address is asked to confirm it.
    expect((await confirmationTo(address, NEWSLETTER_CONFIRMATION, OUTBOX)).text).toContain('/newsletter/confirm#');
  });

  test('a newsletter sign-up whose bot-check gives no token says Verification failed: nothing is stored or sent', async ({ page }) => {
    await useWidget(page, 'fail');
    const address = uniqueEmail('botcheck-news-failed');
    const { box, button } = await fillNewsletter(page, address);
    const posted: string[] = [];
    page.on('request', (r) => r.url().includes('/api/send-notification') && posted.push(r.url()));
    await button.click();
    await expect(toasts(page).getByText('Verification failed')).toBeVisible();
    await expect(box.getByRole('textbox', { name: 'Email address' })).toHaveValue(address);
    expect(posted).toEqual([]);
    // Posted straight to the server without a token, it is refused there too.
    const direct = await page.request.post('/api/send-notification', { data: { type: 'newsletter', data: { email: address } } });
    expect(direct.status()).toBe(403);
    expect(await direct.json()).toEqual({ error: 'Verification failed' });
    expect(await storedRows('newsletter_subscriptions', address)).toEqual([]);
    expect(await mailsTo(address, OUTBOX)).toEqual([]);
  });

  test('a contact message with a passing token is sent and stored', async ({ page }) => {
    const { address } = await sendContact(page, 'pass', 'botcheck-contact');
    await expect(toasts(page).getByText('Message sent!')).toBeVisible();
    expect(await storedRows('contact_submissions', address)).toHaveLength(1);
  });

  test('a challenged visitor sees the checkbox under the form and can answer it after more than 8 s', async ({ page }) => {
    // The page's clock is the test's: the 8 seconds pass at once.
    await page.clock.install();
    const { address, region } = await sendContact(page, 'challenge', 'botcheck-challenged');
    const checkbox = region.getByRole('checkbox', { name: 'Verify you are human' });
    await expect(checkbox).toBeVisible();
    await expect(checkbox).toBeInViewport();
    await page.clock.fastForward(9_000); // past the 8-second limit that applies while the widget is invisible
    await expect(toasts(page).getByText('Verification failed')).toHaveCount(0);
    await checkbox.click(); // not check(): the widget goes away as soon as it answers
    await expect(toasts(page).getByText('Message sent!')).toBeVisible();
    await expect(checkbox).toBeHidden(); // the widget is removed once it answered
    expect(await storedRows('contact_submissions', address)).toHaveLength(1);
  });

  test('a contact message whose bot-check fails says Verification failed and is not stored', async ({ page }) => {
    const { address, region } = await sendContact(page, 'fail', 'botcheck-failed');
    await expect(toasts(page).getByText('Verification failed')).toBeVisible();
    await expect(region.getByRole('textbox', { name: 'Message' })).toHaveValue('Thirty copies, please.');
    expect(await storedRows('contact_submissions', address)).toEqual([]);
  });

  test('the server refuses a contact message posted without a token', async ({ request }) => {
    const address = uniqueEmail('botcheck-direct');
    const response = await request.post('/api/send-notification', { data: { type: 'contact', data: { name: 'Bot', email: address, subject: 'Hi', message: 'Spam' } } });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ error: 'Verification failed' });
    expect(await storedRows('contact_submissions', address)).toEqual([]);
  });
});
