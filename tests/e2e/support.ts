/** Shared steps for browser tests: the embedded backend's service role, signing in as a shopper would, and the no-horizontal-scroll check. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';

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

export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Signs in through /auth and the local sign-in page standing in for Google. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByText('stands in for Google')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill('Test Shopper');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The welcome toast shows once the layout's overlays hydrate and lasts 5 s: look for it before anything else.
  await expect(page.getByText('Successfully signed in!').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 15_000 });
}

/** How many px the page is wider than the viewport; 0 or less means no horizontal scrolling. */
export const horizontalOverflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Visits each path in turn and expects none to be wider than the viewport (the path names any failure). */
export async function expectNoHorizontalOverflow(page: Page, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await page.goto(path);
    expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
  }
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
