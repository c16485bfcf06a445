/**
 * One cart, one payment, in two tabs of one browser: the second tab's Proceed to Payment brings back the payment
 * page the first opened (the same address, no second order); once the cart changes, Proceed closes that page (it
 * then refuses the payment) and opens a new one; paying there leaves one paid order for the cart. A change made on
 * the checkout page itself while its payment page is open closes that page at once. At a phone's width and at a
 * desktop's.
 */
import { expect, test, type Page } from '@playwright/test';
import { addToCart, asService, fillCheckout, payInNewTab, uniqueEmail, WIDTHS } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

async function openCheckout(page: Page, email: string): Promise<void> {
  await page.goto('/checkout');
  await fillCheckout(page, email, { line1: '3 Cathedral St', city: 'Parramatta', postcode: '2150' });
  await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
}

/** The book in the cart and the checkout filled, then Proceed: its payment page opens in a new tab, which the checkout page says. */
async function openPaymentTab(page: Page, email: string): Promise<Page> {
  await addToCart(page, '/store/product/book-10-reasons');
  await openCheckout(page, email);
  const payment = await payInNewTab(page);
  await expect(page.getByRole('status').filter({ hasText: 'The payment page is open in another tab' })).toBeVisible();
  return payment;
}

test.describe('one cart, one payment', () => {
  test.describe.configure({ timeout: 150_000 });
  for (const size of WIDTHS) {
    test(`two tabs of one cart at ${size.width} px: the same payment page, then a changed cart closes it, and one paid order`, async ({ browser, request }) => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      try {
        const email = uniqueEmail(`one-cart-${size.width}`);
        const first = await context.newPage();
        const firstPayment = await openPaymentTab(first, email);

        // The same cart in a second tab: Proceed brings back the page already open, not a second order.
        const second = await context.newPage();
        await openCheckout(second, email);
        const again = await payInNewTab(second);
        expect(again.url()).toBe(firstPayment.url());
        const orders = () =>
          asService<Array<{ id: string; payment_status: string }>>(request, 'GET', `orders?select=id,payment_status&customer_email=eq.${encodeURIComponent(email)}&order=created_at`);
        expect(await orders()).toHaveLength(1);
        await again.close();

        // The cart changes (one more copy): Proceed closes the older page and opens a new one.
        await second.goto('/cart');
        await second
          .getByRole('button', { name: `Increase quantity of ${BOOK.toLowerCase()}` })
          .locator('visible=true')
          .click();
        await expect(second.getByRole('textbox', { name: `Quantity of ${BOOK}` }).locator('visible=true')).toHaveValue('2');
        await second.goto('/checkout');
        await expect(second.getByLabel('Email')).toHaveValue(email);
        await expect(second.getByRole('radio', { name: /AU Standard Courier/ })).toBeChecked({ timeout: 15_000 });
        const newPayment = await payInNewTab(second);
        expect(newPayment.url()).not.toBe(firstPayment.url());
        await expect(newPayment.getByText(/× 2 at/)).toBeVisible();

        // The first tab's page, still showing Pay, refuses the payment.
        await firstPayment.getByRole('button', { name: /^Pay/ }).click();
        await expect(firstPayment.getByRole('heading', { name: 'This payment page has closed' })).toBeVisible();
        await expect(firstPayment.getByRole('status')).toHaveText(/Nothing was paid/);

        await newPayment.getByRole('button', { name: /^Pay/ }).click();
        await expect(newPayment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({ timeout: 15_000 });
        await newPayment.screenshot({ path: test.info().outputPath(`paid-${size.width}.png`), fullPage: true });
        expect((await orders()).map((o) => o.payment_status)).toEqual(['expired', 'paid']);
      } finally {
        await context.close();
      }
    });

    test(`a change on the checkout page while its payment page is open closes that page at once (${size.width} px)`, async ({ browser, request }) => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      try {
        const email = uniqueEmail(`changed-open-${size.width}`);
        const page = await context.newPage();
        const oldPayment = await openPaymentTab(page, email);

        // One more copy, here, without pressing Proceed: the page made for one copy is closed at once.
        await page.getByRole('button', { name: `Increase quantity of ${BOOK.toLowerCase()}` }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Your order changed, so the payment page opened before is closed' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Open the payment page again' })).toHaveCount(0);
        await expect
          .poll(async () =>
            (await asService<Array<{ payment_status: string }>>(request, 'GET', `orders?select=payment_status&customer_email=eq.${encodeURIComponent(email)}`)).map((o) => o.payment_status),
          )
          .toEqual(['expired']);
        await oldPayment.getByRole('button', { name: /^Pay/ }).click();
        await expect(oldPayment.getByRole('heading', { name: 'This payment page has closed' })).toBeVisible();

        // Proceed pays for the order as it is now.
        const payment = await payInNewTab(page);
        await expect(payment.getByText(/× 2 at/)).toBeVisible();
        await payment.getByRole('button', { name: /^Pay/ }).click();
        await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({ timeout: 15_000 });
      } finally {
        await context.close();
      }
    });
  }
});
