/**
 * Address suggestions at checkout: one Places session token from the first suggestion to the chosen place,
 * and a new one for the next lookup (a finished session's token would be billed per request). The lookup
 * function is answered here, as Google Places would through it.
 */
import { expect, test } from '@playwright/test';
import { addToCart } from './support';

test('choosing a suggestion ends the lookup session: the next suggestions use a new token', async ({ page }) => {
  const calls: Array<{ action: string; sessionToken: string }> = [];
  await page.route('**/api/address-places', async (route) => {
    const body = route.request().postDataJSON() as { action: string; sessionToken: string };
    calls.push({ action: body.action, sessionToken: body.sessionToken });
    await route.fulfill({
      json:
        body.action === 'suggest'
          ? { predictions: [{ place_id: 'place-1', description: '1 Church Street, Parramatta NSW, Australia' }] }
          : { ok: true, address: { line1: '1 Church Street', line2: '', city: 'Parramatta', state: 'NSW', postal_code: '2150', country: 'AU' } },
    });
  });

  // Checkout shows its form only with something in the cart.
  await addToCart(page, '/store/product/book-10-reasons');
  await page.goto('/checkout');
  const line1 = page.getByRole('combobox', { name: 'Address line 1' });
  await line1.fill('1 Church');
  await page.getByRole('option', { name: '1 Church Street, Parramatta NSW, Australia' }).click();
  await expect(page.getByLabel('City / suburb')).toHaveValue('Parramatta');

  await line1.fill('9 King St');
  await expect.poll(() => calls.filter((c) => c.action === 'suggest').length).toBeGreaterThanOrEqual(2);

  const details = calls.find((c) => c.action === 'details')!;
  const firstSuggest = calls.find((c) => c.action === 'suggest')!;
  const lastSuggest = calls.filter((c) => c.action === 'suggest').at(-1)!;
  expect(details.sessionToken).toBe(firstSuggest.sessionToken);
  expect(lastSuggest.sessionToken).not.toBe(details.sessionToken);
  expect(lastSuggest.sessionToken).toMatch(/^[0-9a-f-]{36}$/);
});
