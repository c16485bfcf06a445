/**
 * Invoices in Stripe mode, end to end on the server side: /api/admin-invoice makes, emails, reminds, voids and credits
 * the invoice at a local server answering as Stripe's Invoicing API, and /api/stripe-webhook's invoice events change
 * the shop's invoice only when they are bound to it (the Stripe invoice id stored at send, its metadata naming the
 * shop's invoice, its total and currency the shop's). An event for an invoice the shop did not make, one with a
 * changed amount, and a replayed one change nothing.
 */
import Stripe from 'stripe';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceDetail, InvoiceDraftInput } from '../../src/features/on-account/contract';
import { startFakeProvider, type FakeProvider } from '../helpers/fake-provider';
import { fakeStripeInvoicing, type FakeStripeInvoicing } from '../helpers/fake-stripe-invoicing';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';

const WEBHOOK_SECRET = 'whsec_test_local_secret';
const BOOK = 'book-10-reasons';
const SETTINGS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE_URL', 'SHOP_LEGAL_NAME', 'SHOP_ABN'];
let stripe: FakeStripeInvoicing;
let api: FakeProvider<URLSearchParams>;
let t: BackOfficeShop;
let staff: SupabaseClient;

beforeAll(async () => {
  stripe = fakeStripeInvoicing();
  api = await startFakeProvider(stripe.handler, { parseBody: (raw, { method, url }) => new URLSearchParams(method === 'GET' ? url.search : raw) });
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: 'sk_test_local',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE_URL: api.url,
    SHOP_LEGAL_NAME: 'Awesome Catholic Kids Pty Ltd',
    SHOP_ABN: '51824753556',
  });
  t = await startBackOfficeShop('invoice-webhook', { staff: 'publisher@example.com', shopper: 'shopper@example.com' });
  ({ staff } = t);
});
afterAll(async () => {
  await t.close();
  await api.close();
  for (const key of SETTINGS) delete process.env[key];
});

