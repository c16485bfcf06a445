/**
 * The life of an order as the publisher runs it, from a fresh start: a guest buys, `npm run staff -- add` grants
 * the role, the publisher signs in, packs, ships with a tracking number; the guest follows the order from the
 * email; another paid order is cancelled and refunded.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { orderRow } from '../helpers/order-row';
import { asService, grantStaff, guestBuys, openFoundOrder, orderNumberOf, orderToFind, signInFromAdmin, staffCli, staffSignsIn, uniqueEmail } from './support';

const OUTBOX = 'test-results/outbox.jsonl';
/** The params of the orders list's address, e.g. { view: 'all', q: '…' } for #orders?view=all&q=…. */
const listParams = (url: string) => Object.fromEntries(new URLSearchParams(new URL(url).hash.replace(/^#orders\??/, '')));
// Each back-office screen loads its data after the session and the staff check: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('the publisher runs an order from payment to the shopper’s door', () => {
  // Whole journeys through several pages and a CLI run: longer than one page's test.
  test.describe.configure({ timeout: 180_000 });

  test('guest buys → staff added by CLI → To pack → packing slip → shipped with tracking → one email → status page shows Shipped', async ({ browser }) => {
    const guestEmail = uniqueEmail('guest-ship');
    const guest = await browser.newPage();
    const number = await guestBuys(guest, guestEmail);

    const publisherEmail = uniqueEmail('publisher');
    expect(staffCli('add', publisherEmail)).toContain(`${publisherEmail} is now staff`);
    expect(staffCli('list')).toContain(publisherEmail);

    const page = await browser.newPage();
    await staffSignsIn(page, publisherEmail);
    await expect(page.getByRole('button', { name: 'To pack', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await openFoundOrder(page, number, number);
    await expect(page.getByText(guestEmail).first()).toBeVisible();
    await expect(page.getByText('7 Packer Lane')).toBeVisible();

    await page.getByRole('link', { name: 'Print packing slip' }).click();
    const slip = page.getByRole('article', { name: `Packing slip ${number}` });
    await expect(slip.getByText('7 Packer Lane')).toBeVisible();
    await expect(slip.getByText('10 Reasons Why Being Catholic is Awesome!')).toBeVisible();
    await page.goBack();

    await page.getByLabel('Tracking number').fill('12');
    await page.getByRole('button', { name: 'Confirm shipment' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Australia Post tracking number is 10 to 23 letters and digits' })).toBeVisible();
    await page.getByLabel('Tracking number').fill('33QRS0000001');
    await page.getByRole('button', { name: 'Confirm shipment' }).click();
    await expect(page.getByText(`Order ${number} marked as shipped; the customer has been emailed the tracking number.`).first()).toBeVisible();
    await expect(page.getByText('Australia Post: 33QRS0000001')).toBeVisible();
    await page.getByRole('button', { name: 'Confirm shipment' }).click();
    await expect(page.getByText('already shipped with this tracking number').first()).toBeVisible();

    const mails = (await readOutbox(OUTBOX)).filter((m) => m.to === guestEmail && /shipped/.test(m.subject));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('33QRS0000001');
    expect(mails[0]!.text).toContain('https://auspost.com.au/mypost/track/details/33QRS0000001');
    const statusLink = mails[0]!.text.match(/http:\/\/\S+\/order-status#[0-9a-f]{64}/)?.[0];
    expect(statusLink).toBeTruthy();

    await guest.goto(statusLink!);
    await expect(guest.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
    await expect(guest.getByRole('heading', { name: 'Shipped', exact: true })).toBeVisible();
    await expect(guest.getByText('Your order is on its way.')).toBeVisible();
    await expect(guest.getByText('33QRS0000001')).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Track your parcel' })).toHaveAttribute('href', 'https://auspost.com.au/mypost/track/details/33QRS0000001');
  });

  test('cancel and refund a paid order: one refund recorded with its reference, the stock put back', async ({ browser, request }) => {
    const id = `refund-fixture-${Date.now()}`;
    await asService(request, 'POST', 'products', { id, title: `Refund Fixture ${id}`, price: 20, category: `Fixtures ${id}`, stock: 5 });
    const email = uniqueEmail('cancelled');
    const [order] = await asService<Array<{ id: string }>>(
      request,
      'POST',
      'orders',
      orderRow(email, {
        subtotal: 40,
        checkout_session_id: `cs_local_${crypto.randomUUID()}`,
        shipping_address: { line1: '9 Refund Rd', city: 'Sydney', postal_code: '2000', country: 'AU' },
      }),
    );
    await asService(request, 'POST', 'order_items', { order_id: order!.id, product_id: id, title: `Refund Fixture ${id}`, quantity: 2, price_at_time: 20 });
    expect(await asService(request, 'POST', 'rpc/fulfil_order', { p_order_id: order!.id })).toBe('fulfilled');
    const stockOf = async () => (await asService<Array<{ stock: number }>>(request, 'GET', `products?select=stock&id=eq.${id}`))[0]!.stock;
    expect(await stockOf()).toBe(3);

    const publisherEmail = uniqueEmail('publisher');
    staffCli('add', publisherEmail);
    const page = await browser.newPage();
    await staffSignsIn(page, publisherEmail);
    const number = await orderNumberOf(request, order!.id);
    await openFoundOrder(page, email, number);
    await page.getByRole('button', { name: 'Cancel and refund', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm cancel and refund' }).click();
    await expect(page.getByText(new RegExp(`Order ${number} cancelled and its copies put back; refund re_local_\\S+ recorded and the customer emailed\\.`)).first()).toBeVisible();
    await expect(page.getByText(/^re_local_/)).toBeVisible();

    expect(await stockOf()).toBe(5);
    const [row] = await asService<Array<{ status: string; refund_id: string }>>(request, 'GET', `orders?select=status,refund_id&id=eq.${order!.id}`);
    expect(row).toMatchObject({ status: 'cancelled', refund_id: expect.stringMatching(/^re_local_/) });
    const events = await asService<Array<{ action: string }>>(request, 'GET', `order_events?select=action&order_id=eq.${order!.id}&action=eq.refunded`);
    expect(events).toHaveLength(1);
    expect((await readOutbox(OUTBOX)).filter((m) => m.to === email).map((m) => m.subject)).toEqual([`Your order ${number} has been cancelled and refunded`]);
    await expect(page.getByRole('button', { name: 'Cancel and refund', exact: true })).toHaveCount(0);
  });

  test('unpaid checkout attempts stay out of the views, and show under All only when asked for', async ({ browser, request }) => {
    const email = uniqueEmail('attempt');
    const [attempt] = await asService<Array<{ id: string }>>(
      request,
      'POST',
      'orders',
      orderRow(email, { shipping_address: { line1: '3 Unpaid Rd', city: 'Sydney', postal_code: '2000', country: 'AU' } }),
    );
    await asService(request, 'POST', 'order_items', { order_id: attempt!.id, product_id: 'book-10-reasons', title: 'Book', quantity: 1, price_at_time: 22 });
    const publisherEmail = uniqueEmail('publisher');
    staffCli('add', publisherEmail);
    const page = await browser.newPage();
    await staffSignsIn(page, publisherEmail);
    const number = await orderNumberOf(request, attempt!.id);
    await page.getByLabel('Search by order number or email').fill(email);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    // All pressed before the search was written: the address holds both, and the list is the one searched.
    await expect.poll(() => listParams(page.url())).toEqual({ view: 'all', q: email });
    await expect(page.getByText('No orders here.')).toBeVisible();
    await page.getByLabel('Unpaid checkout attempts only').check();
    await expect(page.getByRole('link', { name: number, exact: true })).toBeVisible();
    await page.getByLabel('Unpaid checkout attempts only').uncheck();
    await expect(page.getByText('No orders here.')).toBeVisible();
  });

  test('a view chosen while the search is being written keeps both, whichever lands first: the address holds the view and the search, the list is searched', async ({ browser, request }) => {
    const { email, number } = await orderToFind(request, 'search-then-view');
    const publisherEmail = uniqueEmail('publisher');
    await grantStaff(request, publisherEmail);
    const page = await browser.newPage();
    await staffSignsIn(page, publisherEmail);
    const box = page.getByLabel('Search by order number or email');
    const all = page.getByRole('button', { name: 'All', exact: true });
    // The list drawn again late, as on a busy phone: the address's hashchange is held back until let go.
    const holdRedraw = () =>
      page.evaluate(() => {
        const held: Event[] = [];
        const dispatch = window.dispatchEvent.bind(window);
        window.dispatchEvent = (event: Event) => (event.type === 'hashchange' ? held.push(event) > 0 : dispatch(event));
        Object.assign(window, {
          letRedraw: () => {
            window.dispatchEvent = dispatch;
            for (const event of held) dispatch(event);
          },
        });
      });
    const letRedraw = () => page.evaluate(() => (window as unknown as { letRedraw: () => void }).letRedraw());
    // Typed as a person types (the input event), and All pressed, in the page itself: nothing waits between them.
    const type = (text: string) =>
      page.evaluate((typed) => {
        const field = document.querySelector<HTMLInputElement>('#order-search')!;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, typed);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }, text);
    const pressAll = () => page.evaluate(() => [...document.querySelectorAll('button')].find((button) => button.textContent === 'All')!.click());
    const searchedUnderAll = async () => {
      await expect.poll(() => listParams(page.url())).toEqual({ view: 'all', q: email });
      await expect(all).toHaveAttribute('aria-pressed', 'true');
      await expect(box).toHaveValue(email);
      const found = page.locator('a[href^="#order/"]:visible');
      await expect(found).toHaveCount(1);
      await expect(found).toHaveText(number);
    };

    // All pressed while the search waits for the typing to pause; the list not yet drawn for All when it is written.
    await expect(page.getByRole('button', { name: 'To pack', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await holdRedraw();
    await type(email);
    await pressAll();
    await expect(page).toHaveURL(/[?&]q=/);
    await letRedraw();
    await searchedUnderAll();

    // The search written first, and All pressed before the list is drawn for it.
    await page.goto('/admin#orders');
    await expect(box).toHaveValue('');
    await expect(page.getByRole('button', { name: 'To pack', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await holdRedraw();
    await type(email);
    await expect.poll(() => listParams(page.url())).toEqual({ q: email });
    await pressAll();
    await letRedraw();
    await searchedUnderAll();
  });

  test('a signed-in shopper who is not staff is told they have no access', async ({ page }) => {
    await signInFromAdmin(page, uniqueEmail('not-staff'));
    await expect(page.getByRole('alert').filter({ hasText: "You don't have access to the back office." })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Orders' })).toHaveCount(0);
  });
});
