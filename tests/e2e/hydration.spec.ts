/**
 * Nothing but painting before the first tap: pages a visitor reads start no React, the header draws the cart
 * and the account from storage, the purchase controls are one script wherever they are drawn, and the store
 * grid (`client:intent`) takes a search typed before it was live.
 */
import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueEmail } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';
/** A string only React DOM's code contains: a script holding it is React. */
const REACT_DOM_MARKER = '__reactContainer$';

/** Collects the bodies of the scripts the page loads. */
function loadedScripts(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') bodies.push(await response.text().catch(() => ''));
  });
  return bodies;
}

/** Every script from the build arrives `ms` late, as on a slow phone network: islands hydrate late. */
async function slowScripts(page: Page, ms: number) {
  await page.route('**/_astro/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

test('a landing page and a post start no React; the header draws the saved cart and the account from storage', async ({ page }) => {
  await page.goto('/book');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();

  const scripts = loadedScripts(page);
  for (const path of ['/catholic-books-sydney', '/blog/why-faith-based-books-matter']) {
    await page.goto(path);
    const banner = page.getByRole('banner');
    await expect(banner.getByTestId('cart-badge')).toHaveText('1');
    await expect(banner.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((body) => body.includes(REACT_DOM_MARKER))).toEqual([]);
});

test('signed in, the header shows the name and Sign Out without React, and Sign Out works', async ({ page }) => {
  const email = uniqueEmail('header');
  await signIn(page, email);
  const scripts = loadedScripts(page);
  await page.goto('/catholic-books-for-toddlers');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: `Profile: ${email.split('@')[0]}` })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((body) => body.includes(REACT_DOM_MARKER))).toEqual([]);
  await banner.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Successfully signed out').first()).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
});

test.describe('the purchase controls are one script, with or without an island around them', () => {
  test("/store: a card's Add to Cart adds one copy once, before and after the grid is live", async ({ page }) => {
    await page.goto('/store');
    const badge = page.getByRole('banner').getByTestId('cart-badge');
    const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
    await page.getByRole('button', { name: `Add to Cart: ${BOOK}`, exact: true }).click();
    await expect(drawer).toBeVisible();
    await expect(badge).toHaveText('1');
    await drawer.getByRole('button', { name: 'Continue shopping' }).click();
    // Reaching for the search makes the grid live (React); its cards still have no handler of their own.
    const search = page.getByPlaceholder("Search Catholic children's books...");
    await search.fill('10 Reasons');
    await expect(page).toHaveURL(/search=10/);
    await page.getByRole('button', { name: `Add to Cart: ${BOOK}`, exact: true }).click();
    await expect(drawer).toBeVisible();
    await expect(badge).toHaveText('2');
    await expect(drawer.getByRole('link', { name: 'View my cart (2)' })).toBeVisible();
  });

  test('a product page starts no React, and its quantity typed is the quantity added', async ({ page }) => {
    const scripts = loadedScripts(page);
    await page.goto('/store/product/book-10-reasons');
    await page.getByLabel('Quantity', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();
    await expect(page.getByRole('banner').getByTestId('cart-badge')).toHaveText('3');
    expect(scripts.some((body) => body.includes(REACT_DOM_MARKER))).toBe(false);
  });

  test('a search typed before the store is live filters the grid', async ({ page }) => {
    await slowScripts(page, 600);
    await page.goto('/store', { waitUntil: 'commit' });
    await page.getByPlaceholder("Search Catholic children's books...").fill('zebra-unicorn');
    await expect(page.getByText('No products found matching your search')).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(/search=zebra-unicorn/);
  });
});
