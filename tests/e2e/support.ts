/** Shared steps for browser tests: the embedded backend's service role, signing in as a shopper would, and the no-horizontal-scroll check. */
import { execFileSync } from 'node:child_process';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
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

/** On the local page standing in for Google (reached from /auth's Continue with Google): signs in as `email`. */
export async function continueWithGoogle(page: Page, email: string, name = 'Test Shopper'): Promise<void> {
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByText('stands in for Google')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Signs in through /auth and the local sign-in page standing in for Google. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await continueWithGoogle(page, email);
  await expect(page).toHaveURL(/\/$/);
  // The welcome toast shows once the layout's overlays hydrate and lasts 5 s: look for it before anything else.
  await expect(page.getByText('Successfully signed in!').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign Out' })).toBeVisible({ timeout: 15_000 });
}

/** The real staff CLI (`npm run staff -- …`), against this test server, as the publisher would run it. */
export function staffCli(...args: string[]): string {
  const port = new URL(test.info().project.use.baseURL!).port;
  return execFileSync('npm', ['run', '--silent', 'staff', '--', ...args], { env: { ...process.env, PORT: port }, encoding: 'utf8' });
}

/** Signs in from /admin: the back office sends a signed-out visitor to /auth and back. */
export async function signInFromAdmin(page: Page, email: string): Promise<void> {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/auth\?return_to=%2Fadmin$/);
  await continueWithGoogle(page, email, 'The Publisher');
  await expect(page).toHaveURL(/\/admin$/);
}

/** A staff member, granted by the CLI, signed in and looking at the back office. */
export async function staffSignsIn(page: Page, email: string): Promise<void> {
  await signInFromAdmin(page, email);
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible({ timeout: 15_000 });
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
