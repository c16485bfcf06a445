/**
 * The edges of an order at checkout: the name and state on the label, an address mail reaches, a form that is
 * never lost, the tab left behind when the payment opens in another, a checkout that reads right abroad, and
 * errors shown where the eye is. Each journey runs once, on a phone or a desktop, and its screens are looked at
 * at both widths.
 */
import { formatPrice } from '../../src/lib/format';
import { internationalPrice } from '../../src/lib/international-rates';
import { expect, test } from '@playwright/test';
import { addToCart, fillCheckout, grantStaff, lookAtBothWidths, openFoundOrder, payInNewTab, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const [PHONE, DESKTOP] = WIDTHS;

const CANBERRA = { line1: '12 Wattle St', city: 'Canberra', postcode: '2600' };

test.describe('on a phone', () => {
  test.use({ viewport: { width: PHONE.width, height: PHONE.height } });

  test('an empty cart at /checkout shows the cart’s empty state, not a form that objects only when sent', async ({ page }) => {
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse Our Store' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toHaveCount(0);
    await lookAtBothWidths(page, 'checkout-empty', { axe: false });
  });

  test('a name left blank takes the name on the card; the state comes from the postcode; the slip shows both', async ({ page, browser, request }) => {
    // A whole journey: checkout, payment, the back office and the slip.
    test.setTimeout(120_000);
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await fillCheckout(page, uniqueEmail('label'), CANBERRA);
    // The postcode filled in its state.
    await expect(page.getByLabel('State')).toHaveValue('ACT');
    const payment = await payInNewTab(page);
    await payment.getByLabel('Name on card').fill('Margaret Payer');
    await payment.getByRole('button', { name: /^Pay/ }).click();
    await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    const number = (await payment.getByTestId('order-number').textContent())!;

    const publisher = uniqueEmail('slips');
    await grantStaff(request, publisher);
    const staff = await browser.newPage({ viewport: { width: PHONE.width, height: PHONE.height } });
    await staffSignsIn(staff, publisher);
    await openFoundOrder(staff, number.toLowerCase(), number);
    const slipLink = staff.getByRole('link', { name: 'Print packing slip' });
    await staff.goto((await slipLink.getAttribute('href'))!);
    const slip = staff.getByRole('article', { name: `Packing slip ${number}` });
    await expect(slip.getByText('Margaret Payer')).toBeVisible({ timeout: 15_000 });
    await expect(slip.getByText(/ACT/)).toBeVisible();
    await expect(slip.getByText('Guest Customer')).toHaveCount(0);
    await lookAtBothWidths(staff, 'slip-payer-name', { axe: false });
  });

  test('addresses no mail reaches are refused on the email field, which is marked, described, focused and in view', async ({ page }) => {
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await fillCheckout(page, 'jane@example..com', CANBERRA);
    const email = page.getByLabel('Email');
    const refused = async () => {
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
      await expect(email).toBeFocused();
      await expect(email).toBeInViewport();
    };
    for (const bad of ['jane@example..com', 'jane@example.c', 'a@x.co?bcc=spy%40evil.example']) {
      await email.fill(bad);
      await refused();
    }
    // On a desktop too, the button sits far from the field: the error is brought into view.
    await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
    await page.getByRole('button', { name: 'Proceed to Payment' }).scrollIntoViewIfNeeded();
    await refused();
    await lookAtBothWidths(page, 'email-error', { axe: false });
  });

  test('an email with a common slip in its domain gets a “did you mean”, and one tap takes the suggestion', async ({ page }) => {
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    const email = page.getByLabel('Email');
    await email.fill('nonna@gmial.com');
    await expect(page.getByText('Did you mean nonna@gmail.com?')).toBeVisible();
    await expect(email).toHaveAccessibleDescription(/Did you mean nonna@gmail\.com\?/);
    await page.getByRole('button', { name: 'Use nonna@gmail.com' }).click();
    await expect(email).toHaveValue('nonna@gmail.com');
    await expect(page.getByText('Did you mean', { exact: false })).toHaveCount(0);
  });

  test('abroad the fields are the country’s own and the prices say AUD', async ({ page }) => {
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await page.getByLabel('Country').selectOption('US');
    await expect(page.getByLabel('ZIP code')).toBeVisible();
    await expect(page.getByLabel('City', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Postcode')).toHaveCount(0);
    await page.getByLabel('Email').fill(uniqueEmail('abroad'));
    await page.getByLabel('Address line 1').fill('350 Fifth Avenue');
    await page.getByLabel('City', { exact: true }).fill('New York');
    await page.getByLabel('ZIP code').fill('10118');
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    // One copy at 22 and International Standard for its 300 g, from the rate card.
    await expect(summary.getByText(`${formatPrice(22 + internationalPrice('US', 'standard', 300))} AUD`)).toBeVisible();
    await expect(summary.getByText('Prices are in Australian dollars (AUD)', { exact: false })).toBeVisible();
    // The state is needed on a US label.
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    const state = page.getByLabel('State');
    await expect(state).toHaveAttribute('aria-invalid', 'true');
    await expect(state).toBeFocused();
    await lookAtBothWidths(page, 'checkout-us', { axe: false });

    await page.getByLabel('Country').selectOption('GB');
    await expect(page.getByLabel('Town / city')).toBeVisible();
    await expect(page.getByLabel('County (optional)')).toBeVisible();
    await expect(page.getByLabel('Postcode')).toBeVisible();
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });

  test('the form is kept through Back and Forward, a reload and a cancelled payment; the cart names the cancelled payment', async ({ page }) => {
    const email = uniqueEmail('kept');
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await fillCheckout(page, email, CANBERRA);
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

    const payment = await payInNewTab(page);
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(payment.getByText('Payment cancelled. Nothing was charged, and your cart is just as you left it.')).toBeVisible();
    await expect(payment).toHaveURL(/\/cart$/);
    await lookAtBothWidths(payment, 'cart-cancelled', { axe: false });
    // The tab left behind hears of it and gives the form back, still filled in.
    await expect(page.getByText('Payment cancelled in the other tab.', { exact: false })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
    // In the payment tab too, checkout comes back filled in.
    await payment.goto('/checkout');
    await expect(payment.getByLabel('Email')).toHaveValue(email);
  });

  test('the tab left behind says the payment is open elsewhere, then shows the confirmation; the form is cleared once paid', async ({ page }) => {
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await fillCheckout(page, uniqueEmail('follow'), CANBERRA);
    const payment = await payInNewTab(page);
    await expect(page.getByText('The payment page is open in another tab.', { exact: false })).toBeVisible();
    await lookAtBothWidths(page, 'payment-open-elsewhere', { axe: false });
    await payment.getByRole('button', { name: /^Pay/ }).click();
    await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    await expect(page.getByText('Your cart is empty')).toHaveCount(0);
    await addToCart(page, '/store/product/book-10-reasons');
    await page.goto('/checkout');
    await expect(page.getByLabel('Email')).toHaveValue('');
  });
});
