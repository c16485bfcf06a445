/**
 * Address suggestions at checkout: the page's look-up session (from /api/lookup-session, bound to the visitor's
 * cookie) carries Google's session, so one address's suggestions and its details call share it, and the details
 * answer the session for the next address. A refused look-up never stops the shopper: the page asks for a new
 * session once, and otherwise the address is typed by hand. The lookup function is answered here, as Google
 * Places would through it; the delivery options are the shop's own.
 */
import { expect, test, type Page } from '@playwright/test';
import { addToCart } from './support';

const SUGGESTION = '1 Church Street, Parramatta NSW, Australia';

async function openCheckout(page: Page) {
  // Checkout shows its form only with something in the cart.
  await addToCart(page, '/store/product/book-10-reasons');
  await page.goto('/checkout');
  return page.getByRole('combobox', { name: 'Address line 1' });
}

test('one address’s suggestions and details share the page’s session; the details answer the next address’s', async ({ page }) => {
  const calls: Array<{ action: string; lookupSession: string; input?: string }> = [];
  let nextSession = '';
  await page.route('**/api/address-places', async (route) => {
    const body = route.request().postDataJSON() as { action: string; lookupSession: string; input?: string };
    calls.push({ action: body.action, lookupSession: body.lookupSession, input: body.input });
    if (body.action === 'suggest') return route.fulfill({ json: { predictions: [{ place_id: 'place-1', description: SUGGESTION }] } });
    // The next address's session is a real one for this visitor, as the shop's details call signs it: the delivery
    // quote for the address just filled in uses it too, and the shop's rates would refuse a made-up one.
    const answered = await page.request.post('/api/lookup-session', { data: {} });
    nextSession = ((await answered.json()) as { session: string }).session;
    await route.fulfill({
      json: { ok: true, address: { line1: '1 Church Street', line2: '', city: 'Parramatta', state: 'NSW', postal_code: '2150', country: 'AU' }, lookupSession: nextSession },
    });
  });

  const line1 = await openCheckout(page);
  await line1.fill('1 Church');
  await page.getByRole('option', { name: SUGGESTION }).click();
  await expect(page.getByLabel('City / suburb')).toHaveValue('Parramatta');
  // The next address, typed straight after the choice: it is looked up and its suggestions show. Each address
  // typed is asked for once; the line the choice filled in, and focus coming back to it, ask nothing.
  await line1.fill('9 King St');
  await expect.poll(() => calls.filter((c) => c.action === 'suggest').length).toBeGreaterThanOrEqual(2);
  await expect.poll(() => calls.filter((c) => c.action === 'suggest').map((c) => c.input)).toEqual(['1 Church', '9 King St']);
  await expect(page.getByRole('option', { name: SUGGESTION })).toBeVisible();

  const details = calls.find((c) => c.action === 'details')!;
  const firstSuggest = calls.find((c) => c.action === 'suggest')!;
  const lastSuggest = calls.filter((c) => c.action === 'suggest').at(-1)!;
  // A JWT the shop signed, the same for the suggestions and the details of one address.
  expect(firstSuggest.lookupSession).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(details.lookupSession).toBe(firstSuggest.lookupSession);
  expect(nextSession).not.toBe(firstSuggest.lookupSession);
  expect(lastSuggest.lookupSession).toBe(nextSession);
});

test('a look-up refused for its session asks for a new one once; past the limit the address is typed by hand and priced', async ({ page }) => {
  let sessionsAsked = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/lookup-session')) sessionsAsked += 1;
  });
  const sessions: string[] = [];
  await page.route('**/api/address-places', async (route) => {
    const body = route.request().postDataJSON() as { lookupSession: string };
    sessions.push(body.lookupSession);
    // The first session has "expired"; after that the visitor is past the limit.
    if (sessions.length === 1) await route.fulfill({ status: 401, json: { error: 'Address suggestions need this checkout page’s session.', code: 'lookup-session' } });
    else await route.fulfill({ status: 429, json: { error: 'Too many look-ups from this checkout (at most 60 a minute).' } });
  });

  const line1 = await openCheckout(page);
  await line1.fill('1 Church St');
  await expect.poll(() => sessions.length).toBe(2);
  expect(sessions[1]).not.toBe(sessions[0]);
  expect(sessionsAsked).toBe(2);
  await expect(page.getByRole('listbox', { name: 'Address suggestions' })).toBeHidden();

  // The shopper types the rest, and the delivery options come from the shop with the page's session.
  const rates = page.waitForResponse((response) => response.url().endsWith('/api/courier-rates'));
  await page.getByLabel('City / suburb').fill('Parramatta');
  await page.getByLabel('Postcode').fill('2150');
  expect((await rates).status()).toBe(200);
  await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
  await expect(line1).toHaveValue('1 Church St');
});
