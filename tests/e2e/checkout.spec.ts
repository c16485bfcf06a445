import { formatPrice, orderNumber } from '../../src/lib/format';
import { internationalPrice } from '../../src/lib/international-rates';
import { expect, test, type Page } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { addToCart, asService, fillAddress, fillCheckout, payInNewTab, signIn, uniqueEmail } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

/**
 * How many copies of the book the order placed with this email took, from the stock history: other workers buy
 * the same book meanwhile, so the stock itself may move by more than this order did.
 */
async function copiesTakenBy(request: Parameters<typeof asService>[0], email: string): Promise<number> {
  const [order] = await asService<Array<{ id: string }>>(request, 'GET', `orders?select=id&customer_email=eq.${encodeURIComponent(email)}`);
  if (!order) throw new Error(`no order for ${email}`);
  const changes = await asService<Array<{ previous_stock: number; new_stock: number }>>(
    request,
    'GET',
    `stock_changes?select=previous_stock,new_stock&product_id=eq.book-10-reasons&order_id=eq.${order.id}`,
  );
  return changes.reduce((taken, change) => taken + change.previous_stock - change.new_stock, 0);
}

const addBook = (page: Page, quantity: number) => addToCart(page, '/store/product/book-10-reasons', quantity);

test.describe('guest checkout on the embedded defaults', () => {
  // Journeys through the cart, the checkout and the payment tab: time for a busy machine.
  test.describe.configure({ timeout: 120_000 });
  test('cart → checkout with every validation message → delivery → test payment → Order Confirmed!, stock down, cart empty', async ({ page, request }) => {
    // An empty cart gets the cart's own empty state, not a form that objects only when sent.
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse Our Store' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveCount(0);

    await addBook(page, 2);
    await page.goto('/checkout');
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();
    const email = page.getByLabel('Email');
    await email.fill('guest@example');
    await fillAddress(page, { line1: '   ', city: 'Parramatta', postcode: '2150' });
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    // Each problem is on its field: marked invalid, its message tied to it, and the field focused.
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
    await expect(email).toBeFocused();

    await email.fill(uniqueEmail('guest'));
    await expect(email).not.toHaveAttribute('aria-invalid');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    const line1 = page.getByLabel('Address line 1');
    await expect(line1).toHaveAttribute('aria-invalid', 'true');
    await expect(line1).toHaveAccessibleDescription('Please complete your shipping address');
    await expect(line1).toBeFocused();
    await line1.fill('1 Church St');

    const buyer = uniqueEmail('guest');
    await page.getByLabel('Email').fill(buyer);
    // While the new postcode's delivery options load (held back here), the button waits for them.
    let releaseQuotes!: () => void;
    const quotesHeld = new Promise<void>((resolve) => (releaseQuotes = resolve));
    await page.route('**/api/courier-rates', async (route) => {
      await quotesHeld;
      await route.continue();
    });
    await page.getByLabel('Postcode').fill('2151');
    await expect(page.getByRole('status').filter({ hasText: 'Finding delivery options...' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();
    releaseQuotes();
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();

    const standard = page.getByRole('radio', { name: /AU Standard Courier/ });
    await expect(standard).toBeChecked();
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    await expect(summary.getByText(`${BOOK} × 2`)).toBeVisible();
    await expect(summary.getByText('$44.00').first()).toBeVisible();
    await expect(summary.getByText('$15.00')).toBeVisible();
    await expect(summary.getByText('$59.00')).toBeVisible();

    const payment = await payInNewTab(page);
    await expect(payment.getByText('$59.00').first()).toBeVisible();
    await payment.getByRole('button', { name: /^Pay/ }).click();
    await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    // The order's own number, the one the database gave it.
    const [placed] = await asService<Array<{ number: number }>>(request, 'GET', `orders?select=number&customer_email=eq.${encodeURIComponent(buyer)}`);
    await expect(payment.getByTestId('order-number')).toHaveText(orderNumber(placed!.number));
    await expect(payment.getByText('AU Standard Courier')).toBeVisible();
    await expect(payment.getByText('Australia Post')).toBeVisible();
    await expect(payment.getByText(/tracking/i)).toBeVisible();
    // What was bought, where it goes, where the email went, and where to follow it.
    await expect(payment.getByRole('region', { name: 'Your order' }).getByText(`${BOOK} × 2`)).toBeVisible();
    await expect(payment.getByTestId('confirmed-total')).toHaveText('$59.00 AUD');
    await expect(payment.getByRole('region', { name: 'Delivering to' })).toContainText('1 Church St');
    await expect(payment.getByRole('region', { name: 'Delivering to' })).toContainText('2151');
    await expect(payment.getByText(`The confirmation went to ${buyer}.`)).toBeVisible();
    await payment.getByRole('link', { name: 'Follow your order' }).click();
    await expect(payment).toHaveURL(/\/order-status#[0-9a-f]{64}$/);
    await expect(payment.getByText(`${BOOK} × 2`).first()).toBeVisible({ timeout: 15_000 });

    expect(await payment.evaluate(() => localStorage.getItem('cart'))).toBe('[]');
    expect(await payment.evaluate(() => localStorage.getItem('checkoutSessionId'))).toBeNull();
    expect(await copiesTakenBy(request, buyer)).toBe(2);
  });

  test('delivery options that changed between the quote and the payment are offered again, with the message', async ({ page }) => {
    await addBook(page, 1);
    await page.goto('/checkout');
    await fillCheckout(page, uniqueEmail('changed'));
    // The server now offers other options (Australia Post answered at the quote and differently at checkout).
    await page.route('**/api/create-checkout', (route) =>
      route.fulfill({
        status: 409,
        json: {
          error: 'The delivery options for your address have changed. Please choose one again.',
          quotes: [
            {
              id: 'AUS_PARCEL_REGULAR',
              plan_name: 'Parcel Post',
              carrier: 'Australia Post',
              is_satchel: false,
              satchel_size: null,
              service: 'standard',
              price: 11.6,
              eta: { days_range: '3-5 business days', date_range: '' },
            },
            {
              id: 'AUS_PARCEL_EXPRESS',
              plan_name: 'Express Post',
              carrier: 'Australia Post',
              is_satchel: false,
              satchel_size: null,
              service: 'express',
              price: 18.6,
              eta: { days_range: '1-2 business days', date_range: '' },
            },
          ],
        },
      }),
    );
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    // On the page, by the delivery options (a toast says it too).
    await expect(page.locator('#main').getByRole('alert').filter({ hasText: 'Please choose one again' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Parcel Post/ })).not.toBeChecked();
    await expect(page.getByRole('radio', { name: /Express Post/ })).toBeVisible();
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toHaveCount(0);
  });

  test('free shipping at 75 AUD in Australia, not below it, and never abroad', async ({ page }) => {
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    /** Opens checkout for a Sydney address and waits for the domestic rate. */
    const checkoutToSydney = async () => {
      await page.goto('/checkout');
      await page.getByLabel('Email').fill(uniqueEmail('free'));
      await fillAddress(page, { line1: '5 George St', city: 'Sydney', postcode: '2000' });
      await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeVisible();
    };

    await addBook(page, 3); // 66 AUD
    await checkoutToSydney();
    await expect(summary.getByText('$15.00')).toBeVisible();

    await addBook(page, 1); // 88 AUD
    await checkoutToSydney();
    await expect(summary.getByText('Free')).toBeVisible();

    // Abroad never free: four copies (1.2 kg) by International Standard, from the rate card.
    await page.getByLabel('Country').selectOption('NZ');
    await expect(page.getByRole('radio', { name: /International Standard/ })).toBeChecked();
    await expect(summary.getByText(formatPrice(internationalPrice('NZ', 'standard', 1200)))).toBeVisible();
  });

  test('the last copy sold while paying: Payment Pending says it is refunded, the refund is recorded and emailed once', async ({ page, request }) => {
    // A category of its own, so it appears under no other product's 'You May Also Like'.
    const id = `last-copy-${Date.now()}`;
    await asService(request, 'POST', 'products', { id, title: `Last Copy ${id}`, price: 30, category: `Fixtures ${id}`, stock: 1 });
    await addToCart(page, `/store/product/${id}`);

    const email = uniqueEmail('lastcopy');
    await page.goto('/checkout');
    await fillCheckout(page, email, { line1: '3 Mary St', city: 'Surry Hills', postcode: '2010' });
    const payment = await payInNewTab(page);
    // Another shopper takes the copy while this one is on the payment page.
    await asService(request, 'PATCH', `products?id=eq.${id}`, { stock: 0 });
    await payment.getByRole('button', { name: /^Pay/ }).click();

    await expect(payment.getByRole('heading', { name: 'Payment Pending' })).toBeVisible();
    await expect(payment.getByText(/sold out moments before it arrived.*refunded in full/)).toBeVisible();
    const [order] = await asService<Array<{ number: number; payment_status: string; refund_id: string | null; refunded_at: string | null }>>(
      request,
      'GET',
      `orders?select=number,payment_status,refund_id,refunded_at&customer_email=eq.${encodeURIComponent(email)}`,
    );
    expect(order).toMatchObject({ payment_status: 'refund_due', refund_id: expect.stringMatching(/^re_local_/), refunded_at: expect.any(String) });
    const refundEmails = (await readOutbox('test-results/outbox.jsonl')).filter((m) => m.to === email);
    expect(refundEmails.map((m) => m.subject)).toEqual([`Your order ${orderNumber(order!.number)} has been refunded`]);
  });

  test('Cancel on the payment page returns to the cart and leaves stock alone', async ({ page, request }) => {
    await addBook(page, 1);
    await page.goto('/checkout');
    const shopper = uniqueEmail('cancel');
    await fillCheckout(page, shopper, { line1: '9 King St', city: 'Newtown', postcode: '2042' });
    const payment = await payInNewTab(page);
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(payment.getByText('Payment cancelled.', { exact: false })).toBeVisible();
    await expect(payment).toHaveURL(/\/cart$/);
    expect(await copiesTakenBy(request, shopper)).toBe(0);
  });

  test('a visit without a stored session goes to the store', async ({ page }) => {
    await page.goto('/order-confirmation');
    await expect(page).toHaveURL(/\/store$/);
  });

  test('a signed-in buyer sees the order on the profile', async ({ page }) => {
    await signIn(page, uniqueEmail('buyer'));
    await addBook(page, 1);
    await page.goto('/checkout');
    await expect(page.getByLabel('Email')).not.toHaveValue('');
    await fillAddress(page, { line1: '2 Hunter St', city: 'Sydney', postcode: '2000' });
    await expect(page.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked();
    const payment = await payInNewTab(page);
    await payment.getByRole('button', { name: /^Pay/ }).click();
    const number = await payment.getByTestId('order-number').textContent();
    // The checkout tab left behind follows the payment to its confirmation.
    await expect(page.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    await page.goto('/profile');
    const row = page.getByRole('row').filter({ hasText: number!.toLowerCase() });
    await expect(row).toBeVisible();
    await expect(row.getByText('processing')).toBeVisible();
    await expect(row.getByText('$37.00')).toBeVisible();
  });
});
