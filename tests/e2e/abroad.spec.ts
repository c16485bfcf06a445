/**
 * Buying from abroad: the checkout starts on the country the shop sees the visitor in, says how long delivery
 * takes there (the publisher's range from content/shipping/delivery-estimates.json) and what duties and import
 * taxes to expect; the confirmation page and email repeat the estimate. The visitor's country is faked the way
 * the local server allows (its x-local-country header stands in for Netlify's geolocation).
 */
import { expect, type Page, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { LOCAL_COUNTRY_HEADER } from '../../local/server';
import { deliveryEstimate } from '../../src/features/checkout/delivery-estimates';
import { importChargesStatement } from '../../src/features/checkout/import-charges';
import { addToCart, payInNewTab, uniqueEmail, WIDTHS } from './support';

const US_RANGE = deliveryEstimate('US');

for (const size of WIDTHS) {
  test.describe(`a visitor from the US, ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, extraHTTPHeaders: { [LOCAL_COUNTRY_HEADER]: 'US' } });

    test('the checkout starts on the United States, with the estimate for the US and the words on duties', async ({ page }) => {
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      const address = page.getByRole('group', { name: 'Shipping address' });
      // The country comes first in the address, and is the one the shop detected.
      await expect(address.getByRole('combobox').first()).toHaveAccessibleName('Country');
      await expect(page.getByLabel('Country')).toHaveValue('US');
      await expect(page.getByLabel('ZIP code')).toBeVisible();
      const option = page.getByRole('radio', { name: /International Standard/ });
      await expect(option).toBeChecked();
      await expect(page.getByRole('group', { name: 'Delivery method' }).getByText(`Australia Post · ${US_RANGE}`).first()).toBeVisible();
      await expect(page.getByTestId('import-charges')).toHaveText(importChargesStatement('US')!);
      await expect(page.getByText('Confirmed by the seller', { exact: false })).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath(`checkout-us-visitor-${size.width}.png`), fullPage: true });

      // A UK address gets the UK's words; Canada has none.
      await page.getByLabel('Country').selectOption('GB');
      await expect(page.getByTestId('import-charges')).toHaveText(importChargesStatement('GB')!);
      await expect(
        page
          .getByRole('group', { name: 'Delivery method' })
          .getByText(`Australia Post · ${deliveryEstimate('GB')}`)
          .first(),
      ).toBeVisible();
      // International Express states its own, shorter time, not Standard's.
      const options = page.getByRole('group', { name: 'Delivery method' });
      await expect(options.locator('label', { hasText: 'International Express' })).toContainText(`Australia Post · ${deliveryEstimate('GB', 'express')}`);
      await expect(options.locator('label', { hasText: 'International Standard' })).toContainText(`Australia Post · ${deliveryEstimate('GB', 'standard')}`);
      expect(deliveryEstimate('GB', 'express')).not.toBe(deliveryEstimate('GB', 'standard'));
      await page.getByLabel('Country').selectOption('CA');
      await expect(page.getByTestId('import-charges')).toHaveCount(0);
    });
  });
}

/** Pays on the TEST page; the confirmation page and the buyer's confirmation email both give `estimate`. */
async function paysAndIsToldTheEstimate(page: Page, email: string, estimate: string): Promise<void> {
  const payment = await payInNewTab(page);
  await payment.getByRole('button', { name: /^Pay/ }).click();
  await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({ timeout: 15_000 });
  await expect(payment.getByText('Estimated delivery').locator('..')).toContainText(estimate);
  await expect
    .poll(async () => (await readOutbox('test-results/outbox.jsonl')).find((m) => m.to === email && /is confirmed$/.test(m.subject))?.text ?? '', { timeout: 15_000 })
    .toContain(`Estimated delivery: ${estimate}.`);
}

test.describe('a US order, paid', () => {
  test.use({ extraHTTPHeaders: { [LOCAL_COUNTRY_HEADER]: 'US' } });
  test.describe.configure({ timeout: 120_000 });

  test('the confirmation page and the confirmation email give the US estimate', async ({ page }) => {
    const email = uniqueEmail('abroad');
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await expect(page.getByLabel('Country')).toHaveValue('US');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Address line 1').fill('350 Fifth Avenue');
    await page.getByLabel('City', { exact: true }).fill('New York');
    await page.getByLabel('State').selectOption('NY');
    await page.getByLabel('ZIP code').fill('10118');
    await expect(page.getByRole('radio', { name: /International Standard/ })).toBeChecked();
    await paysAndIsToldTheEstimate(page, email, US_RANGE);
  });

  test('an Express order to the UK: the confirmation page and email give Express’s own estimate', async ({ page }) => {
    const email = uniqueEmail('abroad-express');
    const express = deliveryEstimate('GB', 'express');
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await page.getByLabel('Country').selectOption('GB');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Address line 1').fill('10 Downing Street');
    await page.getByLabel('Town / city').fill('London');
    await page.getByLabel('Postcode').fill('SW1A 2AA');
    await page.getByRole('radio', { name: /International Express/ }).check();
    await paysAndIsToldTheEstimate(page, email, express);
  });
});