const draft: InvoiceDraftInput = {
  organisation: 'St Pius Parish',
  contactName: 'Fr Tom',
  email: 'parish@example.com',
  address: { line1: '2 Church St', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
  poNumber: 'PO-55',
  lines: [{ productId: BOOK, quantity: 10 }],
  shipping: { kind: 'typed', name: 'Courier', amountCents: 1000, reason: 'One box' },
  termsDays: 14,
};

async function act(body: Record<string, unknown>) {
  const response = await fetch(`${t.url}/api/admin-invoice`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${(await staff.auth.getSession()).data.session!.access_token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { message?: string; error?: string; invoiceId?: string } };
}
const stock = async () => (await t.service().from('products').select('stock').eq('id', BOOK).single()).data!.stock as number;
const detail = async (id: string) => (await staff.rpc('admin_get_invoice', { p_invoice_id: id })).data as InvoiceDetail;

/** A draft sent through /api/admin-invoice: the shop's id and Stripe's invoice. */
async function sentInvoice() {
  const id = (await act({ action: 'create', draft })).body.invoiceId!;
  const sent = await act({ action: 'send', invoiceId: id });
  expect(sent.status).toBe(200);
  const stripeId = (await detail(id)).provider_invoice_id!;
  return { id, stripeId, stripeInvoice: stripe.invoices.get(stripeId)! };
}

let events = 0;
async function deliver(type: string, invoice: Record<string, unknown>, eventId = `evt_invoice_${++events}`) {
  const payload = JSON.stringify({ id: eventId, object: 'event', type, data: { object: { object: 'invoice', ...invoice } } });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
  const response = await fetch(`${t.url}/api/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('invoices in Stripe mode', () => {
  it('sends through Stripe with the PO number, the seller’s ABN and the shop’s ids; reminds by sending again', async () => {
    await t.service().from('products').update({ stock: 100 }).eq('id', BOOK);
    const { id, stripeInvoice } = await sentInvoice();
    const shop = await detail(id);
    expect(stripeInvoice).toMatchObject({
      status: 'open',
      collection_method: 'send_invoice',
      days_until_due: 14,
      custom_fields: [{ name: 'PO number', value: 'PO-55' }],
      metadata: { shop_invoice_id: id, order_id: shop.order_id },
      total: Math.round(shop.total * 100),
      sent: 1,
    });
    expect(stripeInvoice.footer).toBe(`Awesome Catholic Kids Pty Ltd · ABN 51 824 753 556. Total includes GST of $${shop.gst.toFixed(2)}.`);
    expect(shop.hosted_url).toBe(stripeInvoice.hosted_invoice_url);
    expect((await act({ action: 'remind', invoiceId: id })).status).toBe(200);
    expect(stripeInvoice.sent).toBe(2);
  });

  it('invoice.paid changes only the invoice it is bound to: not another’s, not a changed amount, not a replay', async () => {
    await t.service().from('products').update({ stock: 100 }).eq('id', BOOK);
    const { id, stripeId, stripeInvoice } = await sentInvoice();
    expect(await stock()).toBe(90);
    const paid = { ...stripeInvoice, status: 'paid' };

    // Another integration's invoice on the same account, whatever shop ids it carries.
    expect((await deliver('invoice.paid', { ...paid, id: 'in_not_ours' })).status).toBe(200);
    // Ours, but for a changed amount, or naming another shop invoice.
    expect((await deliver('invoice.paid', { ...paid, total: paid.total - 100 })).status).toBe(200);
    expect((await deliver('invoice.paid', { ...paid, metadata: { ...paid.metadata, shop_invoice_id: crypto.randomUUID() } })).status).toBe(200);
    expect((await deliver('invoice.paid', { ...paid, currency: 'usd' })).status).toBe(200);
    expect((await deliver('invoice.payment_failed', { ...stripeInvoice })).status).toBe(200);
    expect((await detail(id)).status).toBe('sent');

    expect(await deliver('invoice.paid', paid, 'evt_paid_once')).toEqual({ status: 200, body: { received: true } });
    const afterPay = await detail(id);
    expect(afterPay).toMatchObject({ status: 'paid', order_status: 'processing' });
    expect(await stock()).toBe(90);
    expect(await deliver('invoice.paid', paid, 'evt_paid_once')).toEqual({ status: 200, body: { received: true, duplicate: true } });
    // A second event for the same payment (Stripe may send one again under a new id) finds it paid.
    expect((await deliver('invoice.paid', paid)).status).toBe(200);
    const history = ((await staff.rpc('admin_get_order', { p_order_id: afterPay.order_id })).data as { history: Array<{ action: string }> }).history;
    expect(history.filter((h) => h.action === 'invoice_paid')).toHaveLength(1);

    // A credit note on the paid invoice refunds through Stripe.
    expect((await act({ action: 'credit', invoiceId: id, amountCents: 2000, reason: 'One damaged copy' })).status).toBe(200);
    expect(stripe.creditNotes.find((n) => n.invoice === stripeId)).toMatchObject({ refund_amount: 2000, memo: 'One damaged copy' });
  });

  it('invoice.voided and invoice.marked_uncollectible from Stripe give the copies back; the shop’s own void is not undone by its echo', async () => {
    await t.service().from('products').update({ stock: 100 }).eq('id', BOOK);
    const a = await sentInvoice();
    const b = await sentInvoice();
    expect(await stock()).toBe(80);
    expect((await deliver('invoice.voided', { ...a.stripeInvoice, status: 'void' })).status).toBe(200);
    expect((await detail(a.id)).status).toBe('void');
    expect((await deliver('invoice.marked_uncollectible', { ...b.stripeInvoice, status: 'uncollectible' })).status).toBe(200);
    expect((await detail(b.id)).status).toBe('uncollectible');
    expect(await stock()).toBe(100);

    const c = await sentInvoice();
    expect(await act({ action: 'void', invoiceId: c.id })).toMatchObject({ status: 200 });
    expect(stripe.invoices.get(c.stripeId)?.status).toBe('void');
    expect((await deliver('invoice.voided', { ...c.stripeInvoice, status: 'void' })).status).toBe(200);
    expect(await stock()).toBe(100);

    // Stripe refusing the void (paid meanwhile, say) leaves the shop's invoice as it was.
    const d = await sentInvoice();
    stripe.failNext(/\/void$/, { status: 400, error: { type: 'invalid_request_error', message: 'You cannot void an invoice with status paid.' } });
    expect(await act({ action: 'void', invoiceId: d.id })).toMatchObject({ status: 502, body: { error: expect.stringContaining('may have been paid meanwhile') } });
    expect((await detail(d.id)).status).toBe('sent');
  });

  it('a failed send keeps the copies held and says how to go on; Send again finishes it without a second invoice', async () => {
    await t.service().from('products').update({ stock: 100 }).eq('id', BOOK);
    const id = (await act({ action: 'create', draft })).body.invoiceId!;
    const before = stripe.invoices.size;
    // The first try and the Stripe package's two retries all fail.
    for (let i = 0; i < 3; i++) stripe.failNext(/^POST \/v1\/invoices\/[^/]+\/send$/, { status: 500, error: { type: 'api_error', message: 'An unknown error occurred' } });
    expect(await act({ action: 'send', invoiceId: id })).toMatchObject({ status: 502, body: { error: expect.stringContaining('Press Send again') } });
    expect(await stock()).toBe(90);
    expect(await act({ action: 'send', invoiceId: id })).toMatchObject({ status: 200 });
    expect(stripe.invoices.size).toBe(before + 1);
    expect(await stock()).toBe(90);
    expect((await detail(id)).hosted_url).toContain('invoice.stripe.com');
  });

  it('a bad signature is refused with nothing changed', async () => {
    const payload = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'invoice.paid', data: { object: {} } });
    const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: 'whsec_other' });
    const response = await fetch(`${t.url}/api/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': signature }, body: payload });
    expect(response.status).toBe(400);
  });
});
