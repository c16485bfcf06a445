/**
 * The first tap on a phone: under Lighthouse's mobile conditions (4× CPU, 150 ms round trip, 1.6 Mbps), Add
 * to Cart on every page that has it (and Pre-order, the same action, on a title on pre-order), as soon as the
 * page has loaded and after it has sat idle, opens the drawer with the item, its quantity and the message, and
 * the header's badge counts it — without React being fetched for it. What the shopper sees, never how long it
 * took (`npm run audit` measures that).
 */
import { expect, test, type Page } from '@playwright/test';
import { LIVE_CATALOG_PATH } from '../../src/features/catalog/live-answer';
import { applyMobileConditions, FIRST_TAP_PAGES, PHONE, waitForMoment, type TapMoment } from '../helpers/mobile-conditions';

/** A string only React DOM's code contains: a script holding it is React. */
const REACT_DOM_MARKER = '__reactContainer$';

test.use(PHONE);
/** The book files' titles: the products every built page draws. */
const BUILT_IDS = [...new Set(FIRST_TAP_PAGES.map((p) => p.book.id))];

// Throttled pages load slowly, and the idle case waits five seconds on purpose.
test.describe.configure({ timeout: 90_000 });

/**
 * The live catalog as this page's build knows it: the database's own rows, for the products the build drew.
 * Other tests add products of their own to the shared database, and on /store a product added since the build
 * is rightly a reason to hydrate the catalog; that is not this test's subject.
 */
async function liveAnswerOfTheBuild(page: Page, builtIds: readonly string[]): Promise<void> {
  await page.route(`**${LIVE_CATALOG_PATH}`, async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { products: { id: string }[] };
    await route.fulfill({ response, json: { ...answer, products: answer.products.filter((p) => builtIds.includes(p.id)) } });
  });
}

function reactLoads(page: Page): string[] {
  const react: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    if ((await response.text().catch(() => '')).includes(REACT_DOM_MARKER)) react.push(response.url());
  });
  return react;
}

for (const moment of ['after load', 'after idle'] as TapMoment[]) {
  for (const { path, book, button, exact, stepper } of FIRST_TAP_PAGES) {
    test(`${path}: the first tap on ${button.split(':')[0]} ${moment} opens the drawer with the item, and the badge counts it`, async ({ page }) => {
      const react = reactLoads(page);
      await liveAnswerOfTheBuild(page, BUILT_IDS);
      await applyMobileConditions(page);
      await page.goto(path, { waitUntil: 'commit' });
      await waitForMoment(page, moment);

      // On the book and product pages the shopper first takes two copies.
      if (stepper) await page.getByRole('button', { name: 'Increase quantity' }).tap();
      const quantity = stepper ? 2 : 1;
      await page.getByRole('button', { name: button, exact }).tap();

      const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
      await expect(drawer).toBeVisible();
      await expect(drawer.getByText(book.title, { exact: true })).toBeVisible();
      await expect(drawer.getByRole('status')).toHaveText(path === '/' ? 'Added to cart!' : stepper ? '2 item(s) added to cart' : `${book.title} added to cart`);
      await expect(drawer.getByRole('link', { name: `View my cart (${quantity})` })).toBeVisible();
      await expect(drawer.getByText('Total', { exact: true }).locator('..')).toHaveText(`Total$${(book.price * quantity).toFixed(2)}`);
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
      expect(react, 'React was fetched for the purchase controls').toEqual([]);
    });
  }
}

// The page's start-up draws after the first paint (the badge, the account area), but what a tap needs is there as
// soon as the page's script has run: with no frame ever drawn for the page's own code, taps are still answered.
test('a tap before the page has drawn its first frame is answered, not lost', async ({ page }) => {
  await liveAnswerOfTheBuild(page, BUILT_IDS);
  await page.addInitScript(() => {
    window.requestAnimationFrame = () => 0;
  });
  await page.goto('/book');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).tap();
  const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
  await expect(drawer.getByText(FIRST_TAP_PAGES[0].book.title, { exact: true })).toBeVisible();
  await drawer.getByRole('button', { name: 'Continue shopping' }).tap();
  await page.getByRole('button', { name: 'Open menu' }).tap();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
});
