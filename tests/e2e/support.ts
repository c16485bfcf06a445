/** Shared steps for browser tests: the embedded backend's service role, signing in as a shopper would, and the no-horizontal-scroll check. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type APIRequestContext, type Browser, type Download, expect, type Locator, type Page, test } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { orderNumber } from '../../src/lib/format';
import { horizontalOverflow, scanPage } from '../audit/accessibility';

const serviceHeaders = {
  apikey: LOCAL_SERVICE_ROLE_KEY,
  authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`,
  'content-type': 'application/json',
  prefer: 'return=representation',
};

/** Calls the embedded backend's REST API as the service role (test fixtures only). */
export async function asService<T = unknown>(request: APIRequestContext, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`/rest/v1/${path}`, { method, headers: serviceHeaders, data });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return (response.status() === 204 ? undefined : await response.json()) as T;
}

/** The number the database gave an order, as the pages write it ("1001"). */
export async function orderNumberOf(request: APIRequestContext, orderId: string): Promise<string> {
  const [row] = await asService<Array<{ number: number }>>(request, 'GET', `orders?id=eq.${orderId}&select=number`);
  return orderNumber(row!.number);
}

/** The sample title on pre-order (content/books/mass-is-awesome.mdx): announced, with its release date ahead. */
export const PREORDER_BOOK = { id: 'mass-is-awesome', title: '10 Reasons Why Mass is Awesome!', releaseDate: '2027-06-01' } as const;

export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** On the local page standing in for Google (reached from /auth's Continue with Google): signs in as `email`. */
export async function continueWithGoogle(page: Page, email: string, name = 'Test Shopper'): Promise<void> {
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  // A page load through the auth redirect: slow on a busy machine.
  await expect(page.getByText('stands in for Google')).toBeVisible({ timeout: 15_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Signs in through /auth and the local sign-in page standing in for Google. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await continueWithGoogle(page, email);
  // The callback exchanges the code before it sends the visitor home: allow for a busy machine.
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
  // The welcome toast shows once the layout's overlays hydrate and lasts 5 s: look for it before anything else.
  await expect(page.getByText('Successfully signed in!').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 15_000 });
}

/** The real staff CLI (`npm run staff -- …`), against this test server, as the publisher would run it. */
export function staffCli(...args: string[]): string {
  const port = new URL(test.info().project.use.baseURL!).port;
  return execFileSync('npm', ['run', '--silent', 'staff', '--', ...args], { env: { ...process.env, PORT: port }, encoding: 'utf8' });
}

/** Makes `email` staff through the service role: the CLI itself is exercised in back-office.spec.ts. */
export async function grantStaff(request: APIRequestContext, email: string): Promise<void> {
  await asService(request, 'POST', 'staff_members', { email });
}

/** Signs in from /admin: the back office sends a signed-out visitor to /auth and back. */
export async function signInFromAdmin(page: Page, email: string): Promise<void> {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth\?return_to=%2Fadmin$/, { timeout: 15_000 });
  await continueWithGoogle(page, email, 'The Publisher');
  // The callback page exchanges the code before it sends the visitor back: slow on a busy machine.
  await expect(page).toHaveURL(/\/admin$/, { timeout: 15_000 });
}

/** A staff member (granted by the CLI or grantStaff), signed in and looking at the back office. */
export async function staffSignsIn(page: Page, email: string): Promise<void> {
  await signInFromAdmin(page, email);
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible({ timeout: 15_000 });
}

/** A new staff member, signed in to the back office on a page of their own. */
export async function publisherSignsIn(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const email = uniqueEmail('publisher');
  staffCli('add', email);
  const page = await browser.newPage({ viewport });
  await staffSignsIn(page, email);
  return page;
}

/** The rows of a CSV the page downloaded (every field quoted, as the shop writes them), its header first. */
export async function downloadedCsv(download: Download): Promise<string[][]> {
  return readFileSync(await download.path(), 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((row) => [...row.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));
}

/**
 * On the back office's orders: searches (by number or email) for the one order `number`, and waits on what the page
 * shows after the search (the address holding it, then that order alone listed), never on the list before it,
 * which may show the order too. Answers the order's link.
 */
export async function searchOrders(page: Page, search: string, number: string): Promise<Locator> {
  await page.getByLabel('Search by order number or email').fill(search);
  const query = new URLSearchParams({ q: search }).toString().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page).toHaveURL(new RegExp(`[?&]${query}(&|$)`), { timeout: 15_000 });
  const found = page.locator('a[href^="#order/"]:visible');
  await expect(found).toHaveCount(1, { timeout: 15_000 });
  await expect(found).toHaveText(number);
  return found;
}

/** Finds the one order as `searchOrders` does and opens it: its own heading shows. */
export async function openFoundOrder(page: Page, search: string, number: string): Promise<void> {
  await (await searchOrders(page, search, number)).click();
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible({ timeout: 15_000 });
}

/** On the shipping platform's TEST page: Delivered for order `number`, sent to the shop as the platform sends it. */
export async function deliveredFromTestPage(page: Page, number: string): Promise<void> {
  await page.goto('/api/test-shipping');
  await page
    .locator(`article[data-order="${number}"]`)
    .getByRole('button', { name: `Delivered: order ${number}` })
    .click();
  await expect(page.getByRole('status')).toHaveText(`Sent Delivered ${number} to the shop.`);
}

export { horizontalOverflow } from '../audit/accessibility';

/** The page's toasts (the notifications region). */
export const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications/ });

