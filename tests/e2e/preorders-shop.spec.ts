/**
 * A title before its release date, as a shopper meets it at a phone's width and at a desktop's: the home page, the
 * store grid and its page offer Pre-order with the date it is out, never Add to Cart; the cart drawer, the cart and
 * the checkout say which line is a pre-order, when the order ships and that the card is charged today; the
 * confirmation says it is pre-ordered. And the last allocated copy, paid for from two browsers at once, is sold once: one order paid, the
 * other refunded as sold out.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { asService, fillCheckout, lookAtBothWidths, lookAtThisWidth, ownProduct, payInNewTab, PREORDER_BOOK, uniqueEmail, WIDTHS } from './support';

const DATE_LINE = 'Out 1 June 2027 — ships that week';
const LINE_NOTE = 'Pre-order: ships when it is out, 1 June 2027';
const IN_STOCK_BOOK = '/store/product/book-10-reasons';

/**
 * Adds the title on pre-order from its page: the Pre-order button, then the drawer it opens, which says under the
 * line that it is a pre-order and when it ships, as the cart page does; then closed.
 */
async function preorder(page: Page, path: string, quantity?: number): Promise<void> {
  await page.goto(path);
  if (quantity !== undefined) await page.getByLabel('Quantity', { exact: true }).fill(String(quantity));
  await page.getByRole('button', { name: 'Pre-order', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
  await expect(drawer.getByTestId('preorder-note')).toHaveText(LINE_NOTE);
  await page.keyboard.press('Escape');
}

async function openCheckout(page: Page, email: string): Promise<void> {
  await page.goto('/checkout');
  await fillCheckout(page, email, { line1: '5 Cathedral St', city: 'Parramatta', postcode: '2150' });
}

test.describe('a title on pre-order', () => {
  test.describe.configure({ timeout: 150_000 });

  for (const size of WIDTHS) {
    test(`at ${size.width} px: the grid and its page offer Pre-order with the date, the cart and checkout say it is a pre-order, and it is paid today`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      const path = `/store/product/${PREORDER_BOOK.id}`;

      // The home page shows it in the store grid's card under Coming Next: its date and Pre-order, once live too.
      await page.goto('/');
      const next = page.getByRole('region', { name: 'Coming Next' });
      const homeCard = next.getByRole('article').filter({ has: page.getByRole('link', { name: PREORDER_BOOK.title }) });
      await expect(page.locator('html[data-purchase-controls="live"]')).toHaveCount(1);
      await expect(homeCard.getByText(DATE_LINE)).toBeVisible();
      await expect(homeCard.getByRole('button', { name: `Pre-order: ${PREORDER_BOOK.title}` })).toBeEnabled();
      await expect(homeCard.getByRole('button', { name: /Add to Cart|Buy Now/ })).toHaveCount(0);
      await next.scrollIntoViewIfNeeded();
      await lookAtThisWidth(page, `preorder-home-${size.name}`);

      // The store grid: its card says when it is out and offers Pre-order, not Add to Cart or Buy Now.
      await page.goto('/store');
      const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: PREORDER_BOOK.title }) });
      await expect(card.getByText(DATE_LINE)).toBeVisible();
      await expect(card.getByRole('button', { name: `Pre-order: ${PREORDER_BOOK.title}` })).toBeEnabled();
      await expect(card.getByRole('button', { name: /Add to Cart|Buy Now/ })).toHaveCount(0);

      // Its page: the date, Pre-order, and no Add to Cart or Buy Now, once the live answer has been drawn too.
      await page.goto(path);
      await expect(page.locator('html[data-purchase-controls="live"]')).toHaveCount(1);
      const offer = page.locator('[data-purchase-scope]').first();
      await expect(offer.getByText(DATE_LINE)).toBeVisible();
      await expect(offer.getByRole('button', { name: 'Pre-order', exact: true })).toBeEnabled();
      await expect(offer.getByRole('button', { name: /Add to Cart|Buy Now/ })).toHaveCount(0);
      await expect(offer.getByText('In Stock', { exact: true })).toBeHidden();
      await lookAtBothWidths(page, `preorder-product-${size.name}`);

      // Two copies on pre-order and a book in stock: the order ships once, when the pre-order is out.
      await preorder(page, path, 2);
      // The book in stock, added next: the drawer says which of its lines is the pre-order, and when it ships.
      await page.goto(IN_STOCK_BOOK);
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
      const others = drawer.getByRole('listitem');
      await expect(others).toHaveCount(1);
      await expect(others).toContainText(PREORDER_BOOK.title);
      await expect(drawer.getByTestId('preorder-note')).toHaveCount(1);
      await expect(others.getByTestId('preorder-note')).toHaveText(LINE_NOTE);
      // The book just added waits for the pre-order: said before Check out, as on the cart page.
      await expect(drawer.getByTestId('preorder-notice')).toHaveText(`Your order ships once, when ${PREORDER_BOOK.title} is out, 1 June 2027: everything in it goes together, in one parcel.`);
      await lookAtThisWidth(page, `preorder-drawer-${size.name}`);
      await page.keyboard.press('Escape');
      await page.goto('/cart');
      const notes = page.getByTestId('preorder-note').filter({ visible: true });
      await expect(notes).toHaveCount(1);
      await expect(notes).toHaveText(LINE_NOTE);
      await expect(page.getByTestId('preorder-notice')).toContainText(`Your order ships once, when ${PREORDER_BOOK.title} is out, 1 June 2027`);
      await lookAtBothWidths(page, `preorder-cart-${size.name}`);

      await openCheckout(page, uniqueEmail(`preorder-${size.width}`));
      const summary = page.getByRole('complementary', { name: 'Order Summary' });
      await expect(summary.getByTestId('preorder-note')).toHaveText(LINE_NOTE);
      await expect(summary.getByTestId('preorder-notice')).toContainText('Your card is charged today');
      await lookAtBothWidths(page, `preorder-checkout-${size.name}`);

      const payment = await payInNewTab(page);
      await payment.getByRole('button', { name: /^Pay/ }).click();
      await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({ timeout: 15_000 });
      await expect(payment.getByTestId('preorder-confirmed')).toHaveText(`Pre-ordered: ships with ${PREORDER_BOOK.title}, out 1 June 2027`);
      await expect(payment.getByText('Estimated delivery').locator('..')).toContainText('once it ships');
    });
  }

  test('the last allocated copy, paid for from two browsers at once, is sold once: one order paid, the other refunded', async ({ browser, request }) => {
    // A title of the test's own, announced with one copy to pre-order, so no other test's orders count against it.
    const { id } = await ownProduct(request, 'last-preorder', { stock: 0, release_date: '2027-06-01', preorder_allocation: 1 });

    const shoppers = await Promise.all(WIDTHS.map((size) => shopper(browser, size.width)));
    try {
      const payments: Page[] = [];
      for (const [i, page] of shoppers.entries()) {
        await preorder(page, `/store/product/${id}`);
        await openCheckout(page, uniqueEmail(`last-preorder-${i}`));
        payments.push(await payInNewTab(page));
      }
      // Both pay at the same moment.
      await Promise.all(payments.map((payment) => payment.getByRole('button', { name: /^Pay/ }).click()));
      const outcomes = await Promise.all(
        payments.map(async (payment) => {
          const confirmed = payment.getByRole('heading', { name: 'Order Confirmed!' });
          const pending = payment.getByRole('heading', { name: 'Payment Pending' });
          await expect(confirmed.or(pending)).toBeVisible({ timeout: 30_000 });
          return (await confirmed.isVisible()) ? 'paid' : 'refunded';
        }),
      );
      expect([...outcomes].sort()).toEqual(['paid', 'refunded']);
      const refunded = payments[outcomes.indexOf('refunded')]!;
      await expect(refunded.getByText(/sold out moments before it arrived.*refunded in full/)).toBeVisible();

      const lines = await asService<Array<{ order_id: string }>>(request, 'GET', `order_items?select=order_id&product_id=eq.${id}`);
      const orders = await asService<Array<{ status: string; payment_status: string }>>(request, 'GET', `orders?select=status,payment_status&id=in.(${lines.map((l) => l.order_id).join(',')})`);
      expect(orders.map((o) => o.payment_status).sort()).toEqual(['paid', 'refund_due']);
      // The one paid waits for the release, as a pre-order.
      expect(orders.find((o) => o.payment_status === 'paid')?.status).toBe('preorder');
      // Sold out now: the title's page says its pre-orders are full, and takes an address for the waiting list.
      await shoppers[0]!.goto(`/store/product/${id}`);
      await expect(shoppers[0]!.getByRole('button', { name: 'Pre-orders are full' })).toBeDisabled();
      await expect(shoppers[0]!.getByRole('button', { name: /Email me/ })).toBeVisible();
      await expect(shoppers[0]!.getByText("Pre-orders are full for now. Leave your email and we'll tell you when you can order it.")).toBeVisible();
    } finally {
      await Promise.all(shoppers.map((page) => page.context().close()));
    }
  });
});

async function shopper(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  return context.newPage();
}
