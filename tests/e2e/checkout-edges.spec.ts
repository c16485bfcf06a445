/**
 * The edges of an order at checkout, at a phone's width and a desktop's: the name and state on the label, an
 * address mail reaches, a form that is never lost, the tab left behind when the payment opens in another,
 * a checkout that reads right abroad, and errors shown where the eye is.
 */
import { expect, test, type Page } from '@playwright/test';
import { addToCart, staffCli, staffSignsIn, uniqueEmail } from './support';

const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

async function fillAustralianAddress(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Address line 1').fill('12 Wattle St');
  await page.getByLabel('City / suburb').fill('Canberra');
  await page.getByLabel('Postcode').fill('2600');
  await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
}

async function openPayment(page: Page) {
  const [payment] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Proceed to Payment' }).click()]);
  await expect(payment.getByText('TEST PAYMENT')).toBeVisible();
  return payment;
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('an empty cart at /checkout shows the cart’s empty state, not a form that objects only when sent', async ({ page }) => {
      await page.goto('/checkout');
      await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Browse Our Store' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toHaveCount(0);
    });

    test('a name left blank takes the name on the card; the state comes from the postcode; the slip shows both', async ({ page, browser }, testInfo) => {
      // A whole journey: checkout, payment, the staff CLI, the back office and the slip.
      test.setTimeout(120_000);
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      await fillAustralianAddress(page, uniqueEmail(`label-${size.name}`));
      // The postcode filled in its state.
      await expect(page.getByLabel('State')).toHaveValue('ACT');
      const payment = await openPayment(page);
      await payment.getByLabel('Name on card').fill('Margaret Payer');
      await payment.getByRole('button', { name: /^Pay/ }).click();
      await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
      const number = (await payment.getByTestId('order-number').textContent())!;

      const publisher = uniqueEmail('slips');
      staffCli('add', publisher);
      const staff = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      await staffSignsIn(staff, publisher);
      await staff.getByLabel('Search by order number or email').fill(number.toLowerCase());
      await staff.getByRole('link', { name: number }).click();
      const slipLink = staff.getByRole('link', { name: 'Print packing slip' });
      await staff.goto((await slipLink.getAttribute('href'))!);
      const slip = staff.getByRole('article', { name: `Packing slip ${number}` });
      await expect(slip.getByText('Margaret Payer')).toBeVisible({ timeout: 15_000 });
      await expect(slip.getByText(/ACT/)).toBeVisible();
      await expect(slip.getByText('Guest Customer')).toHaveCount(0);
      await staff.screenshot({ path: testInfo.outputPath(`slip-payer-name-${size.width}.png`), fullPage: true });
    });

    test('addresses no mail reaches are refused on the email field, which is marked, described and focused', async ({ page }, testInfo) => {
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      await fillAustralianAddress(page, 'jane@example..com');
      const email = page.getByLabel('Email');
      for (const bad of ['jane@example..com', 'jane@example.c', 'a@x.co?bcc=spy%40evil.example']) {
        await email.fill(bad);
        await page.getByRole('button', { name: 'Proceed to Payment' }).click();
        await expect(email).toHaveAttribute('aria-invalid', 'true');
        await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
        await expect(email).toBeFocused();
        await expect(email).toBeInViewport();
      }
      await page.screenshot({ path: testInfo.outputPath(`email-error-${size.width}.png`) });
    });

    test('the form is kept through Back and Forward, a reload and a cancelled payment; the cart names the cancelled payment', async ({ page }, testInfo) => {
      const email = uniqueEmail(`kept-${size.name}`);
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      await fillAustralianAddress(page, email);
      await page.getByLabel('Full name').fill('Kept Shopper');
      await page.goto('/store');
      await page.goBack();
      await expect(page.getByLabel('Email')).toHaveValue(email);
      await page.goForward();
      await page.goBack();
      await expect(page.getByLabel('Full name')).toHaveValue('Kept Shopper');
      await page.reload();
      await expect(page.getByLabel('Address line 1')).toHaveValue('12 Wattle St');
      await expect(page.getByLabel('State')).toHaveValue('ACT');
      await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();

      const payment = await openPayment(page);
      await payment.getByRole('button', { name: 'Cancel' }).click();
      await expect(payment.getByText('Payment cancelled. Nothing was charged, and your cart is just as you left it.')).toBeVisible();
      await expect(payment).toHaveURL(/\/cart$/);
      await payment.screenshot({ path: testInfo.outputPath(`cart-cancelled-${size.width}.png`) });
      // The tab left behind hears of it and gives the form back, still filled in.
      await expect(page.getByText('Payment cancelled in the other tab.', { exact: false })).toBeVisible();
      await expect(page.getByLabel('Email')).toHaveValue(email);
      await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
      // In the payment tab too, checkout comes back filled in.
      await payment.goto('/checkout');
      await expect(payment.getByLabel('Email')).toHaveValue(email);
    });

    test('the tab left behind says the payment is open elsewhere, then shows the confirmation; the form is cleared once paid', async ({ page }, testInfo) => {
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      await fillAustralianAddress(page, uniqueEmail(`follow-${size.name}`));
      const payment = await openPayment(page);
      await expect(page.getByText('The payment page is open in another tab.', { exact: false })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`payment-open-elsewhere-${size.width}.png`) });
      await payment.getByRole('button', { name: /^Pay/ }).click();
      await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
      await expect(page.getByText('Your cart is empty')).toHaveCount(0);
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      await expect(page.getByLabel('Email')).toHaveValue('');
    });

    test('abroad the fields are the country’s own and the prices say AUD', async ({ page }, testInfo) => {
      await addToCart(page, '/store/product/book-10-reasons');
      await page.goto('/checkout');
      await page.getByLabel('Country').selectOption('US');
      await expect(page.getByLabel('ZIP code')).toBeVisible();
      await expect(page.getByLabel('City', { exact: true })).toBeVisible();
      await expect(page.getByLabel('Postcode')).toHaveCount(0);
      await page.getByLabel('Email').fill(uniqueEmail(`abroad-${size.name}`));
      await page.getByLabel('Address line 1').fill('350 Fifth Avenue');
      await page.getByLabel('City', { exact: true }).fill('New York');
      await page.getByLabel('ZIP code').fill('10118');
      const summary = page.getByRole('complementary', { name: 'Order Summary' });
      await expect(summary.getByText('$47.00 AUD')).toBeVisible();
      await expect(summary.getByText('Prices are in Australian dollars (AUD)', { exact: false })).toBeVisible();
      // The state is needed on a US label.
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      const state = page.getByLabel('State');
      await expect(state).toHaveAttribute('aria-invalid', 'true');
      await expect(state).toBeFocused();
      await page.screenshot({ path: testInfo.outputPath(`checkout-us-${size.width}.png`), fullPage: true });

      await page.getByLabel('Country').selectOption('GB');
      await expect(page.getByLabel('Town / city')).toBeVisible();
      await expect(page.getByLabel('County (optional)')).toBeVisible();
      await expect(page.getByLabel('Postcode')).toBeVisible();
    });
  });
}
