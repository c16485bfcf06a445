/**
 * Buying on account through the functions, on the local server with its stand-ins: a school's quote request
 * (/api/send-notification), the publisher's draft from it and the invoice sent (/api/admin-invoice), the email to the
 * school in the outbox with the TEST invoice page's link, the page itself and its Pay invoice (the shop's
 * invoice-paid path), a credit note, two invoices racing for the last copies, voiding, and the page refused in a deploy.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { selectInvoiceProvider } from '../../functions/_lib/providers/select';
import { SHIPPING } from '../../src/config/constants';
import { readServerEnv } from '../../src/config/env';
import {
  type InvoiceActionInput,
  type InvoiceDetail,
  type InvoiceDraftInput,
  invoiceActionAnswerSchema,
  invoiceDetailSchema,
  invoiceRowSchema,
  pageSchema,
  quoteRowSchema,
} from '../../src/features/on-account/contract';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';

const STAFF = 'publisher@example.com';
const BOOK = 'book-10-reasons';
let t: BackOfficeShop;
let staff: SupabaseClient;
let shopper: SupabaseClient;

beforeAll(async () => {
  t = await startBackOfficeShop('invoices', { staff: STAFF, shopper: 'shopper@example.com' });
  ({ staff, shopper } = t);
});
afterAll(() => t.close());
afterEach(() => {
  for (const name of ['SITE_ID']) delete process.env[name];
});

const token = async (client: SupabaseClient) => (await client.auth.getSession()).data.session!.access_token;
async function act(client: SupabaseClient | null, body: InvoiceActionInput | Record<string, unknown>): Promise<{ status: number; body: { message?: string; error?: string; invoiceId?: string } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (client) headers.authorization = `Bearer ${await token(client)}`;
  const response = await fetch(`${t.url}/api/admin-invoice`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}
const setStock = async (stock: number) => {
  const { error } = await t.service().from('products').update({ stock }).eq('id', BOOK);
  if (error) throw error;
};
const stock = async () => (await t.service().from('products').select('stock').eq('id', BOOK).single()).data!.stock as number;
const detail = async (id: string) => (await staff.rpc('admin_get_invoice', { p_invoice_id: id })).data as InvoiceDetail;
const address = { line1: '1 School Rd', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' } as const;
const draft = (over: Partial<InvoiceDraftInput> = {}): InvoiceDraftInput => ({
  organisation: 'St Pius Parish',
  contactName: 'Fr Tom',
  email: 'parish@example.com',
  address,
  lines: [{ productId: BOOK, quantity: 4 }],
  shipping: { kind: 'rate_card', rateId: 'au-standard' },
  termsDays: 14,
  ...over,
});

describe('invoices through /api/admin-invoice, on the local server', () => {
  it('quote request → draft → sent → paid on the TEST invoice page → credited', async () => {
    await setStock(200);
    const quote = {
      type: 'quote',
      data: {
        organisation: "St Mary's Primary",
        contactName: 'Ann Office',
        email: 'office@stmarys.example.com',
        phone: '02 9999 0000',
        address,
        lines: [{ productId: BOOK, quantity: 30 }],
        // Two months ahead, whenever the test runs: a day already past is refused.
        neededBy: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
        poNumber: 'PO-7781',
      },
    };
    const asked = await fetch(`${t.url}/api/send-notification`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(quote) });
    expect(asked.status).toBe(200);
    const unknown = await fetch(`${t.url}/api/send-notification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...quote, data: { ...quote.data, lines: [{ productId: 'no-such-book', quantity: 1 }] } }),
    });
    expect(unknown.status).toBe(404);
    const notice = (await readOutbox(t.outbox)).find((m) => m.subject === "Quote request: St Mary's Primary");
    expect(notice).toMatchObject({ replyTo: 'office@stmarys.example.com' });
    expect(notice?.text).toContain('PO number: PO-7781');

    const quotes = (await staff.rpc('admin_list_quotes', { p_view: 'new' })).data as { rows: Array<{ id: string; organisation: string }> };
    const quoteId = quotes.rows.find((r) => r.organisation === "St Mary's Primary")!.id;

    // Staff only, and every body checked with a sentence to act on.
    expect((await act(null, { action: 'create_from_quote', quoteId })).status).toBe(401);
    expect((await act(shopper, { action: 'create_from_quote', quoteId })).status).toBe(403);
    expect(await act(staff, { action: 'create', draft: { ...draft(), termsDays: 7 } })).toMatchObject({ status: 400, body: { error: 'draft.termsDays: Payment terms are 14 or 30 days.' } });
    expect(await act(staff, { action: 'create', draft: draft({ lines: [{ productId: BOOK, quantity: 4, unitPriceCents: 100 }] }) })).toMatchObject({
      status: 400,
      body: { error: 'draft.lines.0.priceReason: Give a reason for the changed price.' },
    });
    expect((await act(staff, { action: 'create', draft: draft({ poNumber: 'P'.repeat(61) }) })).body.error).toMatch(/PO number can be at most 60/);

    const made = await act(staff, { action: 'create_from_quote', quoteId });
    expect(made.status).toBe(200);
    const id = made.body.invoiceId!;
    expect(await act(staff, { action: 'create_from_quote', quoteId })).toMatchObject({ status: 409 });
    const fromQuote = await detail(id);
    expect(fromQuote).toMatchObject({ status: 'draft', organisation: "St Mary's Primary", po_number: 'PO-7781', terms_days: 30, quote_id: quoteId });
    expect(fromQuote.lines).toMatchObject([{ product_id: BOOK, quantity: 30 }]);
    expect(fromQuote.total).toBe(fromQuote.subtotal + fromQuote.shipping_amount);

    const updated = await act(staff, {
      action: 'update',
      invoiceId: id,
      draft: draft({
        organisation: "St Mary's Primary",
        email: 'office@stmarys.example.com',
        poNumber: 'PO-7781',
        lines: [{ productId: BOOK, quantity: 30, unitPriceCents: 1500, priceReason: 'School price agreed by phone' }],
        shipping: { kind: 'typed', name: 'Courier, two boxes', amountCents: 2500, reason: 'Two boxes to the school' },
        termsDays: 30,
      }),
    });
    expect(updated.status).toBe(200);
    expect(await detail(id)).toMatchObject({ total: 475, gst: 43.18, shipping_kind: 'typed', lines: [{ unit_price: 15, price_reason: 'School price agreed by phone' }] });

    const sent = await act(staff, { action: 'send', invoiceId: id });
    expect(sent).toMatchObject({ status: 200, body: { message: expect.stringMatching(/^Invoice INV-\d{4} sent to office@stmarys\.example\.com: \$475\.00 due by .+\. Its copies are held\.$/) } });
    expect(await stock()).toBe(170);
    expect(await act(staff, { action: 'update', invoiceId: id, draft: draft() })).toMatchObject({ status: 409, body: { error: 'Only a draft can be changed: this invoice is sent.' } });

    const email = (await readOutbox(t.outbox)).find((m) => m.to === 'office@stmarys.example.com' && m.subject.startsWith('Invoice INV-'));
    const link = email?.text.match(/https?:\/\/\S+\/api\/test-invoice\?invoice=\S+/)?.[0];
    expect(link).toBeDefined();
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of ['TEST INVOICE', 'St Mary&#39;s Primary', 'PO-7781', 'ABN', 'GST included', '$43.18', '$475.00', 'Pay invoice']) expect(html).toContain(text);

    const paid = await fetch(link!, { method: 'POST', body: new URLSearchParams({ invoice: new URL(link!).searchParams.get('invoice')!, action: 'pay' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    const afterPay = await detail(id);
    expect(afterPay).toMatchObject({ status: 'paid', order_status: 'processing' });
    expect(await stock()).toBe(170);
    const paidNotice = (await readOutbox(t.outbox)).find((m) => m.subject.startsWith('Invoice INV-') && m.subject.includes("paid: St Mary's Primary"));
    expect(paidNotice?.text).toContain('paid invoice INV-');
    expect(paidNotice?.text).toContain('(PO number: PO-7781)');
    const toPack = (await staff.rpc('admin_list_orders', { p_view: 'to_pack', p_search: '' })).data as { orders: Array<{ id: string; organisation: string | null; po_number: string | null }> };
    expect(toPack.orders.find((o) => o.id === afterPay.order_id)).toMatchObject({ organisation: "St Mary's Primary", po_number: 'PO-7781' });
    expect((await fetch(link!)).status).toBe(200);

    expect(await act(staff, { action: 'void', invoiceId: id })).toMatchObject({ status: 409, body: { error: expect.stringContaining('credit note instead') } });
    expect((await act(staff, { action: 'remind', invoiceId: id })).status).toBe(409);
    expect(await act(staff, { action: 'credit', invoiceId: id, amountCents: 47501, reason: 'Too much' })).toMatchObject({ status: 409 });
    expect(await act(staff, { action: 'credit', invoiceId: id, amountCents: 3000, reason: 'Two damaged copies' })).toMatchObject({
      status: 200,
      body: { message: expect.stringContaining('$445.00 remains paid') },
    });
    expect(await detail(id)).toMatchObject({ credited: 30, credit_notes: [{ amount: 30, status: 'succeeded' }] });

    // The answers are the contract's, for the back office's screens.
    expect(() => invoiceDetailSchema.parse(afterPay)).not.toThrow();
    expect(() => invoiceActionAnswerSchema.parse(sent.body)).not.toThrow();
    expect(pageSchema(invoiceRowSchema).parse((await staff.rpc('admin_list_invoices', { p_view: 'all' })).data).rows.length).toBeGreaterThan(0);
    expect(pageSchema(quoteRowSchema).parse((await staff.rpc('admin_list_quotes', { p_view: 'all' })).data).rows[0]).toMatchObject({ status: 'invoiced', invoice_id: id });
  });

  it('two invoices racing for the last copies: one is sent, the other refused with “Only 1 copy of … left”; voiding gives them back', async () => {
    await setStock(5);
    const a = (await act(staff, { action: 'create', draft: draft() })).body.invoiceId!;
    const b = (await act(staff, { action: 'create', draft: draft() })).body.invoiceId!;
    const answers = await Promise.all([act(staff, { action: 'send', invoiceId: a }), act(staff, { action: 'send', invoiceId: b })]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(answers.find((x) => x.status === 409)?.body.error).toMatch(/^Only 1 copy of .+ left: lower the quantity or receive stock, then send it again\.$/);
    expect(await stock()).toBe(1);
    const sentOne = answers[0]!.status === 200 ? a : b;
    expect(await act(staff, { action: 'remind', invoiceId: sentOne })).toMatchObject({ status: 200, body: { message: expect.stringContaining('emailed again') } });
    expect(await act(staff, { action: 'ship_before_payment', invoiceId: sentOne, value: true })).toMatchObject({ status: 200 });
    expect(await act(staff, { action: 'void', invoiceId: sentOne })).toMatchObject({ status: 200, body: { message: expect.stringContaining('voided') } });
    expect(await stock()).toBe(5);
    expect((await detail(sentOne)).status).toBe('void');
  });

  it('the editor’s running totals are the database’s, as the save stores them: the quantity price, standard shipping free from the threshold, the GST', async () => {
    await setStock(200);
    const priceOf = (lines: Array<{ productId: string; quantity: number; unitPriceCents?: number }>, rateId = 'au-standard') =>
      act(staff, { action: 'price', draft: { address: { country: 'AU' }, lines, shipping: { kind: 'rate_card', rateId } } });
    const many = await priceOf([{ productId: BOOK, quantity: 30 }]);
    expect(many.status).toBe(200);
    const totals = invoiceActionAnswerSchema.parse(many.body).totals!;
    const saved = await act(staff, { action: 'create', draft: draft({ lines: [{ productId: BOOK, quantity: 30 }] }) });
    const stored = await detail(saved.body.invoiceId!);
    expect(totals).toMatchObject({ subtotal: stored.subtotal, total: stored.total, gst: stored.gst, shipping: { amount: 0 } });
    expect(stored.shipping_amount).toBe(0);
    expect(totals.lines).toMatchObject([{ product_id: BOOK, quantity: 30, unit_price: stored.lines[0]!.unit_price, amount: stored.lines[0]!.amount }]);
    // One copy is under the threshold: the standard service is charged; express is never free.
    const one = invoiceActionAnswerSchema.parse((await priceOf([{ productId: BOOK, quantity: 1 }])).body).totals!;
    expect(one.shipping.amount).toBe(SHIPPING.fallback.domestic.price);
    expect(invoiceActionAnswerSchema.parse((await priceOf([{ productId: BOOK, quantity: 30 }], 'au-express')).body).totals!.shipping.amount).toBe(SHIPPING.fallback.express.price);
    expect(invoiceActionAnswerSchema.parse((await priceOf([{ productId: BOOK, quantity: 2, unitPriceCents: 1000 }])).body).totals).toMatchObject({ subtotal: 20 });
    // Staff only; the books are checked with a sentence to act on.
    expect(
      (await act(shopper, { action: 'price', draft: { address: { country: 'AU' }, lines: [{ productId: BOOK, quantity: 1 }], shipping: { kind: 'rate_card', rateId: 'au-standard' } } })).status,
    ).toBe(403);
    expect(await priceOf([])).toMatchObject({ status: 400, body: { error: 'draft.lines: An invoice needs at least one book.' } });
    expect(await priceOf([{ productId: 'no-such-book', quantity: 1 }])).toMatchObject({ status: 404, body: { error: 'The shop has no book no-such-book for sale. Choose another book.' } });
  });

  it('an unknown invoice is a 404; a declined quote cannot be invoiced', async () => {
    expect(await act(staff, { action: 'send', invoiceId: crypto.randomUUID() })).toMatchObject({ status: 404, body: { error: 'We could not find that invoice.' } });
    expect(await act(staff, { action: 'decline_quote', quoteId: crypto.randomUUID() })).toMatchObject({ status: 404 });
  });

  it('a deploy without Stripe’s key sends no invoice; with it, Stripe does', () => {
    expect(() => selectInvoiceProvider(readServerEnv({}), 'https://shop.example.com.au')).toThrow(/STRIPE_SECRET_KEY is not set/);
    expect(selectInvoiceProvider(readServerEnv({ STRIPE_SECRET_KEY: 'sk_test_local' }), 'https://shop.example.com.au').name).toBe('stripe');
  });

  it('the TEST invoice page is refused where Netlify runs the functions', async () => {
    await setStock(50);
    const id = (await act(staff, { action: 'create', draft: draft() })).body.invoiceId!;
    expect((await act(staff, { action: 'send', invoiceId: id })).status).toBe(200);
    const link = `${t.url}/api/test-invoice?invoice=in_local_${id}`;
    expect((await fetch(link)).status).toBe(200);
    process.env.SITE_ID = '3f1c2a9e-0000-4000-8000-000000000000';
    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(link, { method: 'POST', body: new URLSearchParams({ invoice: `in_local_${id}`, action: 'pay' }) })).status).toBe(404);
    delete process.env.SITE_ID;
    expect((await detail(id)).status).toBe('sent');
  });
});
