/**
 * The quantity stops at the live stock where it is chosen: with 5 copies left (the live catalog's answer), the
 * book page's field, its + and the cart page's field go no higher than 5 and say "Only 5 left"; the drawer says
 * so too. At a phone's width and a desktop's. The live answer is changed for this page only, so other tests'
 * stock is untouched.
 */
import { expect, test } from '@playwright/test';
import { fillAddress, liveStockOfBook, ownProduct, payInNewTab, uniqueEmail, WIDTHS } from './support';

// A live-catalog request still on its way when a test ends is dropped, not fetched into a closed page.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

for (const size of WIDTHS) {
  test(`a stock of 5 caps the quantity on the book page and in the cart, at ${size.width} px`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await liveStockOfBook(page, 5);
    const live = page.waitForResponse('**/api/live-catalog*');
    await page.goto('/book');
    await live;

    const quantity = page.getByLabel('Quantity', { exact: true });
    // Typed past the stock: the field shows 5 once the live stock is known, and says why.
    await expect(async () => {
      await quantity.fill('8');
      await quantity.press('Enter');
      await expect(quantity).toHaveValue('5', { timeout: 1_000 });
    }).toPass();
    await expect(page.getByText('Only 5 left')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath(`book-${size.width}.png`) });

    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByText('Only 5 left')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto('/cart');
    const field = page.getByRole('textbox', { name: `Quantity of ${BOOK}` }).locator('visible=true');
    await expect(field).toHaveValue('5');
    await expect(page.getByText('Only 5 left').locator('visible=true')).toBeVisible();
    await expect(page.getByRole('button', { name: `Increase quantity of ${BOOK.toLowerCase()}` }).locator('visible=true')).toBeDisabled();
    await field.fill('9');
    await expect(field).toHaveValue('5');
    await page
      .getByRole('button', { name: `Decrease quantity of ${BOOK.toLowerCase()}` })
      .locator('visible=true')
      .click();
    await expect(field).toHaveValue('4');
    await expect(page.getByText('Only 5 left').locator('visible=true')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`cart-${size.width}.png`), fullPage: true });
  });
}

for (const size of WIDTHS) {
  test(`too few copies at checkout: said once, beside the line, whose quantity can be lowered there, at ${size.width} px`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    // A book of this test's own with 3 left, in a cart that asks for 5 (the cart was filled when more were left).
    const book = await ownProduct(request, 'three-left', { stock: 3 });
    const line = { id: book.id, title: book.title, price: 20, imageUrl: '/favicon.svg', stock: 10, weight: 300, dimensions: { length: 21, width: 21, height: 1 } };
    await page.goto('/cart');
    await page.evaluate((saved) => localStorage.setItem('cart', saved), JSON.stringify([{ product: line, quantity: 5 }]));
    await page.goto('/checkout');
    await page.getByLabel('Email').fill(uniqueEmail('three-left'));
    await fillAddress(page, { line1: '1 Church St', city: 'Parramatta', postcode: '2150' });

    const message = `Only 3 left of ${book.title}. Please lower the quantity.`;
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    await expect(summary.getByRole('alert').filter({ hasText: 'Only 3 left' })).toHaveText(message);
    await expect(page.getByText(message)).toHaveCount(1);
    // Proceed is answered the same, still once, and with no toast.
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(summary.getByRole('alert').filter({ hasText: 'Only 3 left' })).toHaveText(message);
    await expect(page.getByText(message)).toHaveCount(1);
    await expect(page.getByText('Failed to create checkout')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`checkout-stock-${size.width}.png`), fullPage: true });

    const decrease = summary.getByRole('button', { name: `Decrease quantity of ${book.title.toLowerCase()}` });
    await decrease.click();
    await decrease.click();
    await expect(summary.getByRole('textbox', { name: `Quantity of ${book.title}` })).toHaveValue('3');
    await expect(page.getByText(message)).toHaveCount(0);
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked({ timeout: 15_000 });
    const payment = await payInNewTab(page);
    await expect(payment.getByText(`${book.title} × 3`)).toBeVisible();
  });
}
