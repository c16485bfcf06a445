/**
 * A school's order on account end to end, through the functions on the local server with the shipping stand-in:
 * the school hears that its request arrived; an invoice packed before payment reaches the shipping platform at send,
 * one packed once paid reaches it at payment, each with the school's name on the platform order and its label; the
 * bulk label run prints the To pack list and names each order it did not print, with why; the paperwork says what is
 * true (unpaid, due on …; paid on …) in the slip's order, the status page, the receipt and the shipped email.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { localShipments } from '../../functions/_lib/providers/local-shipping';
import type { InvoiceActionInput, InvoiceDraftInput } from '../../src/features/on-account/contract';
import { orderNumber } from '../../src/lib/format';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';

const STAFF = 'publisher@example.com';
const BOOK = 'book-10-reasons';
const shippingFile = join(mkdtempSync(join(tmpdir(), 'school-papers-')), 'shipping.jsonl');
let t: BackOfficeShop;
let staff: SupabaseClient;

beforeAll(async () => {
  process.env.LOCAL_SHIPPING_FILE = shippingFile;
  t = await startBackOfficeShop('school-papers', { staff: STAFF, shopper: 'shopper@example.com' });
  ({ staff } = t);
  await t.service().from('products').update({ stock: 500 }).eq('id', BOOK);
});
afterAll(async () => {
  await t.close();
  delete process.env.LOCAL_SHIPPING_FILE;
});

const token = async () => (await staff.auth.getSession()).data.session!.access_token;
async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}` }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const act = (body: InvoiceActionInput) => post('/api/admin-invoice', body);
const draft = (organisation: string, poNumber: string, shipBeforePayment: boolean): InvoiceDraftInput => ({
  organisation,
  contactName: 'Jane Office',
  email: 'office@stmarys.example.com',
  address: { line1: '12 Church Street', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
  lines: [{ productId: BOOK, quantity: 30 }],
  shipping: { kind: 'rate_card', rateId: 'au-standard' },
  termsDays: 30,
  poNumber,
  shipBeforePayment,
});
async function sentInvoice(organisation: string, poNumber: string, shipBeforePayment: boolean): Promise<{ id: string; orderId: string; providerId: string }> {
  const made = await act({ action: 'create', draft: draft(organisation, poNumber, shipBeforePayment) });
  const id = made.body.invoiceId as string;
  expect((await act({ action: 'send', invoiceId: id })).status).toBe(200);
  const { data } = await t.service().from('invoices').select('order_id, provider_invoice_id').eq('id', id).single();
  return { id, orderId: data!.order_id as string, providerId: data!.provider_invoice_id as string };
}
/** The order's number as the platform, the emails and the slips write it, from the database. */
const numberOf = async (orderId: string) => orderNumber((await t.service().from('orders').select('number').eq('id', orderId).single()).data!.number as number);
const atPlatform = async (orderId: string) => {
  const number = await numberOf(orderId);
  return (await localShipments(shippingFile)).find((s) => s.order.orderNumber === number);
};
const mails = async () => readOutbox(t.outbox);
const orderDetail = async (orderId: string) => (await staff.rpc('admin_get_order', { p_order_id: orderId })).data as Record<string, unknown>;

