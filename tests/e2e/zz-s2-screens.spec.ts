import { expect, test } from '@playwright/test';
import { addToCart, asService, buysThroughCheckout, grantStaff, signIn, staffSignsIn, uniqueEmail } from './support';

const OUT = '/tmp/s2-shots';
for (const width of [375, 1280]) {
  test(`screens at ${width}`, async ({ page, request }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of [['home', '/'], ['store', '/store'], ['book', '/store/product/book-10-reasons'], ['landing', '/schools-and-parishes']] as const) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${OUT}/${name}-${width}.png`, fullPage: true });
    }
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/cart');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: `${OUT}/cart-${width}.png`, fullPage: true });
    const email = uniqueEmail(`shots-${width}`);
    await buysThroughCheckout(request, 'book-10-reasons', 1, email);
    await grantStaff(request, email);
    await signIn(page, email);
    const [order] = await asService<Array<{ id: string }>>(request, 'GET', `orders?select=id&customer_email=eq.${email}`);
    const user = await page.evaluate(() => JSON.parse(localStorage.getItem('sb-auth-session')!).user.id as string);
    await asService(request, 'PATCH', `orders?id=eq.${order!.id}`, { user_id: user });
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Order History' })).toBeVisible();
    await expect(page.getByText('Loading your orders...')).toHaveCount(0);
    await page.screenshot({ path: `${OUT}/profile-${width}.png`, fullPage: true });
    await staffSignsIn(page, email);
    await page.goto('/admin#orders?view=all');
    await expect(page.getByRole('link', { name: /^\d{4,}$/ }).first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/admin-orders-${width}.png`, fullPage: true });
    await page.goto('/admin#invoices?view=all');
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${OUT}/admin-invoices-${width}.png`, fullPage: true });
    await page.goto('/admin#newsletter');
    await expect(page.getByLabel('Subject')).toBeVisible();
    await page.getByRole('button', { name: 'Send newsletter' }).click();
    await page.screenshot({ path: `${OUT}/admin-newsletter-${width}.png`, fullPage: true });
  });
}
