/**
 * On a phone, a toast never covers the cart drawer's content, the header or the mobile menu: checked by
 * geometry at 375 px on two phone heights, with a screenshot of each case kept with the results. In the back
 * office, at 375 and 1280 px, a toast covers neither the field the person is in (a draft invoice's street
 * address, low in the window), nor what it is about (the Sales figures under the Download CSV button), nor the
 * page's heading and tabs (the sign-in's toast), nor an order's heading and actions (an action's answer).
 */
import { type APIRequestContext, expect, test, type Locator, type Page } from '@playwright/test';
import { asService, grantStaff, openFoundOrder, orderToFind, staffSignsIn, uniqueEmail, WIDTHS } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

/** Resolves once the element's own transitions and animations (a slide-in) have finished. */
const settled = (element: Locator) => element.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)).then(() => undefined));

/** The visible toast, once it has finished sliding in. */
async function toastBox(page: Page) {
  // By class: the open drawer is modal, so the toast region is hidden from role queries meanwhile.
  const toast = page.locator('.toast-root[data-state="open"]').first();
  await expect(toast).toBeVisible();
  await settled(toast);
  return (await toast.boundingBox())!;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function expectUncovered(toast: Box, controls: Record<string, Locator>) {
  for (const [name, control] of Object.entries(controls)) {
    await expect(control, name).toBeVisible();
    const box = (await control.boundingBox())!;
    expect(overlaps(toast, box), `the toast covers ${name}`).toBe(false);
  }
}

for (const height of [812, 667]) {
  test.describe(`toasts at 375 × ${height} px`, () => {
    test.use({ viewport: { width: 375, height }, hasTouch: true, reducedMotion: 'reduce' });

    test('the added-to-cart message shows in the drawer’s own flow, covering neither the item line nor a control', async ({ page }, testInfo) => {
      await page.goto(`/store/product/book-10-reasons`);
      await page.getByRole('button', { name: 'Increase quantity' }).click();
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      const drawer = page.getByRole('dialog', { name: 'Item added to your cart' });
      await expect(drawer).toBeVisible();
      const notice = drawer.getByRole('status');
      await expect(drawer.getByText('$44.00', { exact: true })).toBeVisible();
      await expect(notice).toHaveText('2 item(s) added to cart');
      await expect(page.locator('.toast-root')).toHaveCount(0);
      await settled(drawer);
      await page.screenshot({ path: testInfo.outputPath(`drawer-toast-375x${height}.png`) });
      await expectUncovered((await notice.boundingBox())!, {
        'the item line': drawer.getByText(BOOK, { exact: true }).first(),
        'the item price': drawer.getByText('2 × $22.00 = $44.00', { exact: true }),
        'the drawer title': drawer.getByRole('heading', { name: 'Item added to your cart' }),
        'the close button': drawer.getByRole('button', { name: 'Close cart' }),
        'View my cart': drawer.getByRole('link', { name: /View my cart/ }),
        'Check out': drawer.getByRole('link', { name: 'Check out' }),
        'Continue shopping': drawer.getByRole('button', { name: 'Continue shopping' }),
      });
      // Closing the drawer takes its message with it: nothing pops up over the page afterwards.
      await drawer.getByRole('button', { name: 'Close cart' }).click();
      await expect(drawer).toBeHidden();
      await expect(page.locator('.toast-root')).toHaveCount(0);
    });

    test('a toast on the page leaves the header menu and cart buttons uncovered, and the open menu above it', async ({ page }, testInfo) => {
      await page.goto('/store');
      // Signed out, the wishlist heart asks to sign in: a toast on the page, with no drawer.
      await page.getByRole('button', { name: `Add ${BOOK} to wishlist` }).click();
      const toast = await toastBox(page);
      await page.screenshot({ path: testInfo.outputPath(`page-toast-375x${height}.png`) });
      const header = page.getByRole('banner');
      await expectUncovered(toast, { 'the menu button': header.getByRole('button', { name: 'Open menu' }), 'the cart link': header.getByRole('link', { name: /cart/i }).first() });

      await header.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('dialog', { name: 'Menu' });
      const close = menu.getByRole('button', { name: 'Close menu' });
      await expect(close).toBeVisible();
      // The menu is a modal dialog in the top layer: what is at its close button is the button itself.
      const box = (await close.boundingBox())!;
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-menu-close]') !== null, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
      expect(hit).toBe(true);
      await close.click();
      await expect(menu).toBeHidden();
    });
  });
}

/** A staff member signed in to the back office, the welcome toast come and gone, so the next toast is the test's. */
async function staffAt(page: Page, request: APIRequestContext) {
  const email = uniqueEmail('publisher');
  await grantStaff(request, email);
  await staffSignsIn(page, email);
  await expect(page.getByText('Successfully signed in!').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('.toast-root')).toHaveCount(0);
}

