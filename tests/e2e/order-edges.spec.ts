/**
 * The edges of an order a shopper meets after paying, at a phone's width and a desktop's: the wishlist kept and
 * emptied from the profile, sign-in prompts that return to their page, guest orders joining the account,
 * unpaid attempts kept out of the history, and a status page whose words follow the order.
 */
import { expect, type APIRequestContext, test } from '@playwright/test';
import { orderNumber } from '../../src/lib/format';
import { orderRow } from '../helpers/order-row';
import { asService, continueWithGoogle, uniqueEmail } from './support';

const WIDTHS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

interface OrderFixture {
  email: string;
  userId?: string | null;
  status?: string;
  paymentStatus?: string;
  refunded?: boolean;
}

async function placeOrder(request: APIRequestContext, { email, userId = null, status = 'processing', paymentStatus = 'paid', refunded = false }: OrderFixture) {
  const [order] = await asService<Array<{ id: string; number: number; status_token: string }>>(
    request,
    'POST',
    'orders',
    orderRow(email, {
      user_id: userId,
      status,
      payment_status: paymentStatus,
      shipping_address: { addressLine1: '1 Test St', city: 'Sydney', postalCode: '2000', country: 'AU' },
      ...(refunded && { refund_id: 're_test', refunded_at: new Date().toISOString() }),
    }),
  );
  await asService(request, 'POST', 'order_items', { order_id: order!.id, product_id: 'book-10-reasons', title: 'The Book', quantity: 1, price_at_time: 22 });
  return { id: order!.id, number: orderNumber(order!.number), token: order!.status_token };
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('the wishlist: signing in from its prompt returns to the book; the profile lists it and removes it', async ({ page }, testInfo) => {
      await page.goto('/book');
      await page.getByRole('button', { name: 'Add to Wishlist' }).click();
      await expect(page.getByText('Please sign in to add items to your wishlist').first()).toBeVisible();
      await page.getByRole('link', { name: 'Sign In' }).last().click();
      await expect(page).toHaveURL(/\/auth\?return_to=%2Fbook$/);
      await continueWithGoogle(page, uniqueEmail(`wish-${size.name}`));
      await expect(page).toHaveURL(/\/book$/);
      // The tap before signing in is completed by the sign-in itself.
      await expect(page.getByText('Added to your wishlist!').first()).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('button', { name: 'Added to Wishlist' })).toBeDisabled();

      await page.goto('/profile');
      const wishlist = page.getByRole('region', { name: 'My Wishlist' });
      const entry = wishlist.getByRole('listitem').filter({ hasText: '10 Reasons' });
      await expect(entry).toBeVisible();
      await expect(entry.getByRole('link')).toHaveAttribute('href', '/store/product/book-10-reasons');
      await page.screenshot({ path: testInfo.outputPath(`profile-wishlist-${size.width}.png`), fullPage: true });
      await entry.getByRole('button', { name: /^Remove/ }).click();
      await expect(page.getByText(/removed from wishlist/).first()).toBeVisible();
      await expect(wishlist.getByText('Your wishlist is empty.', { exact: false })).toBeVisible();
      await page.reload();
      await expect(page.getByRole('region', { name: 'My Wishlist' }).getByText('Your wishlist is empty.', { exact: false })).toBeVisible();
    });

    test('guest orders join the account signed in with that address; unpaid attempts are not in the history', async ({ page, request }, testInfo) => {
      const email = uniqueEmail(`guest-${size.name}`);
      const paid = await placeOrder(request, { email });
      const unpaid = await placeOrder(request, { email, status: 'pending', paymentStatus: 'unpaid' });
      const expired = await placeOrder(request, { email, status: 'cancelled', paymentStatus: 'expired' });
      const someoneElses = await placeOrder(request, { email: uniqueEmail('other') });

      await page.goto('/profile');
      await expect(page).toHaveURL(/\/auth\?return_to=%2Fprofile$/);
      await continueWithGoogle(page, email);
      await expect(page).toHaveURL(/\/profile$/);
      const history = page.getByRole('region', { name: 'Order History' });
      // A table row on a wide screen, a card on a phone.
      await expect(history.getByRole(size.width < 640 ? 'listitem' : 'row').filter({ has: page.getByText(paid.number, { exact: true }) })).toBeVisible();
      for (const hidden of [unpaid, expired, someoneElses]) await expect(history.getByText(hidden.number, { exact: true })).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`profile-history-${size.width}.png`), fullPage: true });
      // Each paid order's tax invoice, from the history.
      await history.getByRole('link', { name: `Tax invoice of order ${paid.number}` }).click();
      await expect(page.getByRole('heading', { name: 'Tax invoice', level: 1 })).toBeVisible();
      await expect(page.getByTestId('invoice-total')).toHaveText('$37.00');
      await expect(page.getByTestId('invoice-gst')).toHaveText('GST included: $3.36');
    });

    test('the status page says where the order stands: awaiting payment, packing, cancelled and refunded', async ({ page, request }, testInfo) => {
      const email = uniqueEmail(`status-${size.name}`);
      const cases = [
        { fixture: { email, status: 'pending', paymentStatus: 'unpaid' }, heading: 'Awaiting payment', text: 'We have not received payment for this order yet.' },
        { fixture: { email }, heading: 'Paid — being packed', text: 'Your tracking number will arrive by email once your order ships.' },
        { fixture: { email, status: 'cancelled', paymentStatus: 'refund_due', refunded: true }, heading: 'Cancelled and refunded', text: 'your payment refunded' },
      ];
      for (const { fixture, heading, text } of cases) {
        const order = await placeOrder(request, fixture);
        await page.goto(`/order-status#${order.token}`);
        await expect(page.getByRole('heading', { name: `Order ${order.number}` })).toBeVisible();
        await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
        await expect(page.getByText(text, { exact: false })).toBeVisible();
        if (heading !== 'Paid — being packed') await expect(page.getByText('tracking number', { exact: false })).toHaveCount(0);
        await page.screenshot({ path: testInfo.outputPath(`status-${heading.split(' ')[0]!.toLowerCase()}-${size.width}.png`) });
      }
    });
  });
}
