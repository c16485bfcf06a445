/**
 * The books in Xero as the publisher meets them, with the local TEST organisation: /admin → Accounts, Connect to
 * Xero, the stand-in's consent page, Allow access and back; two paid orders (one to the US), a part refund and a paid
 * school invoice; Sync now, and the TEST page listing each once, paid in full or refunded, the US one GST-free;
 * Sync now again and still each once. The section and the TEST page are looked at, with axe, at 375 and 1280 px.
 */
import { type APIRequestContext, expect, test } from '@playwright/test';
import { PAYOUTS_NOT_COUNTED } from '@/features/accounting/rules';
import { asService, lookAtBothWidths, orderNumberOf, staffCli, staffSignsIn, toasts, uniqueEmail } from './support';

const BOOK = '10 Reasons Why Being Catholic is Awesome!';

/** A paid card order of `copies` of the book at $22, as the webhook leaves it. */
async function paidOrder(request: APIRequestContext, country: string, copies: number, shipping: number): Promise<string> {
  const [order] = await asService<Array<{ id: string }>>(request, 'POST', 'orders', {
    customer_email: uniqueEmail('xero-buyer'),
    customer_name: 'Xero Buyer',
    status: 'processing',
    payment_status: 'paid',
    subtotal_amount: 22 * copies,
    shipping_amount: shipping,
    total_amount: 22 * copies + shipping,
    shipping_address: { addressLine1: '1 Ledger Lane', city: 'Parramatta', state: 'NSW', postalCode: '2150', country },
    shipping_method: { name: country === 'AU' ? 'AU Standard Courier' : 'International Standard' },
    paid_at: new Date().toISOString(),
    checkout_session_id: `cs_e2e_xero_${Date.now()}_${Math.random().toString(36).slice(2)}`,
  });
  await asService(request, 'POST', 'order_items', { order_id: order!.id, product_id: 'book-10-reasons', title: BOOK, quantity: copies, price_at_time: 22 });
  return order!.id;
}

