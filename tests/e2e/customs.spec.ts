/**
 * A US order and its customs declaration: the checkout with a US address prices Australia Post's International
 * Standard for the parcel's weight (ten copies weigh 3 kg; the local shop has no Australia Post key, so the
 * publisher's rate card of Australia Post's prices stands in), the order is paid on the TEST payment page, and in
 * /admin its packing slip is followed by its customs declaration: HS 4903.00, the origin, and the value paid per
 * copy (the 10-copy price, not the list price). A domestic order printed beside it gets no declaration. The shipping
 * platform's TEST page shows the US order's customs lines as the platform received them.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { formatPrice } from '../../src/lib/format';
import { internationalPrice } from '../../src/lib/international-rates';
import { asService, buysThroughCheckout, grantStaff, horizontalOverflow, orderNumberOf, payInNewTab, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const COPIES = 10;
/** The book file's quantity price from 10 copies (the list price is 22). */
const PAID_EACH = 20;
const WEIGHT_GRAMS = 300 * COPIES;

for (const size of WIDTHS) {
  test.describe(`a US order and its customs declaration, ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.describe.configure({ timeout: 120_000 });

    test('priced by weight at checkout, paid, then printed with its declaration after its slip', async ({ page, request }) => {
      const email = uniqueEmail('customs');
      await page.goto('/store/product/book-10-reasons');
      await page.getByLabel('Quantity', { exact: true }).fill(String(COPIES));
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();
      await page.keyboard.press('Escape');

      await page.goto('/checkout');
      await page.getByLabel('Country').selectOption('US');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Full name').fill('Mary Customs');
      await page.getByLabel('Address line 1').fill('350 Fifth Avenue');
      await page.getByLabel('City', { exact: true }).fill('New York');
      await page.getByLabel('State').selectOption('NY');
      await page.getByLabel('ZIP code').fill('10118');
      const standard = page.getByRole('radio', { name: /International Standard/ });
      await expect(standard).toBeChecked({ timeout: 15_000 });
      const options = page.getByRole('group', { name: 'Delivery method' });
      const postage = internationalPrice('US', 'standard', WEIGHT_GRAMS);
      await expect(options.locator('label', { has: standard })).toContainText(formatPrice(postage));
      await expect(options.locator('label', { has: page.getByRole('radio', { name: /International Express/ }) })).toContainText(formatPrice(internationalPrice('US', 'express', WEIGHT_GRAMS)));
      await expect(options.getByText(/^Australia Post · /).first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`checkout-us-${size.width}.png`), fullPage: true });

      const payment = await payInNewTab(page);
      await payment.getByRole('button', { name: /^Pay/ }).click();
      await expect(payment.getByRole('heading', { name: 'Order Confirmed!' })).toBeVisible({ timeout: 15_000 });
      await payment.close();

      const [order] = await asService<Array<{ id: string; shipping_amount: number; subtotal_amount: number }>>(
        request,
        'GET',
        `orders?customer_email=eq.${encodeURIComponent(email)}&select=id,shipping_amount,subtotal_amount`,
      );
      expect(order!.shipping_amount).toBe(postage);
      expect(order!.subtotal_amount).toBe(PAID_EACH * COPIES);

      // A domestic order printed beside it: a slip, no declaration (seeded: its checkout is not what is tested here).
      const domesticBook = `customs-domestic-${Date.now()}-${size.width}`;
      await asService(request, 'POST', 'products', { id: domesticBook, title: 'A Domestic Book', price: 20, stock: 5, weight: 300, dimensions: { length: 21, width: 21, height: 1 } });
      const domesticId = await buysThroughCheckout(request, domesticBook, 1, uniqueEmail('customs-domestic'));

      // The shipping platform got the US order with its customs lines; the domestic one with its book's line only.
      // The platform knows each order by the number the database gave it.
      const number = await orderNumberOf(request, order!.id);
      const domesticNumber = await orderNumberOf(request, domesticId);
      expect(Number(domesticNumber)).toBeGreaterThan(Number(number));
      const atPlatform = page.locator(`article[data-order="${number}"]`);
      await expect(async () => {
        await page.goto('/api/test-shipping');
        await expect(atPlatform).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await expect(atPlatform).toContainText(`${COPIES} × Printed children's picture book · HS 4903.00 · made in AU · ${formatPrice(PAID_EACH)} each`);
      const domesticAtPlatform = page.locator(`article[data-order="${domesticNumber}"]`);
      await expect(domesticAtPlatform).toContainText('1 × A Domestic Book');
      await expect(domesticAtPlatform).not.toContainText(/HS |made in| each/);

      const staff = uniqueEmail('customs-staff');
      await grantStaff(request, staff);
      await staffSignsIn(page, staff);
      await page.goto(`/admin/packing-slip?order=${order!.id},${domesticId}`);

      const slip = page.getByRole('article', { name: `Packing slip ${number}` });
      const declaration = page.getByRole('article', { name: `Customs declaration ${number}` });
      await expect(slip).toBeVisible({ timeout: 15_000 });
      await expect(declaration).toBeVisible();
      await expect(page.getByRole('article', { name: `Packing slip ${domesticNumber}` })).toBeVisible();
      await expect(page.getByRole('article', { name: /^Customs declaration/ })).toHaveCount(1);
      // The declaration comes straight after its own slip.
      expect(await page.getByRole('article').evaluateAll((articles) => articles.map((a) => a.getAttribute('aria-label')))).toEqual([
        `Packing slip ${number}`,
        `Customs declaration ${number}`,
        `Packing slip ${domesticNumber}`,
      ]);

      const line = declaration.getByTestId('customs-line');
      await expect(line).toHaveCount(1);
      await expect(line.getByRole('cell')).toHaveText([
        "Printed children's picture book",
        String(COPIES),
        (WEIGHT_GRAMS / 1000).toFixed(3),
        `${formatPrice(PAID_EACH * COPIES)}${formatPrice(PAID_EACH)} each`,
        '4903.00',
        'AU',
      ]);
      await expect(declaration.getByTestId('customs-totals')).toContainText(`${formatPrice(PAID_EACH * COPIES)} AUD`);
      await expect(declaration.getByRole('region', { name: 'Recipient' })).toContainText('Mary Customs');
      await expect(declaration.getByRole('region', { name: 'Recipient' })).toContainText('United States');
      await expect(declaration.getByRole('region', { name: 'Sender' })).toContainText('SHOP_LEGAL_NAME is not set');
      await expect(declaration.getByText('☒ Sale of goods')).toBeVisible();
      await expect(declaration.getByTestId('informational-materials')).toContainText('informational materials');

      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: test.info().outputPath(`packing-slip-and-declaration-${size.width}.png`), fullPage: true });
      if (size.width === 1280) await page.pdf({ path: test.info().outputPath('packing-slip-and-declaration.pdf'), format: 'A4', preferCSSPageSize: true });
    });
  });
}

