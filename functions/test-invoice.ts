/**
 * LOCAL TEST INVOICE PAGE — the stand-in for Stripe's hosted invoice page when no Stripe key is set: the tax invoice
 * as the school sees it (organisation, PO number, issue and due dates, lines, GST, total, the seller's ABN) with Pay invoice,
 * which takes the shop's invoice-paid path exactly as Stripe's invoice.paid event does. Answers 404 anywhere but on
 * the local server.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { dayInWords } from '../src/features/on-account/paperwork';
import { invoiceNumber } from '../src/features/on-account/rules';
import { formatAbn } from '../src/lib/abn';
import { formatLongDate, formatPrice } from '../src/lib/format';
import { toCents } from '../src/lib/money';
import { fulfilmentServices } from './_lib/fulfilment';
import { handle, problem, readBodyText, type FunctionConfig } from './_lib/http';
import { escapeHtml } from '../src/lib/html';
import { standInId, testPage } from './_lib/test-page';
import { invoicePaid } from './_lib/invoices';
import { LOCAL_INVOICE_PREFIX, testInvoiceUrl } from './_lib/providers/local-invoicing';
import { selectInvoiceProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

const params = z.object({
  invoice: standInId(LOCAL_INVOICE_PREFIX),
  action: z.literal('pay').optional(),
});

const money = z.coerce.number();
const invoiceRow = z.object({
  id: z.uuid(),
  number: z.number(),
  status: z.string(),
  organisation: z.string(),
  contact_name: z.string(),
  po_number: z.string().nullable(),
  address: z.record(z.string(), z.unknown()),
  shipping_name: z.string(),
  shipping_amount: money,
  total: money,
  gst: money,
  due_on: z.string().nullable(),
  sent_at: z.string().nullable(),
  paid_at: z.string().nullable(),
});
const lineRows = z.array(z.object({ title: z.string(), quantity: z.number(), unit_price: money, position: z.number() }));

const CSS =
  'body{font-family:system-ui,sans-serif;background:#fff8ee;color:#1e293b;margin:0;display:grid;place-items:center;min-height:100vh}main{background:#fff;border-radius:16px;padding:32px;max-width:600px;width:calc(100% - 32px);box-sizing:border-box;box-shadow:0 4px 24px #0001;margin:16px 0}h1{color:#1e3a5f;margin-top:0}.test{background:#b91c1c;color:#fff;font-weight:800;letter-spacing:.05em;text-align:center;border-radius:8px;padding:10px;margin-bottom:20px}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0 0 16px}dt{font-weight:700}dd{margin:0}table{width:100%;border-collapse:collapse;margin:16px 0}td,th{padding:8px 4px;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}td:last-child,th:last-child{text-align:right;white-space:nowrap}tfoot td{font-weight:700}.seller{color:#475569;font-size:14px}button{width:100%;padding:12px;border-radius:999px;font-weight:700;font-size:16px;cursor:pointer;border:2px solid #1e3a5f;background:#1e3a5f;color:#fff;margin-top:12px}button:disabled{opacity:.5;cursor:default}:focus-visible{outline:3px solid #8a5d00;outline-offset:2px}.nowrap{white-space:nowrap}@media print{body{display:block;background:#fff;min-height:0}main{box-shadow:none;margin:0 auto}.test{background:none;color:#b91c1c;border:2px solid #b91c1c}form{display:none}}';

const page = (title: string, body: string, status = 200) => testPage(title, CSS, body, status);

const STATUS_WORDS: Record<string, string> = { paid: 'This invoice is paid. Thank you.', void: 'This invoice was voided: nothing is due.', uncollectible: 'This invoice is closed.' };

export default handle(async (request) => {
  const env = readServerEnv();
  const url = new URL(request.url);
  let invoicing: ReturnType<typeof selectInvoiceProvider>;
  try {
    invoicing = selectInvoiceProvider(env, url.origin);
  } catch {
    return problem(404, 'Test invoices are not available on this site.');
  }
  if (invoicing.name !== 'local-test') return problem(404, 'Test invoices are not available on this site.');
  const source = Object.fromEntries(request.method === 'POST' ? new URLSearchParams(await readBodyText(request)) : url.searchParams);
  const parsed = params.safeParse(source);
  if (!parsed.success) return problem(400, 'This test invoice link is incomplete or damaged.');
  const providerId = parsed.data.invoice;

  const db = serviceClient(env);
  // The columns read are the row's fields, so the two never drift apart.
  const { data, error } = await db.from('invoices').select(Object.keys(invoiceRow.shape).join(', ')).eq('provider_invoice_id', providerId).maybeSingle();
  if (error) throw error;
  if (!data) return problem(404, 'No test invoice with that id.');
  const invoice = invoiceRow.parse(data);

  if (request.method === 'POST') {
    if (parsed.data.action === 'pay' && invoice.status === 'sent') {
      // Exactly what Stripe's invoice.paid does: the same path, with the invoice as the provider would describe it.
      await invoicePaid(
        db,
        fulfilmentServices(env, request),
        { id: providerId, status: 'paid', totalCents: toCents(invoice.total), currency: 'aud', hostedUrl: testInvoiceUrl(url.origin, providerId), shopInvoiceId: invoice.id },
        'TEST invoice page',
      );
    }
    return Response.redirect(testInvoiceUrl(url.origin, providerId), 303);
  }

  const seller = fulfilmentServices(env, request).seller;
  const address = invoice.address as Record<string, string | undefined>;
  const lineAnswer = await db.from('invoice_lines').select('title, quantity, unit_price, position').eq('invoice_id', invoice.id).order('position');
  if (lineAnswer.error) throw lineAnswer.error;
  const lines = lineRows
    .parse(lineAnswer.data)
    .map((l) => `<tr><td>${escapeHtml(l.title)} × ${l.quantity} at ${formatPrice(l.unit_price)} each</td><td>${formatPrice((toCents(l.unit_price) * l.quantity) / 100)}</td></tr>`)
    .join('');
  const number = invoiceNumber(invoice.number);
  const open = invoice.status === 'sent';
  return page(
    `TEST invoice ${number}`,
    `<p class="test">TEST INVOICE — no real money moves</p>
<h1>Tax invoice <span class="nowrap">${escapeHtml(number)}</span></h1>
<p class="seller">${seller ? `${escapeHtml(seller.legalName)} · ABN ${escapeHtml(formatAbn(seller.abn))}` : 'The seller is not set up (SHOP_LEGAL_NAME, SHOP_ABN).'}</p>
<dl><dt>Bill to</dt><dd>${escapeHtml(invoice.organisation)}<br>${escapeHtml(invoice.contact_name)}<br>${escapeHtml([address.line1, address.line2].filter(Boolean).join(', '))}<br>${escapeHtml([address.city, address.state, address.postcode, address.country].filter(Boolean).join(' '))}</dd>
<dt>PO number</dt><dd>${escapeHtml(invoice.po_number ?? '—')}</dd>
<dt>Issued</dt><dd>${invoice.sent_at ? escapeHtml(formatLongDate(invoice.sent_at)) : '—'}</dd>
<dt>Due</dt><dd>${invoice.due_on ? escapeHtml(dayInWords(invoice.due_on)) : '—'}</dd>${invoice.paid_at ? `\n<dt>Paid</dt><dd>${escapeHtml(formatLongDate(invoice.paid_at))}</dd>` : ''}</dl>
<table><thead><tr><th scope="col">Item</th><th scope="col">Amount</th></tr></thead><tbody>${lines}
<tr><td>Shipping: ${escapeHtml(invoice.shipping_name)}</td><td>${formatPrice(invoice.shipping_amount)}</td></tr></tbody>
<tfoot><tr><td>Total (AUD)</td><td>${formatPrice(invoice.total)}</td></tr><tr><td>${invoice.gst > 0 ? 'GST included' : 'GST (an export, GST-free)'}</td><td>${formatPrice(invoice.gst)}</td></tr></tfoot></table>
${open ? '' : `<p role="status">${escapeHtml(STATUS_WORDS[invoice.status] ?? `This invoice is ${invoice.status}.`)}</p>`}
<form method="post"><input type="hidden" name="invoice" value="${escapeHtml(providerId)}"><button type="submit" name="action" value="pay"${open ? '' : ' disabled'}>Pay invoice ${formatPrice(invoice.total)}</button></form>`,
  );
});

export const config: FunctionConfig = { path: '/api/test-invoice', method: ['GET', 'POST'] };
