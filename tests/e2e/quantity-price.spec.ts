/**
 * The book page's price follows the quantity: the price each (the quantity price reached), the total and what it
 * saves; and more copies typed than one order takes offer a quote for the number typed. Before React (the purchase
 * controls) and after, at a phone's width and a desktop's.
 */
import { expect, test } from '@playwright/test';
import { liveStockOfBook, WIDTHS } from './support';

// A live-catalog request still on its way when a test ends is dropped, not fetched into a closed page.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

for (const size of WIDTHS) {
  test(`the price follows the quantity, and 150 typed asks a quote for 150, at ${size.width} px`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    // Plenty left: the quantity stops at the stock.
    await liveStockOfBook(page, 500);
    await page.goto('/book');
    const quantity = page.getByLabel('Quantity', { exact: true });
    const price = page.locator('[data-purchase="line-price"]');
    await expect(price).toHaveText('');

    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await expect(price).toHaveText('2 × $22.00 each = $44.00');
    await quantity.fill('10');
    await expect(price).toHaveText('10 × $20.00 each = $200.00, you save $20.00');
    await quantity.fill('25');
    await expect(price).toHaveText('25 × $18.00 each = $450.00, you save $100.00');
    await expect(price).toHaveAttribute('aria-live', 'polite');

    await quantity.fill('150');
    await expect(quantity).toHaveValue('99');
    const quote = page.getByRole('link', { name: 'Request a quote for 150 copies' });
    await expect(quote).toBeVisible();
    const href = new URL((await quote.getAttribute('href'))!, page.url());
    expect(href.pathname).toBe('/contact');
    expect(href.searchParams.get('quantity')).toBe('150');
    expect(href.searchParams.get('subject')).toBe('Quote for 150 copies of 10 Reasons Why Being Catholic is Awesome!');
    await page.screenshot({ path: test.info().outputPath(`quantity-price-${size.width}.png`) });
  });
}