test('abroad, when the delivery prices cannot be fetched, the page shows the rate card for the cart’s weight and says so', async ({ page }) => {
  await page.route('**/api/courier-rates', (route) => route.abort('connectionrefused'));
  await page.goto('/store/product/book-10-reasons');
  await page.getByLabel('Quantity', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Item added to your cart' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/checkout');
  await page.getByLabel('Country').selectOption('NZ');
  const standard = page.getByRole('radio', { name: /International Standard/ });
  await expect(standard).toBeChecked({ timeout: 15_000 });
  await expect(page.getByRole('group', { name: 'Delivery method' }).locator('label', { has: standard })).toContainText(formatPrice(internationalPrice('NZ', 'standard', 900)));
  await expect(page.getByRole('group', { name: 'Delivery method' }).getByRole('status')).toContainText('Our standard rate applies');
});

test('declarations that cannot be loaded leave the slips printable, and say why on screen', async ({ page, request }) => {
  const [order] = await asService<Array<{ id: string }>>(request, 'POST', 'orders', {
    customer_email: uniqueEmail('customs-down'),
    customer_name: 'Gwen Brit',
    status: 'processing',
    payment_status: 'paid',
    subtotal_amount: 22,
    shipping_amount: 30.1,
    total_amount: 52.1,
    shipping_address: { addressLine1: '12 Abbey Road', city: 'London', postalCode: 'NW8 9AY', country: 'GB' },
    shipping_method: { name: 'International Standard' },
    paid_at: new Date().toISOString(),
  });
  await asService(request, 'POST', 'order_items', { order_id: order!.id, product_id: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!', quantity: 1, price_at_time: 22 });
  const staff = uniqueEmail('customs-down-staff');
  await grantStaff(request, staff);
  await staffSignsIn(page, staff);
  const problem = 'The shop’s postal address (SHOP_POSTAL_ADDRESS) is not set, so no customs declaration can name the sender.';
  const number = await orderNumberOf(request, order!.id);
  await page.route('**/api/admin-customs', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: problem }) }));
  await page.goto(`/admin/packing-slip?order=${order!.id}`);
  await expect(page.getByRole('article', { name: `Packing slip ${number}` })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('alert')).toContainText(problem);
  await expect(page.getByRole('article', { name: /^Customs declaration/ })).toHaveCount(0);
});

test('a UK order for 3 copies with $10 off is declared at $56.00, what was paid, its copies to the cent', async ({ page, request }) => {
  const id = randomUUID();
  const codeId = randomUUID();
  await asService(request, 'POST', 'promotion_codes', { id: codeId, code: `TENOFF${Date.now()}`, kind: 'amount', amount: 10, created_by: 'publisher@example.com' });
  // Seeded: the checkout is not what is tested here, only what the declaration adds up to.
  await asService(request, 'POST', 'orders', {
    id,
    customer_email: uniqueEmail('customs-uk'),
    customer_name: 'Ann Cent',
    subtotal_amount: 66,
    discount_amount: 10,
    promotion_code_id: codeId,
    promotion_code: 'TENOFF',
    shipping_amount: 40,
    total_amount: 96,
    shipping_address: { addressLine1: '1 Penny Lane', city: 'Liverpool', postalCode: 'L18 1DE', country: 'GB' },
    shipping_method: { name: 'International Standard' },
  });
  await asService(request, 'POST', 'order_items', { order_id: id, product_id: 'book-10-reasons', title: '10 Reasons', quantity: 3, price_at_time: 22 });
  const staff = uniqueEmail('customs-cent-staff');
  await grantStaff(request, staff);
  await staffSignsIn(page, staff);
  await page.goto(`/admin/packing-slip?order=${id}`);
  const declaration = page.getByRole('article', { name: `Customs declaration ${await orderNumberOf(request, id)}` });
  await expect(declaration).toBeVisible({ timeout: 15_000 });
  await expect(declaration.getByTestId('customs-line').getByRole('cell').nth(3)).toHaveText(`${formatPrice(56)}2 × ${formatPrice(18.67)}, 1 × ${formatPrice(18.66)}`);
  await expect(declaration.getByTestId('customs-totals')).toContainText(`${formatPrice(56)} AUD`);
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath(`declaration-to-the-cent-${size.width}.png`), fullPage: true });
  }
});
