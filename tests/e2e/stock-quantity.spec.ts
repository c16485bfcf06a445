/**
 * The quantity stops at the live stock where it is chosen: with 5 copies left (the live catalog's answer), the
 * book page's field, its + and the cart page's field go no higher than 5 and say "Only 5 left"; the drawer says
 * so too. At a phone's width and a desktop's. The live answer is changed for this page only, so other tests'
 * stock is untouched.
 */
import { expect, test, type Page } from '@playwright/test';
import { WIDTHS } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

/** This page's live catalog says 5 copies are left of the book. */
async function fiveLeft(page: Page): Promise<void> {
  await page.route('**/api/live-catalog*', async (route) => {
    const response = await route.fetch();
    const answer = (await response.json()) as { products: Array<{ id: string; stock: number }> };
    for (const product of answer.products) if (product.id === 'book-10-reasons') product.stock = 5;
    await route.fulfill({ response, json: answer });
  });
}

for (const size of WIDTHS) {
  test(`a stock of 5 caps the quantity on the book page and in the cart, at ${size.width} px`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await fiveLeft(page);
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
