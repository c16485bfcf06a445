/**
 * The cart and delivery as a shopper meets them at a phone's width and a desktop's: a quantity typed as a
 * person types it, and the two domestic services the site's pages promise (Standard and Express).
 */
import { expect, test } from '@playwright/test';
import { addToCart, uniqueEmail } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

for (const size of [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
]) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size });

    test('typing a quantity: Backspace leaves the field empty, 3 makes 3 (not 13), an emptied field becomes 1 when left', async ({ page }, testInfo) => {
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/cart');
      const quantity = page.getByRole('textbox', { name: `Quantity of ${BOOK}`, exact: true }).locator('visible=true');
      await expect(quantity).toHaveValue('1');
      await quantity.click();
      await quantity.press('End');
      await quantity.press('Backspace');
      await expect(quantity).toHaveValue('');
      await quantity.pressSequentially('3');
      await expect(quantity).toHaveValue('3');
      await expect(page.getByText('$66.00').locator('visible=true').first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`cart-typed-3-${size.width}.png`) });

      await quantity.press('Backspace');
      await quantity.pressSequentially('x');
      await expect(quantity).toHaveValue('');
      await quantity.press('Tab');
      await expect(quantity).toHaveValue('1');
      await expect(page.getByText('$22.00').locator('visible=true').first()).toBeVisible();
    });

    test('checkout to an Australian address offers Australia Post’s Standard and Express, Express charged above the free-shipping line', async ({ page }, testInfo) => {
      await addToCart(page, '/store/product/book-10-reasons', 4);
      await page.goto('/checkout');
      await page.getByLabel('Email').fill(uniqueEmail('express'));
      await page.getByLabel('Address line 1').fill('1 Test St');
      await page.getByLabel('City / suburb').fill('Sydney');
      await page.getByLabel('Postcode').fill('2000');
      const standard = page.getByRole('radio', { name: /AU Standard Courier/ });
      const express = page.getByRole('radio', { name: /AU Express Courier/ });
      await expect(standard).toBeChecked();
      await expect(express).toBeVisible();
      await expect(page.getByText('1-3 business days')).toBeVisible();
      await express.check();
      const summary = page.getByRole('complementary', { name: 'Order Summary' });
      // $88 of books ships free by Standard; Express keeps its $25.
      await expect(summary.getByText('$25.00')).toBeVisible();
      await expect(summary.getByText('$113.00')).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`checkout-express-${size.width}.png`), fullPage: true });
    });
  });
}