describe("a school's order on account, through the functions", () => {
  it('the school is told its quote request arrived, naming its PO number', async () => {
    const asked = await fetch(`${t.url}/api/send-notification`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'quote',
        data: {
          organisation: "St Mary's Catholic Primary School",
          contactName: 'Jane Office',
          email: 'office@stmarys.example.com',
          phone: '02 9999 0000',
          address: { line1: '12 Church Street', city: 'Parramatta', state: 'NSW', postcode: '2150', country: 'AU' },
          lines: [{ productId: BOOK, quantity: 30 }],
          poNumber: 'PO-7781',
        },
      }),
    });
    expect(asked.status).toBe(200);
    const acknowledgement = (await mails()).find((m) => m.to === 'office@stmarys.example.com' && m.subject === 'We have your quote request (PO number PO-7781)');
    expect(acknowledgement?.text).toContain("has received St Mary's Catholic Primary School's quote request for PO number PO-7781");
    expect(acknowledgement?.text).toMatch(/× 30/);
  });

  it('packed before payment: at the platform from the send, with the school on it; the bulk run prints it, its email says unpaid and due', async () => {
    const school = "St Mary's Catholic Primary School";
    const early = await sentInvoice(school, 'PO-7781', true);
    const later = await sentInvoice('St Pius Parish', 'PO-1200', false);

    // Sent to the platform by the send itself, the school's name as the destination's company.
    expect((await atPlatform(early.orderId))?.order.destination).toMatchObject({ company: school, name: 'Jane Office' });
    // Not to pack until paid: nothing at the platform, and not counted.
    expect(await atPlatform(later.orderId)).toBeUndefined();
    const detail = await orderDetail(early.orderId);
    expect(detail.account).toMatchObject({ status: 'sent', po_number: 'PO-7781', paid_on: null });
    expect(detail.account).toMatchObject({ due_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), invoice_number: expect.stringMatching(/^INV-\d{4}$/) });

    // A third order to pack whose send is under way elsewhere: the run names it, with why.
    const busy = await sentInvoice('Holy Family School', 'PO-3', true);
    await t.shop.backend!.db.exec(`update public.shipments set state = 'pending', claimed_at = now(), platform_order_id = null where order_id = '${busy.orderId}'`);

    const toPackBefore = (await staff.rpc('staff_orders_to_pack')).data as number;
    const run = await post('/api/admin-labels', { toPack: true });
    expect(run.status).toBe(200);
    const printed = (run.body.printed as Array<{ orderId: string }>).map((p) => p.orderId);
    expect(printed).toContain(early.orderId);
    expect(printed).not.toContain(later.orderId);
    expect(run.body.failed).toEqual([{ orderId: busy.orderId, number: await numberOf(busy.orderId), message: expect.stringContaining('is being sent to the shipping platform just now') }]);
    expect(run.body.message).toContain(await numberOf(early.orderId));
    expect(run.body.message).toMatch(new RegExp(`1 not printed: Order ${await numberOf(busy.orderId)} is being sent`));
    expect((await staff.rpc('staff_orders_to_pack')).data).toBe(toPackBefore - printed.length);

    // The label names the school above its contact (read from the PDF as text).
    const pdf = join(mkdtempSync(join(tmpdir(), 'labels-')), 'labels.pdf');
    writeFileSync(pdf, Buffer.from(run.body.pdf as string, 'base64'));
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain(school);
    expect(text).toContain('Attn: Jane Office');

    // The shipped email names the PO and invoice numbers, and says the invoice is unpaid and when it is due.
    const earlyNumber = await numberOf(early.orderId);
    const shipped = (await mails()).find((m) => m.subject.startsWith(`Your order ${earlyNumber} (PO number PO-7781, invoice INV-`));
    expect(shipped?.subject).toMatch(/has shipped$/);
    expect(shipped?.text).toMatch(new RegExp(`${school}: invoice INV-\\d{4} is unpaid, due on \\d{1,2} \\w+ \\d{4}\\.`));
    // The platform's test page lists the school too.
    expect(await (await fetch(`${t.url}/api/test-shipping`)).text()).toContain('<strong>St Mary&#39;s Catholic Primary School</strong>, Attn: Jane Office');
  });

  it('packed once paid: paying sends it to the platform as a card order is, and the school gets a receipt naming its PO and invoice', async () => {
    const paidLater = await sentInvoice('St Joseph School', 'PO-55', false);
    expect(await atPlatform(paidLater.orderId)).toBeUndefined();
    const page = `${t.url}/api/test-invoice?invoice=${paidLater.providerId}`;
    const html = await (await fetch(page)).text();
    expect(html).toMatch(/<h1>Tax invoice <span class="nowrap">INV-\d{4}<\/span><\/h1>/);
    expect(html).toMatch(/<dt>Issued<\/dt><dd>\d{1,2} \w+ \d{4}<\/dd>/);
    const paid = await fetch(page, { method: 'POST', body: new URLSearchParams({ invoice: paidLater.providerId, action: 'pay' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect((await atPlatform(paidLater.orderId))?.order.destination).toMatchObject({ company: 'St Joseph School' });

    const receipt = (await mails()).find((m) => m.to === 'office@stmarys.example.com' && /^Payment received: invoice INV-\d{4}, PO number PO-55$/.test(m.subject));
    expect(receipt?.text).toMatch(/we have received St Joseph School's payment of \$[\d.,]+ AUD for invoice INV-\d{4} \(your PO number PO-55\)/);
    expect(receipt?.text).toMatch(/Invoice INV-\d{4} was paid on \d{1,2} \w+ \d{4}\. This email is your receipt\./);
    expect((await orderDetail(paidLater.orderId)).account).toMatchObject({ status: 'paid', paid_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });

    // The status page says it is paid, and on which day.
    const { data: order } = await t.service().from('orders').select('status_token').eq('id', paidLater.orderId).single();
    const status = await fetch(`${t.url}/api/order-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: order!.status_token }) });
    expect(((await status.json()) as { accountInvoice: { total: string } }).accountInvoice.total).toMatch(/^Total \$[\d.,]+ AUD: paid on \d{1,2} \w+ \d{4} \(invoice INV-\d{4}\)$/);
  });
});
