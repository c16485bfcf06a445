/**
 * The first tap on a phone: under Lighthouse's mobile conditions (4× CPU, 150 ms round trip, 1.6 Mbps), Add
 * to Cart on every page that has it, as soon as the page has loaded and after it has sat idle, opens the
 * drawer with the item, its quantity and the message, and the header's badge counts it — without React
 * being fetched for it. What the shopper sees, never how long it took (`npm run audit` measures that).
 */
import { expect, test, type Page } from '@playwright/test';
import { applyMobileConditions, FIRST_TAP_PAGES, PHONE, waitForMoment, type TapMoment } from '../helpers/mobile-conditions';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';
/** A string only React DOM's code contains: a script holding it is React. */
const REACT_DOM_MARKER = '__reactContainer$';

test.use(PHONE);
// Throttled pages load slowly, and the idle case waits five seconds on purpose.
test.describe.configure({ timeout: 90_000 });

function reactLoads(page: Page): string[] {
  const react: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    if ((await response.text().catch(() => '')).includes(REACT_DOM_MARKER)) react.push(response.url());
  });
  return react;
}

for (const moment of ['after load', 'after idle'] as TapMoment[]) {
  for (const { path, button, exact, stepper } of FIRST_TAP_PAGES) {
    test(`${path}: the first tap on Add to Cart ${moment} opens the drawer with the item, and the badge counts it`, async ({ page }) => {
      const react = reactLoads(page);
      await applyMobileConditions(page);
      await page.goto(path, { waitUntil: 'commit' });
      await waitForMoment(page, moment);

      // On the book and product pages the shopper first takes two copies.
      if (stepper) await page.getByRole('button', { name: 'Increase quantity' }).tap();
      const quantity = stepper ? 2 : 1;
      await page.getByRole('button', { name: button, exact }).tap();

      const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
      await expect(drawer).toBeVisible();
      await expect(drawer.getByText(BOOK, { exact: true })).toBeVisible();
      await expect(drawer.getByRole('status')).toHaveText(path === '/' ? 'Added to cart!' : stepper ? '2 item(s) added to cart' : `${BOOK} added to cart`);
      await expect(drawer.getByRole('link', { name: `View my cart (${quantity})` })).toBeVisible();
      await expect(drawer.getByText('Total', { exact: true }).locator('..')).toHaveText(`Total$${(22 * quantity).toFixed(2)}`);
      await expect(page.getByRole('banner').getByTestId('cart-badge')).toHaveText(String(quantity));
      // While the drawer is open no toast covers it.
      await expect(page.locator('.toast-root')).toHaveCount(0);

      // A later tap: Continue shopping, then Add to Cart again, adds to the same line.
      await drawer.getByRole('button', { name: 'Continue shopping' }).tap();
      await expect(drawer).toBeHidden();
      await expect(page.locator('.toast-root')).toHaveCount(0);
      await page.getByRole('button', { name: button, exact }).tap();
      await expect(drawer).toBeVisible();
      await expect(page.getByRole('banner').getByTestId('cart-badge')).toHaveText(String(quantity * 2));
      await expect(drawer.getByRole('link', { name: `View my cart (${quantity * 2})` })).toBeVisible();
      // On /store the catalog island itself hydrates when the live stock differs from the build (other tests'
      // orders change it in this shared database); the purchase controls above worked whatever it does.
      if (path !== '/store') expect(react, 'React was fetched for the purchase controls').toEqual([]);
    });
  }
}
