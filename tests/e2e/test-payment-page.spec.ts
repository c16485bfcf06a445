/** The local TEST payment page fits the screen it opens on: nothing cut off or scrolled sideways on a 375 px phone. */
import { expect, test } from '@playwright/test';
import { addToCart, fillCheckout, payInNewTab, uniqueEmail, WIDTHS } from './support';

for (const size of WIDTHS) {
  test(`the TEST payment page fits a ${size.width} px screen`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const page = await context.newPage();
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await fillCheckout(page, uniqueEmail('test-page'), { line1: '12 Narrow Street', city: 'Parramatta', postcode: '2150' });
    const payment = await payInNewTab(page);
    await expect(payment.getByRole('heading', { name: 'Pay for your order' })).toBeVisible();
    expect(payment.viewportSize()?.width).toBe(size.width);
    const sizes = await payment.evaluate(() => ({ page: document.documentElement.scrollWidth, main: document.querySelector('main')!.getBoundingClientRect().right }));
    expect(sizes.page, 'no sideways scroll').toBeLessThanOrEqual(size.width);
    expect(sizes.main, 'the box ends inside the screen').toBeLessThanOrEqual(size.width);
    await expect(payment.getByRole('button', { name: /^Pay/ })).toBeInViewport();
    await payment.screenshot({ path: test.info().outputPath(`test-payment-${size.width}.png`), fullPage: true });
    await context.close();
  });
}