/** The two widths every screen is looked at: a phone's and a desktop's. */
export const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/**
 * Looks at the screen at the window's width: nothing wider than the window, a full-page screenshot
 * `<name>-<width>.png`, and axe unless `axe: false`. For a journey that runs at each width.
 */
export async function lookAtThisWidth(page: Page, name: string, options: { axe?: boolean } = {}): Promise<void> {
  const width = page.viewportSize()?.width;
  expect(await horizontalOverflow(page), `${name} at ${width} px is no wider than the window`).toBeLessThanOrEqual(0);
  // From the top: a full-page shot taken scrolled down draws the sticky header across the middle.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  if (options.axe !== false) expect(await scanPage(page), `axe on ${name} at ${width} px`).toEqual([]);
}

/**
 * Looks at the screen as it stands at a phone's width and at a desktop's (`lookAtThisWidth` at each). A journey
 * runs once, at one width, and its key screens are checked at both; the page is given back at the width it had.
 */
export async function lookAtBothWidths(page: Page, name: string, options: { axe?: boolean } = {}): Promise<void> {
  const before = page.viewportSize();
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await lookAtThisWidth(page, name, options);
  }
  if (before) await page.setViewportSize(before);
}

/**
 * A button that asks a question, pressed with the keyboard, then the question's second button (its "no"): focus goes
 * to the question's first button (`question`) as it opens, and back to the button that asked as it closes.
 */
export async function asksThenKeeps(page: Page, asker: Locator, question: Locator): Promise<void> {
  await asker.focus();
  await page.keyboard.press('Enter');
  await expect(question).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(asker).toBeFocused();
}

/**
 * Adds the product shown at `path` to the cart as a shopper does: the optional quantity, Add to Cart, then
 * the drawer it opens, closed. Waiting for the drawer matters: the offer may still be hydrating when the
 * click lands, and the add follows a moment later.
 */
export async function addToCart(page: Page, path: string, quantity?: number): Promise<void> {
  await page.goto(path);
  if (quantity !== undefined) await page.getByLabel('Quantity', { exact: true }).fill(String(quantity));
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();
  await page.keyboard.press('Escape');
}

/**
 * A product of the test's own, written as the catalog sync and the publisher would leave it (a test that changes
 * stock or waits for emails must not share the book other tests buy). Answers its id and title.
 */
export async function ownProduct(
  request: APIRequestContext,
  tag: string,
  fields: { stock: number; low_stock_level?: number; release_date?: string; preorder_allocation?: number },
): Promise<{ id: string; title: string }> {
  const id = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const title = `Fixture ${id}`;
  await asService(request, 'POST', 'products', {
    id,
    title,
    price: 20,
    category: `Fixtures ${id}`,
    weight: 300,
    dimensions: { length: 21, width: 21, height: 1 },
    ...fields,
  });
  return { id, title };
}

