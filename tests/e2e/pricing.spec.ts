/**
 * Copies for a class or a parish, and promotion codes (each journey once, its screens looked at on a phone, 375 px,
 * and a desktop, 1280 px): 25 copies at the 25+ price in the
 * drawer, the cart, checkout, the TEST payment page and the order's lines; a code created in /admin, applied,
 * paid for and refused once used up; two shoppers racing for a code's last use, one paying and the other told.
 * The tier journey cancels on the payment page (the book's stock is shared with other tests); the code journeys
 * buy a product of their own.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { asService, fillCheckout, grantStaff, lookAtBothWidths, payInNewTab, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const BOOK_PATH = '/store/product/book-10-reasons';

const sessionOf = (payment: Page) => new URL(payment.url()).searchParams.get('session')!;

async function orderOfSession(request: APIRequestContext, session: string) {
  const [order] = await asService<Array<{ id: string; promotion_code: string | null; discount_amount: number; subtotal_amount: number; total_amount: number }>>(
    request,
    'GET',
    `orders?select=id,promotion_code,discount_amount,subtotal_amount,total_amount&checkout_session_id=eq.${session}`,
  );
  const items = await asService<Array<{ quantity: number; price_at_time: number }>>(request, 'GET', `order_items?select=quantity,price_at_time&order_id=eq.${order!.id}`);
  return { ...order!, items };
}

/** A product of the test's own, in stock, in the shopper's cart (written as the cart store keeps it). */
async function cartWithOwnProduct(page: Page, request: APIRequestContext, quantity: number) {
  const id = `code-fixture-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  await asService(request, 'POST', 'products', {
    id,
    title: `Parish Pack ${id.slice(-4)}`,
    price: 30,
    category: `Fixtures ${id}`,
    stock: 50,
    weight: 300,
    dimensions: { length: 20, width: 20, height: 1 },
  });
  await setCart(page, { id, title: `Parish Pack ${id.slice(-4)}`, price: 30 }, quantity);
  return id;
}

async function setCart(page: Page, product: { id: string; title: string; price: number }, quantity: number) {
  await page.goto('/cart');
  await page.evaluate(
    ([p, q]) =>
      localStorage.setItem('cart', JSON.stringify([{ product: { ...p, imageUrl: '/images/logo.svg', stock: 50, weight: 300, dimensions: { length: 20, width: 20, height: 1 } }, quantity: q }])),
    [product, quantity] as const,
  );
}

async function createCodeInAdmin(page: Page, code: { code: string; percent: number; minSubtotal: number; uses: number }) {
  await page.goto('/admin#codes');
  await expect(page.getByRole('heading', { name: 'Codes', exact: true })).toBeVisible();
  // A form sent empty says what is wrong on the field itself, not in a toast far from it.
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByLabel('Code', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Code', { exact: true })).toHaveAccessibleDescription('A code is 3 to 32 letters, digits, - or _.');
  await expect(page.getByLabel('Code', { exact: true })).toBeFocused();
  await page.getByLabel('Code', { exact: true }).fill(code.code);
  await page.getByLabel('Takes off').selectOption('percent');
  await page.getByLabel('Percentage (1-100)').fill(String(code.percent));
  await page.getByLabel('Minimum subtotal (AUD, optional)').fill(String(code.minSubtotal));
  await page.getByLabel('Total uses (optional)').fill(String(code.uses));
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByText(`Code ${code.code} created.`).first()).toBeVisible();
  await expect(page.getByRole('listitem', { name: `Code ${code.code}` })).toContainText(`Uses: 0 of ${code.uses}`);
}

async function applyCode(page: Page, code: string) {
  await page.getByLabel('Promotion code (optional)').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
}

async function shopperPage(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  return context.newPage();
}

const [PHONE, DESKTOP] = WIDTHS;

test.describe('quantity prices and codes', () => {
  test('25 copies at the 25+ price: the product page, the drawer, the cart, checkout, the TEST payment page and the order’s lines', async ({ page, request }) => {
    test.setTimeout(120_000);
    const width = PHONE.width;
    await page.setViewportSize({ width, height: PHONE.height });
    await page.goto(BOOK_PATH);
    const tiers = page.locator('[data-quantity-prices]');
    await expect(tiers).toContainText('For classrooms and parishes: 10 or more copies $20.00 each; 25 or more copies $18.00 each.');
    // A quote is for a class of 40 as much as for 100 copies or more.
    await expect(tiers.locator('[data-quote-invitation]')).toHaveText(
      'Buying for a class, a school or a parish? Request a quote for any number of copies, with an invoice for your purchase order. One online order takes up to 99 copies.',
    );
    await expect(tiers.getByRole('link', { name: 'Request a quote' })).toHaveAttribute('href', '/schools-and-parishes#quote');
    await tiers.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`product-tiers-${width}.png`) });

    await page.getByLabel('Quantity', { exact: true }).fill('25');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
    await expect(drawer).toContainText('25 × $18.00 = $450.00');
    await expect(drawer).toContainText('25+ copies price: $18.00 each, you save $100.00');
    await expect(drawer).toContainText('Quantity prices save you $100.00');
    await expect(drawer.getByText('$450.00', { exact: true })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`drawer-tier-${width}.png`) });
    await page.keyboard.press('Escape');

    await page.goto('/cart');
    await expect(page.getByTestId('tier-note').filter({ visible: true })).toHaveText('25+ copies price: $18.00 each, you save $100.00');
    await expect(page.getByTestId('quantity-saving')).toHaveText('Quantity prices save you $100.00');
    await expect(page.getByText('$450.00').filter({ visible: true }).first()).toBeVisible();
    await lookAtBothWidths(page, 'cart-tier', { axe: false });

    await page.goto('/checkout');
    await fillCheckout(page, uniqueEmail('class-set'));
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    await expect(summary.getByTestId('tier-note')).toHaveText('25+ copies price: $18.00 each, you save $100.00');
    // $450 of goods ships free in Australia.
    await expect(summary.getByText('Free')).toBeVisible();
    await expect(summary.getByText('$450.00').first()).toBeVisible();

    const payment = await payInNewTab(page);
    await expect(payment.getByText('10 Reasons Why Being Catholic is Awesome! × 25 at $18.00 each')).toBeVisible();
    await expect(payment.getByRole('button', { name: 'Pay $450.00' })).toBeVisible();
    await payment.screenshot({ path: test.info().outputPath(`payment-tier-${width}.png`), fullPage: true });
    const order = await orderOfSession(request, sessionOf(payment));
    expect(order.items).toEqual([{ quantity: 25, price_at_time: 18 }]);
    expect(Number(order.total_amount)).toBe(450);
    // The book's stock is shared with other tests: this journey leaves without paying.
    await payment.getByRole('button', { name: 'Cancel' }).click();
    await expect(payment).toHaveURL(/\/cart/);
  });

  test('a code created in /admin, applied at checkout, paid for, then refused once used up', async ({ page, browser, request }) => {
    test.setTimeout(180_000);
    const width = DESKTOP.width;
    await page.setViewportSize({ width, height: DESKTOP.height });
    const publisher = uniqueEmail('codes-publisher');
    await grantStaff(request, publisher);
    await staffSignsIn(page, publisher);
    const code = `PARISH${Date.now().toString(36).toUpperCase()}`;
    await createCodeInAdmin(page, { code, percent: 10, minSubtotal: 50, uses: 1 });
    await lookAtBothWidths(page, 'codes', { axe: false });

    const shopper = await shopperPage(browser, width);
    await cartWithOwnProduct(shopper, request, 1);
    await shopper.goto('/checkout');
    await fillCheckout(shopper, uniqueEmail('code-buyer'));
    await applyCode(shopper, 'NOSUCHCODE');
    await expect(shopper.getByText('That code is not valid. Please check it and try again.')).toBeVisible();
    await applyCode(shopper, code.toLowerCase());
    await expect(shopper.getByText('Spend $20.00 more to use this code.')).toBeVisible();
    await expect(shopper.getByLabel('Promotion code (optional)')).toHaveAttribute('aria-invalid', 'true');

    // Two copies: $60 of goods, 10% off is $6; $54 ships at the standard rate.
    const [id] = (await shopper.evaluate(() => JSON.parse(localStorage.getItem('cart')!).map((l: { product: { id: string } }) => l.product.id))) as string[];
    await setCart(shopper, { id: id!, title: `Parish Pack ${id!.slice(-4)}`, price: 30 }, 2);
    await shopper.goto('/checkout');
    await fillCheckout(shopper, uniqueEmail('code-buyer'));
    await applyCode(shopper, code);
    await expect(shopper.getByText(`Code ${code} applied: −$6.00`)).toBeVisible();
    const summary = shopper.getByRole('complementary', { name: 'Order Summary' });
    await expect(summary.getByTestId('summary-discount')).toHaveText(`Code ${code} (10% off)−$6.00`);
    await expect(summary.getByText('$69.00')).toBeVisible();
    await summary.scrollIntoViewIfNeeded();
    await lookAtBothWidths(shopper, 'checkout-code', { axe: false });

    const payment = await payInNewTab(shopper);
    await expect(payment.getByText(`Code ${code}`)).toBeVisible();
    await expect(payment.getByText('−$6.00')).toBeVisible();
    const session = sessionOf(payment);
    await payment.getByRole('button', { name: 'Pay $69.00' }).click();
    await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    const order = await orderOfSession(request, session);
    expect({ code: order.promotion_code, discount: Number(order.discount_amount), subtotal: Number(order.subtotal_amount), total: Number(order.total_amount) }).toEqual({
      code,
      discount: 6,
      subtotal: 60,
      total: 69,
    });

    // The one use is taken: to the next shopper the code is as one that never existed.
    const next = await shopperPage(browser, width);
    await setCart(next, { id: id!, title: `Parish Pack ${id!.slice(-4)}`, price: 30 }, 2);
    await next.goto('/checkout');
    await fillCheckout(next, uniqueEmail('too-late'));
    await applyCode(next, code);
    await expect(next.getByText('That code is not valid. Please check it and try again.')).toBeVisible();

    await page.reload();
    await expect(page.getByRole('listitem', { name: `Code ${code}` })).toContainText('Uses: 1 of 1');
    await expect(page.getByRole('listitem', { name: `Code ${code}` })).toContainText('$6.00 off 1 paid order');
  });

  test('two shoppers race for a code’s last use: neither unpaid checkout keeps the other out; the first payment takes it, the second is refunded', async ({ browser, request }) => {
    test.setTimeout(180_000);
    const width = PHONE.width;
    const code = `LAST${Date.now().toString(36).toUpperCase()}`;
    await asService(request, 'POST', 'promotion_codes', { code, kind: 'amount', amount: 5, max_uses: 1, created_by: 'e2e@example.com' });
    const shoppers = await Promise.all([shopperPage(browser, width), shopperPage(browser, width)]);
    const first = shoppers[0]!;
    const id = await cartWithOwnProduct(first, request, 2);
    await setCart(shoppers[1]!, { id, title: `Parish Pack ${id.slice(-4)}`, price: 30 }, 2);
    const emails = [uniqueEmail('racer0'), uniqueEmail('racer1')];
    for (const [i, shopper] of shoppers.entries()) {
      await shopper.goto('/checkout');
      await fillCheckout(shopper, emails[i]!);
      await applyCode(shopper, code);
      await expect(shopper.getByText(`Code ${code} applied: −$5.00`)).toBeVisible();
    }
    // Both reach a payment page with the code: an unpaid checkout holds no use.
    const payments = await Promise.all(shoppers.map((shopper) => payInNewTab(shopper)));
    const [winner, late] = payments as [Page, Page];
    await winner.getByRole('button', { name: 'Pay $70.00' }).click();
    await expect(winner.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible();
    // The second payment arrives after the last use went: refunded in full, and told why.
    await late.getByRole('button', { name: 'Pay $70.00' }).click();
    await expect(late.getByRole('heading', { name: 'Payment Pending' })).toBeVisible();
    await expect(late.getByText("the code's last use went to another order moments before it arrived")).toBeVisible();
    await lookAtBothWidths(late, 'code-race-refunded', { axe: false });
    const orders = await asService<Array<{ customer_email: string; payment_status: string; code_used_up: boolean; refunded_at: string | null }>>(
      request,
      'GET',
      `orders?select=customer_email,payment_status,code_used_up,refunded_at&promotion_code=eq.${code}&order=paid_at`,
    );
    expect(orders).toEqual([
      { customer_email: emails[0], payment_status: 'paid', code_used_up: false, refunded_at: null },
      { customer_email: emails[1], payment_status: 'refund_due', code_used_up: true, refunded_at: expect.any(String) },
    ]);
  });
});