/** A school's invoice sent and paid, as Send and the TEST invoice page's Pay invoice leave it. */
async function paidSchoolInvoice(request: APIRequestContext): Promise<string> {
  const actor = 'publisher@example.com';
  const saved = await asService<{ invoice_id: string }>(request, 'POST', 'rpc/invoice_save_draft', {
    p_invoice_id: null,
    p_quote_id: null,
    p_draft: {
      organisation: 'St Xavier Parish',
      contact_name: 'Fr John Smith',
      email: uniqueEmail('xero-parish'),
      phone: '02 9000 0000',
      address: { line1: '12 Mary St', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
      po_number: 'PO-XERO-1',
      lines: [{ product_id: 'book-10-reasons', quantity: 10 }],
      shipping: { kind: 'rate_card', name: 'AU Standard Courier', amount: 15 },
      terms_days: 14,
      ship_before_payment: false,
    },
    p_actor: actor,
  });
  const id = saved.invoice_id;
  await asService(request, 'POST', 'rpc/invoice_send', { p_invoice_id: id, p_provider: 'local-test', p_actor: actor });
  await asService(request, 'POST', 'rpc/invoice_provider_step', { p_invoice_id: id, p_provider_invoice_id: `in_local_${id}`, p_hosted_url: null, p_actor: actor });
  const [invoice] = await asService<Array<{ total: number; number: number }>>(request, 'GET', `invoices?id=eq.${id}&select=total,number`);
  await asService(request, 'POST', 'rpc/invoice_mark_paid', { p_provider_invoice_id: `in_local_${id}`, p_amount_cents: Math.round(invoice!.total * 100), p_currency: 'aud', p_actor: actor });
  return `INV-${String(invoice!.number).padStart(4, '0')}`;
}

test('the publisher connects Xero, and Sync now posts each sale, school invoice and refund once', async ({ browser, request }) => {
  // One journey through sign-in, Xero's consent page, a sync and the TEST books, each looked at twice.
  test.setTimeout(240_000);
  const email = uniqueEmail('books');
  staffCli('add', email);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await staffSignsIn(page, email);
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
  await expect(page.getByTestId('xero-connection')).toHaveText('Not connected to Xero yet.');
  await lookAtBothWidths(page, 'accounts-not-connected');

  await page.getByRole('button', { name: 'Connect to Xero' }).click();
  await expect(page.getByText('TEST XERO — nothing here reaches real books')).toBeVisible();
  await lookAtBothWidths(page, 'xero-test-consent');
  await page.getByRole('link', { name: 'Allow access' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected to TEST Organisation (Xero stand-in).' })).toBeVisible();
  await expect(page.getByTestId('xero-connection')).toContainText(`Connected to TEST Organisation (Xero stand-in) by ${email}`);

  const au = await paidOrder(request, 'AU', 2, 15);
  const us = await paidOrder(request, 'US', 1, 25);
  // A part refund as Refund part leaves it: reserved, then settled with the provider's refund.
  const reserved = await asService<{ refund_id: string }>(request, 'POST', 'rpc/begin_part_refund', { p_order_id: au, p_amount: 11, p_reason: 'One copy arrived damaged', p_actor: email });
  await asService(request, 'POST', 'rpc/settle_part_refund', { p_refund_id: reserved.refund_id, p_provider_refund_id: 're_e2e_xero', p_failure: null });
  const schoolInvoice = await paidSchoolInvoice(request);
  const auNumber = await orderNumberOf(request, au);
  const usNumber = await orderNumberOf(request, us);

  await page.reload();
  await expect(page.getByTestId('xero-waiting')).toContainText('waiting to be posted');
  // What the count cannot know yet is said: Stripe is asked for its payouts when the sync runs.
  await expect(page.getByText(PAYOUTS_NOT_COUNTED)).toBeVisible();
  await lookAtBothWidths(page, 'accounts-waiting');
  await page.getByRole('button', { name: 'Sync now' }).click();
  // The local server's own schedule may have posted them a moment before (then there is nothing new), or be posting
  // them now (then Sync now waits for it, and the section shows that run when it ends).
  await expect(toasts(page).getByText(/^(Posted \d+ documents? to TEST Organisation \(Xero stand-in\)\.|Nothing new to post to Xero\.|A sync is already running)/)).toBeVisible();
  await expect(page.getByTestId('xero-last-sync')).toContainText(/^Last sync .* \((Sync now|on schedule)\): \d+ posted/);
  await lookAtBothWidths(page, 'accounts-synced');

  const books = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const onceEach = async () => {
    await books.goto('/api/test-xero');
    await expect(books.locator(`tr[data-number="WEB-${auNumber}"]`)).toHaveCount(1);
    await expect(books.locator(`tr[data-number="WEB-${usNumber}"]`)).toHaveCount(1);
    await expect(books.locator(`tr[data-number="${schoolInvoice}"]`)).toHaveCount(1);
    await expect(books.locator('tr').filter({ hasText: `Refund of order ${auNumber}: One copy arrived damaged` })).toHaveCount(1);
  };
  await onceEach();
  // Paid in full into the Stripe account; the US order GST-free; the school's with its PO number.
  await expect(books.locator(`tr[data-number="WEB-${auNumber}"]`)).toContainText('$59.00');
  await expect(books.locator(`tr[data-number="WEB-${usNumber}"]`)).toContainText('EXEMPTEXPORT');
  await expect(books.locator(`tr[data-number="${schoolInvoice}"]`)).toContainText('PO PO-XERO-1');
  await lookAtBothWidths(books, 'xero-test-books');

  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(
    toasts(page)
      .getByText(/^(Nothing new to post to Xero\.|Posted \d+ documents? to|A sync is already running)/)
      .last(),
  ).toBeVisible();
  await onceEach();
});