const SHOPPER_ADDRESS = { fullName: 'Test Shopper', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' };
/** A buyer abroad, whose parcel needs a customs declaration. */
export const ADDRESS_ABROAD = { fullName: 'Test Shopper', addressLine1: '1 Main St', city: 'New York', state: 'NY', postalCode: '10001', country: 'US' };

/**
 * A guest's paid order through the shop's own steps, without a page: the delivery quote, checkout, and Pay on
 * the local TEST payment page (which fulfils the order as Stripe's webhook would: stock taken, emails sent), to an
 * address in Australia unless `address` says otherwise. Answers the order's id.
 */
export async function buysThroughCheckout(request: APIRequestContext, productId: string, quantity: number, email: string, address = SHOPPER_ADDRESS): Promise<string> {
  const cart = [{ id: productId, quantity }];
  // The checkout page's look-up session (the request context keeps the visitor cookie that comes with it).
  const { session } = (await (await request.post('/api/lookup-session')).json()) as { session: string };
  const rates = await request.post('/api/courier-rates', {
    data: { deliveryPostcode: address.postalCode, deliverySuburb: address.city, deliveryState: address.state, deliveryCountry: address.country, cart, lookupSession: session },
  });
  expect(rates.ok(), await rates.text()).toBe(true);
  const methodId = ((await rates.json()) as { quotes: Array<{ id: string }> }).quotes[0]!.id;
  const checkout = await request.post('/api/create-checkout', { data: { cartItems: cart, shippingDetails: { ...address, shippingMethod: { id: methodId } }, customerEmail: email } });
  expect(checkout.ok(), await checkout.text()).toBe(true);
  const created = (await checkout.json()) as { url: string; orderId: string };
  const payment = new URL(created.url);
  const field = (name: string) => payment.searchParams.get(name) ?? '';
  const paid = await request.post(payment.pathname, { form: { session: field('session'), success: field('success'), cancel: field('cancel'), action: 'pay' }, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  return created.orderId;
}

/** A paid order to find in the back office: one copy of a book of the test's own, bought by a fresh address. Answers that address and the order's number. */
export async function orderToFind(request: APIRequestContext, tag: string): Promise<{ email: string; number: string }> {
  const email = uniqueEmail(tag);
  const book = await ownProduct(request, tag, { stock: 5 });
  return { email, number: await orderNumberOf(request, await buysThroughCheckout(request, book.id, 1, email)) };
}

/** Fills the checkout's address as a shopper types it (an Australian address unless `country` says otherwise). */
export async function fillAddress(page: Page, address: { line1: string; city: string; postcode: string; country?: string }): Promise<void> {
  if (address.country) await page.getByLabel('Country').selectOption(address.country);
  await page.getByLabel('Address line 1').fill(address.line1);
  await page.getByLabel('City / suburb').fill(address.city);
  await page.getByLabel('Postcode').fill(address.postcode);
}

/** This page's live catalog says `stock` copies of the book are left (other tests buy it too). */
export async function liveStockOfBook(page: Page, stock: number): Promise<void> {
  await page.route('**/api/live-catalog*', async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { products: Array<{ id: string; stock: number }> };
    for (const product of answer.products) if (product.id === 'book-10-reasons') product.stock = stock;
    await route.fulfill({ response, json: answer });
  });
}

/** Types the buyer's email and an address in Australia on the checkout page, and waits for the courier to be chosen. */
export async function fillCheckout(page: Page, email: string, address = { line1: '1 Church St', city: 'Parramatta', postcode: '2150' }): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await fillAddress(page, address);
  await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked({ timeout: 15_000 });
}

/** Proceed to Payment: the TEST payment page opens in a new tab, which is answered. */
export async function payInNewTab(page: Page): Promise<Page> {
  const [payment] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Proceed to Payment' }).click()]);
  await payment.waitForLoadState();
  await expect(payment.getByText('TEST PAYMENT')).toBeVisible();
  return payment;
}

/**
 * A guest buys one copy of the book through the real checkout and the local TEST payment page (opened in a new
 * tab, as Stripe's would be); answers the order number the confirmation page shows.
 */
export async function guestBuys(page: Page, email: string): Promise<string> {
  await addToCart(page, '/store/product/book-10-reasons');
  await page.goto('/checkout');
  await fillCheckout(page, email, { line1: '7 Packer Lane', city: 'Parramatta', postcode: '2150' });
  const payment = await payInNewTab(page);
  await payment.getByRole('button', { name: /^Pay/ }).click();
  await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({ timeout: 15_000 });
  const number = (await payment.getByTestId('order-number').textContent())!;
  await payment.close();
  return number;
}