for (const size of WIDTHS) {
  test.describe(`back-office toasts at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, reducedMotion: 'reduce' });

    test('the sign-in’s toast covers neither the back office’s heading nor its tabs', async ({ page, request }, testInfo) => {
      const email = uniqueEmail('publisher');
      await grantStaff(request, email);
      await staffSignsIn(page, email);
      const toast = page.locator('.toast-root[data-state="open"]').filter({ hasText: 'Successfully signed in!' });
      await expect(toast).toBeVisible();
      // Pointed at, so its clock stops while it is measured.
      await toast.hover();
      await settled(toast);
      const kept = { 'the heading': page.getByRole('heading', { name: 'Back office', level: 1 }), 'the tabs': page.getByRole('navigation', { name: 'Back office' }) };
      // Placed again as the back office draws itself under it: settled within a moment, and still showing then.
      const boxes = () => Promise.all([toast, ...Object.values(kept)].map(async (element) => (await element.boundingBox())!));
      await expect.poll(async () => boxes().then(([shown, ...others]) => others.some((other) => overlaps(shown!, other)))).toBe(false);
      await page.screenshot({ path: testInfo.outputPath(`sign-in-toast-${size.width}.png`) });
      await expectUncovered((await toast.boundingBox())!, kept);
    });

    test('the draft invoice’s error leaves the street address field, low in the window, uncovered', async ({ page, request }, testInfo) => {
      const saved = await asService<{ outcome: string; invoice_id: string }>(request, 'POST', 'rpc/invoice_save_draft', {
        p_invoice_id: null,
        p_quote_id: null,
        p_draft: {
          organisation: `St Anne's Primary ${Date.now()}`,
          contact_name: 'Jane Office',
          email: uniqueEmail('school'),
          address: { line1: '12 Church Street', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
          lines: [{ product_id: 'book-10-reasons', quantity: 30 }],
          shipping: { kind: 'rate_card', name: 'AU Standard Courier', amount: 15 },
          terms_days: 14,
          ship_before_payment: false,
        },
        p_actor: 'publisher@example.com',
      });
      await staffAt(page, request);
      await page.goto(`/admin#invoice/${saved.invoice_id}`);
      const street = page.getByLabel('Street address');
      await expect(street).toHaveValue('12 Church Street');
      // The field sits just above the window's bottom edge, where a person filling the form down the page meets it.
      await street.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - (window.innerHeight - 24)));
      await street.fill('');
      await street.press('Enter');
      await expect(page.getByRole('alert').filter({ hasText: 'Please check the invoice' })).toContainText('Please enter the street address.');
      await expect(street).toBeFocused();
      const toast = await toastBox(page);
      await page.screenshot({ path: testInfo.outputPath(`invoice-street-toast-${size.width}.png`) });
      await expectUncovered(toast, { 'the street address field': street, 'the header’s cart link': page.getByRole('banner').getByRole('link', { name: /cart/i }).first() });
    });

    test('an order action’s toast covers neither the order’s heading nor its actions', async ({ page, request }, testInfo) => {
      const { email, number } = await orderToFind(request, 'toast-order');
      await staffAt(page, request);
      await openFoundOrder(page, email, number);
      // Pressed in the record's actions, the page at its top: on a phone they sit at the window's bottom edge.
      await page.evaluate(() => window.scrollTo(0, 0));
      const resend = page.getByRole('button', { name: 'Resend confirmation' });
      await resend.click();
      await expect(page.locator('.toast-root[role="status"]')).toContainText(`Confirmation resent to ${email}.`);
      await page.screenshot({ path: testInfo.outputPath(`order-resend-toast-${size.width}.png`) });
      await expectUncovered(await toastBox(page), { 'Resend confirmation': resend, 'Print packing slip': page.getByRole('link', { name: 'Print packing slip' }) });
      await page.locator('.toast-root').getByRole('button', { name: 'Close' }).click();
      await expect(page.locator('.toast-root')).toHaveCount(0);
      // Shipped from the form below the record's actions, both in the window at once (scrolled to the top).
      await page.getByLabel('Tracking number').fill('RR123456785AU');
      await page.evaluate(() => window.scrollTo(0, 0));
      const ship = page.getByRole('button', { name: 'Confirm shipment' });
      await ship.click();
      await expect(page.locator('.toast-root[role="status"]')).toContainText(`Order ${number} marked as shipped`);
      const toast = await toastBox(page);
      await page.screenshot({ path: testInfo.outputPath(`order-action-toast-${size.width}.png`) });
      await expectUncovered(toast, {
        'the order’s heading': page.getByRole('heading', { name: `Order ${number}` }),
        'Print packing slip': page.getByRole('link', { name: 'Print packing slip' }),
        'Resend confirmation': page.getByRole('button', { name: 'Resend confirmation' }),
        'Confirm shipment': ship,
        'the back office’s tabs': page.getByRole('navigation', { name: 'Back office' }),
      });
      await expect(ship).toBeFocused();
      // A note saved with its field just under the header: the toast leaves the note in sight, and focus on the button.
      const note = page.getByLabel('Internal note (the customer never sees it)');
      await note.fill('Wrap in tissue');
      await note.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - (document.querySelector('body > header')?.getBoundingClientRect().bottom ?? 0) - 8));
      const save = page.getByRole('button', { name: 'Save note' });
      await save.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('.toast-root[role="status"]')).toContainText('Note saved.');
      await expect(save).toBeFocused();
      await page.screenshot({ path: testInfo.outputPath(`order-note-toast-${size.width}.png`) });
      await expectUncovered(await toastBox(page), { 'the note': note, 'Save note': save });
    });

    test('a toast on Sales covers neither the Download CSV button nor the figures', async ({ page, request }, testInfo) => {
      await staffAt(page, request);
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Sales' }).click();
      const figures = page.locator('dl').filter({ has: page.getByTestId('sales-orders') });
      await expect(figures).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      // The CSV's orders cannot be read: the failure is told in a toast.
      await page.route('**/rest/v1/rpc/admin_sales_orders', (route) => route.abort());
      const download = page.getByRole('button', { name: 'Download CSV' });
      await download.click();
      await expect(page.locator('.toast-root[role="alert"]')).toBeVisible();
      const toast = await toastBox(page);
      await page.screenshot({ path: testInfo.outputPath(`sales-toast-${size.width}.png`) });
      await expectUncovered(toast, { 'Download CSV': download, 'the Sales figures': figures });
    });
  });
}
