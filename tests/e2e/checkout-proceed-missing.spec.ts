/**
 * Proceed to Payment says what it waits for: while it is disabled, a line beside it (read out as it changes)
 * names each field still empty, and each name takes the shopper to its field. At a phone's width and a desktop's.
 */
import { expect, test } from '@playwright/test';
import { addToCart, lookAtBothWidths, uniqueEmail, WIDTHS } from './support';

for (const size of WIDTHS) {
  test(`Proceed to Payment names what is missing, each a way to its field, at ${size.width} px`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    const proceed = page.getByRole('button', { name: 'Proceed to Payment' });
    const missing = page.locator('#proceed-missing');
    await expect(missing).toHaveAttribute('aria-live', 'polite');
    await expect(missing).toHaveText('Add your email, street address, city / suburb and postcode to continue');
    await expect(proceed).toBeDisabled();
    // The button names the line as its description (the browser may space the inner buttons out).
    await expect(proceed).toHaveAccessibleDescription(/^Add your email ?, street address ?, city \/ suburb and postcode to continue$/);
    if (size.width === 375) await lookAtBothWidths(page, 'proceed-missing', { axe: true });

    // Each name moves focus to its field.
    await missing.getByRole('button', { name: 'postcode' }).click();
    await expect(page.getByLabel('Postcode')).toBeFocused();
    await missing.getByRole('button', { name: 'email' }).click();
    await expect(page.getByLabel('Email')).toBeFocused();

    await page.getByLabel('Email').fill(uniqueEmail('missing'));
    await expect(missing).toHaveText('Add your street address, city / suburb and postcode to continue');
    await page.getByLabel('Address line 1').fill('1 Church St');
    await page.getByLabel('City / suburb').fill('Parramatta');
    await expect(missing).toHaveText('Add your postcode to continue');
    await missing.getByRole('button', { name: 'postcode' }).click();
    await expect(page.getByLabel('Postcode')).toBeFocused();
    await page.keyboard.type('2150');
    await expect(missing).toHaveText('');
    await expect(proceed).toBeEnabled();
  });
}
