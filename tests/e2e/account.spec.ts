import { expect, test } from '@playwright/test';
import { orderRow } from '../helpers/order-row';
import { asService, continueWithGoogle, orderNumberOf, signIn, uniqueEmail } from './support';

test.describe('sign-in, wishlist and profile', () => {
  test('sign in through the local page, wishlist the book across a reload, see seeded orders, sign out', async ({ page, request }) => {
    const email = uniqueEmail('ada');
    await signIn(page, email);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: `Profile: ${email.split('@')[0]}` })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Sign Out' })).toBeVisible();

    await page.goto('/book');
    await page.getByRole('button', { name: 'Add to Wishlist' }).dblclick();
    await expect(page.getByText('Added to your wishlist!').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Added to Wishlist' })).toBeDisabled();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Added to Wishlist' })).toBeDisabled();
    await page.goto('/store');
    await expect(page.getByRole('button', { name: /Added to Wishlist/ })).toBeDisabled();

    const wishes = await asService<Array<{ user_id: string }>>(request, 'GET', 'wishlists?select=user_id,product_id&product_id=eq.book-10-reasons');
    const mine = await page.evaluate(async () => {
      const key = Object.keys(localStorage).find((k) => k === 'sb-auth-session');
      return key ? (JSON.parse(localStorage.getItem(key)!).user.id as string) : null;
    });
    expect(wishes.filter((w) => w.user_id === mine)).toHaveLength(1);

    const [order] = await asService<Array<{ id: string }>>(
      request,
      'POST',
      'orders',
      orderRow(email, {
        subtotal: 44,
        user_id: mine,
        status: 'completed',
        payment_status: 'paid',
        shipping_address: { line1: '1 Test St', city: 'Sydney', country: 'AU' },
      }),
    );
    await asService(request, 'POST', 'order_items', { order_id: order!.id, product_id: 'book-10-reasons', title: 'Book', quantity: 2, price_at_time: 22 });

    await page.goto('/profile');
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByText(email.slice(0, 2).toUpperCase(), { exact: true })).toBeVisible();
    const number = await orderNumberOf(request, order!.id);
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) });
    await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
    await expect(row.getByText('completed')).toHaveClass(/green/);
    await expect(row.getByText('$59.00')).toBeVisible();

    // On a phone each order is a card: its total and Track are on the screen, nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('table')).toBeHidden();
    const card = page
      .getByRole('list', { name: 'Your orders' })
      .getByRole('listitem')
      .filter({ has: page.getByText(number, { exact: true }) });
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByText('$59.00')).toBeInViewport({ ratio: 1 });
    await expect(card.getByRole('link', { name: `Track order ${number}` })).toBeInViewport({ ratio: 1 });
    await expect(card.getByText('completed')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: test.info().outputPath('order-history-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Signed out successfully').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  });

  test('Google sign-in asks for neither offline access nor a consent prompt, so returning shoppers skip the consent screen', async ({ page }) => {
    await page.goto('/auth');
    const authorize = page.waitForRequest((r) => new URL(r.url()).pathname === '/auth/v1/authorize');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    const query = new URL((await authorize).url()).searchParams;
    expect(query.get('provider')).toBe('google');
    expect(query.has('access_type')).toBe(false);
    expect(query.has('prompt')).toBe(false);
  });

  test('a new account sees the empty order history', async ({ page }) => {
    await signIn(page, uniqueEmail('new'));
    await page.goto('/profile');
    await expect(page.getByRole('link', { name: 'Go to Store' })).toBeVisible();
  });

  test('signed out: /profile goes to /auth, and the wishlist asks to sign in', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth\?return_to=%2Fprofile$/);
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await page.goto('/store/product/book-10-reasons');
    await page.getByRole('button', { name: 'Add to Wishlist' }).click();
    await expect(page.getByText('Please sign in to add items to your wishlist').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In' }).last()).toHaveAttribute('href', '/auth?return_to=%2Fstore%2Fproduct%2Fbook-10-reasons');
  });

  for (const width of [375, 1280]) {
    test(`at ${width} px, a wishlist tap before signing in is completed once the visitor has signed in`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/store/product/book-10-reasons');
      await page.getByRole('button', { name: 'Add to Wishlist' }).click();
      await page.getByRole('link', { name: 'Sign In' }).last().click();
      await expect(page).toHaveURL(/\/auth\?return_to=%2Fstore%2Fproduct%2Fbook-10-reasons$/);
      const email = uniqueEmail(`wish-later-${width}`);
      await continueWithGoogle(page, email);
      await expect(page).toHaveURL(/\/store\/product\/book-10-reasons$/, { timeout: 15_000 });
      await expect(page.getByText('Added to your wishlist!').first()).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('button', { name: 'Added to Wishlist' })).toBeDisabled();
      // The tap was acted on once: nothing is left waiting for the next sign-in.
      expect(await page.evaluate(() => sessionStorage.getItem('pendingWishlistAdd'))).toBeNull();
    });
  }

  test('a tampered callback shows Authentication Failed and returns to /auth', async ({ page }) => {
    await page.goto('/auth/callback#error=access_denied&error_description=Access+was+denied');
    await expect(page.getByRole('heading', { name: 'Authentication Failed' })).toBeVisible();
    await expect(page.getByText('Access was denied')).toBeVisible();
    // The page waits two seconds before it goes back, and then loads /auth: allow for a busy machine.
    await expect(page).toHaveURL(/\/auth$/, { timeout: 15_000 });

    await page.goto('/auth/callback?code=not-a-real-code');
    await expect(page.getByRole('heading', { name: 'Authentication Failed' })).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/, { timeout: 15_000 });
  });

  test('a signed-in visitor to /auth goes home; the mobile menu offers Sign Out', async ({ page }) => {
    await signIn(page, uniqueEmail('mobile'));
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Sign Out' })).toBeVisible();
  });

  test('user B sees none of user A’s orders or wishlist on the profile', async ({ browser, request }) => {
    const a = await browser.newPage();
    await signIn(a, uniqueEmail('usera'));
    await a.goto('/book');
    await a.getByRole('button', { name: 'Add to Wishlist' }).click();
    await expect(a.getByRole('button', { name: 'Added to Wishlist' })).toBeVisible();
    const idA = await a.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k === 'sb-auth-session')!;
      return JSON.parse(localStorage.getItem(key)!).user.id as string;
    });
    await asService(request, 'POST', 'orders', orderRow('a@example.com', { user_id: idA, shipping_address: { line1: '1 A St' } }));

    const b = await browser.newPage();
    await signIn(b, uniqueEmail('userb'));
    await b.goto('/profile');
    await expect(b.getByRole('link', { name: 'Go to Store' })).toBeVisible();
    await b.goto('/book');
    await expect(b.getByRole('button', { name: 'Add to Wishlist' })).toBeEnabled();
  });
});
