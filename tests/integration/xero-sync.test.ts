/**
 * The books in Xero through the functions, on the local server with the TEST organisation: Connect to Xero through
 * the stand-in's consent page, two paid orders (one to the US), a part refund and a paid school invoice, then Sync
 * now: three invoices and one credit note whose totals and GST equal the Sales screen's for the day. Sync now again
 * posts nothing; the scheduled function runs by its POST; a sync whose process is killed half-way is finished by the
 * next with nothing posted twice, and none runs beside it meanwhile; and the page is refused in a deploy.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalXero, localXeroBooks } from '../../functions/_lib/providers/local-xero';
import { xeroSettings } from '../../functions/_lib/xero-books';
import { DIED, syncToXero } from '../../functions/_lib/xero-sync';
import { readServerEnv } from '../../src/config/env';
import { fromCents, toCents } from '../../src/lib/money';
import { shopDay } from '../../src/lib/format';
import { schoolInvoiceDraft } from '../helpers/invoice-draft';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';
import { useXeroTestFile } from '../helpers/xero-test-env';

const STAFF = 'books@example.com';
const ACTOR = STAFF;
let t: BackOfficeShop;
let staff: SupabaseClient;
let file: string;
let restoreEnv: () => void;

beforeAll(async () => {
  ({ file, restore: restoreEnv } = useXeroTestFile('xero'));
  t = await startBackOfficeShop('xero', { staff: STAFF, shopper: 'buyer@example.com' });
  ({ staff } = t);
  // A shop starting on a busy shared machine.
}, 180_000);
afterAll(async () => {
  await t?.close();
  restoreEnv?.();
});

const sql = (text: string) => t.shop.backend!.db.exec(text);
const token = async () => (await staff.auth.getSession()).data.session!.access_token;
async function act(body: Record<string, unknown>) {
  const response = await fetch(`${t.url}/api/admin-xero`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}` }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { message?: string; error?: string; url?: string; posted?: number; calls?: number } };
}
const sum = (values: number[]) => fromCents(values.reduce((a, v) => a + toCents(v), 0));

/** Paid card orders, today: `country` and what was bought. */
async function paidOrders(orders: Array<{ country: string; quantity: number; shipping: number }>): Promise<string[]> {
  const ids = orders.map(() => crypto.randomUUID());
  const values = orders.map((o, i) => {
    const goods = 22 * o.quantity;
    return `('${ids[i]}', 'buyer${i}@example.com', 'Buyer ${i}', 'processing', 'paid', ${goods}, ${o.shipping}, ${goods + o.shipping}, '{"country": "${o.country}"}', '{"name": "Courier"}', now())`;
  });
  await sql(`insert into public.orders (id, customer_email, customer_name, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at) values ${values.join(', ')};
    insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ${orders.map((o, i) => `('${ids[i]}', 'book-10-reasons', 'Ten Reasons', ${o.quantity}, 22)`).join(', ')};`);
  return ids;
}

describe('the books in Xero, on the local server', () => {
  it('connects through the TEST consent page; the refresh token is kept sealed', async () => {
    const connect = await act({ action: 'connect' });
    expect(connect.status).toBe(200);
    const consent = await fetch(connect.body.url!);
    const html = await consent.text();
    expect(html).toContain('TEST XERO');
    const allow = html.match(/href="([^"]+)">Allow access/)?.[1]?.replaceAll('&amp;', '&');
    expect(allow).toContain('/api/xero-callback?code=');
    const back = await fetch(allow!, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(decodeURIComponent(back.headers.get('location') ?? '')).toContain('/admin#accounts?connected=TEST+Organisation');
    // A second use of the same answer finds no Connect press waiting.
    const replayed = await fetch(allow!, { redirect: 'manual' });
    expect(new URL(replayed.headers.get('location')!).hash).toContain('problem=');
    const { rows } = await t.shop.backend!.db.query<{ refresh_token_sealed: string }>(`select refresh_token_sealed from public.xero_connection`);
    expect(rows[0]!.refresh_token_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(rows[0]!.refresh_token_sealed).not.toContain('local-refresh-');
  });

  it('two paid orders (one to the US), a part refund and a paid school invoice: three invoices and one credit note equal to Sales for the day', async () => {
    const [au] = await paidOrders([
      { country: 'AU', quantity: 2, shipping: 15 },
      { country: 'US', quantity: 1, shipping: 25 },
    ]);
    await sql(
      `insert into public.order_refunds (order_id, amount, reason, status, provider_refund_id, actor, settled_at) values ('${au}', 11, 'One copy arrived damaged', 'succeeded', 're_1', '${ACTOR}', now())`,
    );
    const service = t.service();
    const draft = schoolInvoiceDraft({ shipping: { kind: 'rate_card', name: 'AU Standard Courier', amount: 15, reason: null }, lines: [{ product_id: 'book-10-reasons', quantity: 10 }] });
    const drafted = await service.rpc('invoice_save_draft', { p_invoice_id: null, p_quote_id: null, p_draft: draft, p_actor: ACTOR });
    const invoiceId = (drafted.data as { invoice_id: string }).invoice_id;
    expect((await service.rpc('invoice_send', { p_invoice_id: invoiceId, p_provider: 'local-test', p_actor: ACTOR })).error).toBeNull();
    await service.rpc('invoice_provider_step', { p_invoice_id: invoiceId, p_provider_invoice_id: `in_local_${invoiceId}`, p_hosted_url: null, p_actor: ACTOR });
    const { data: invoice } = await service.from('invoices').select('total').eq('id', invoiceId).single();
    const paid = await service.rpc('invoice_mark_paid', {
      p_provider_invoice_id: `in_local_${invoiceId}`,
      p_amount_cents: Math.round(Number(invoice!.total) * 100),
      p_currency: 'aud',
      p_actor: ACTOR,
    });
    expect(paid.data).toBe('paid');

    // What the back office says waits is what Sync now posts: the refund behind its sale, the payment behind its invoice.
    expect((await staff.rpc('admin_xero_status')).data).toMatchObject({ waiting: 5, refused: 0 });
    const synced = await act({ action: 'sync' });
    expect(synced.status).toBe(200);
    expect(synced.body.message).toBe('Posted 5 documents to TEST Organisation (Xero stand-in).');

    const { documents } = await localXeroBooks(file);
    const invoices = documents.filter((d) => d.Type === 'ACCREC');
    const credits = documents.filter((d) => d.Type === 'ACCRECCREDIT');
    expect(invoices).toHaveLength(3);
    expect(credits).toHaveLength(1);
    // Every invoice is paid in full into the Stripe account; the credit note refunded from it.
    expect(documents.every((d) => d.paid === d.Total)).toBe(true);
    const school = invoices.find((d) => d.Number.startsWith('INV-'))!;
    expect(school).toMatchObject({ Contact: "St Mary's Primary", Reference: expect.stringContaining('PO PO-7781') });
    const us = invoices.find((d) => d.LineItems.some((l) => l.TaxType === 'EXEMPTEXPORT'))!;
    expect(us.TotalTax).toBe(0);
    // The credit note names the invoice it credits (paid already, so Xero allocates nothing to it) and is refunded in full.
    const auNumber = await t.orderNumber(au!);
    expect(credits[0]).toMatchObject({ Reference: `WEB-${auNumber} · order ${auNumber}`, Total: 11, TotalTax: 1, paid: 11 });
    expect(invoices.some((d) => d.Number === `WEB-${auNumber}`)).toBe(true);

    const day = shopDay();
    const { data: sales } = await staff.rpc('admin_sales', { p_from: day, p_to: day, p_by: 'day' });
    const totals = (sales as { totals: { net: number; gst: number; orders: number } }).totals;
    expect(totals.orders).toBe(3);
    expect(sum([...invoices.map((d) => d.Total), ...credits.map((d) => -d.Total)])).toBe(Number(totals.net));
    expect(sum([...invoices.map((d) => d.TotalTax), ...credits.map((d) => -d.TotalTax)])).toBe(Number(totals.gst));
    // Until a payout, the Stripe account holds what was paid in less what was refunded out of it.
    expect((await localXeroBooks(file)).balances.STRIPE).toBe(Number(totals.net));
  });

  it('Sync now again posts nothing; the scheduled function, run by its POST, posts nothing either', async () => {
    const before = (await localXeroBooks(file)).calls;
    const again = await act({ action: 'sync' });
    expect(again.body.message).toBe('Nothing new to post to Xero.');
    const scheduled = await fetch(`${t.url}/.netlify/functions/xero-sync`, { method: 'POST', body: '{}' });
    expect(await scheduled.json()).toMatchObject({ status: 'done', posted: 0 });
    expect((await localXeroBooks(file)).calls).toBe(before);
    const { data } = await staff.rpc('admin_xero_status');
    expect(data).toMatchObject({ waiting: 0, posted: 5, failures: [], last_sync: { trigger: 'schedule', posted: 0 } });
  });

  it('a sync whose process is killed half-way (its invoices made, their payments not) is finished by the next run with nothing posted twice', async () => {
    const ids = await paidOrders([
      { country: 'AU', quantity: 1, shipping: 15 },
      { country: 'AU', quantity: 3, shipping: 15 },
      { country: 'NZ', quantity: 1, shipping: 25 },
    ]);
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/xero-sync-child.ts', t.url], { stdio: ['ignore', 'pipe', 'inherit'] });
    const closed = once(child, 'close');
    let said = '';
    for await (const chunk of child.stdout) {
      said += String(chunk);
      if (said.includes('invoices')) break;
    }
    expect(said).toContain('invoices');
    child.kill('SIGKILL');
    await closed;
    const half = await localXeroBooks(file);
    expect(half.documents.filter((d) => d.paid === 0)).toHaveLength(2);

    const env = readServerEnv();
    const xero = createLocalXero({ file });
    // While the dead run's lease holds (five minutes), Sync now waits for it rather than post beside it.
    expect(await act({ action: 'sync' })).toEqual({ status: 200, body: { message: 'A sync is already running: what it posts shows here when it ends.', posted: 0, failed: 0, calls: 1 } });
    // The lease lapses.
    await sql(`update public.xero_postings set claimed_until = now() - interval '1 second' where status = 'claimed';
      update public.xero_syncs set started_at = now() - interval '6 minutes' where finished_at is null`);
    const next = await syncToXero(t.service(), env, xero, { trigger: 'schedule', batchSize: 2 });
    expect(next).toMatchObject({ status: 'done', posted: 3, failed: 0 });
    // The dead run is closed, saying so, by the run that took its place.
    const { data: died } = await t.service().from('xero_syncs').select('trigger, posted').eq('stopped', DIED);
    expect(died).toEqual([{ trigger: 'schedule', posted: 0 }]);

    const { documents } = await localXeroBooks(file);
    const numbers = documents.map((d) => d.Number);
    expect(new Set(numbers).size).toBe(numbers.length);
    const orderNumbers = await Promise.all(ids.map((id) => t.orderNumber(id)));
    for (const n of orderNumbers) expect(documents.filter((d) => d.Number === `WEB-${n}`)).toHaveLength(1);
    expect(documents.every((d) => d.paid === d.Total)).toBe(true);
  });

  it('the TEST page lists the books, and is refused where Netlify’s variables say deploy', async () => {
    const page = await (await fetch(`${t.url}/api/test-xero`)).text();
    expect(page).toMatch(/data-testid="xero-invoices">6</);
    expect(page).toMatch(/data-testid="xero-credit-notes">1</);
    process.env.SITE_ID = 'deployed-site';
    try {
      expect((await fetch(`${t.url}/api/test-xero`)).status).toBe(404);
      expect((await act({ action: 'sync' })).status).toBe(503);
    } finally {
      delete process.env.SITE_ID;
    }
  });

  it('a document Xero refuses is tried once a run, not again and again until the minute’s calls are spent', async () => {
    const [id] = await paidOrders([{ country: 'AU', quantity: 1, shipping: 15 }]);
    const env = readServerEnv();
    const refused = await syncToXero(t.service(), env, createLocalXero({ file }), { trigger: 'schedule', batchSize: 2, settings: { ...xeroSettings(env), salesAccount: '999' } });
    // The token's refresh and one call for the invoice.
    expect(refused).toMatchObject({ status: 'done', posted: 0, failed: 1, calls: 2, message: 'Xero refused 1 document: see below.' });
    const { data: row } = await t.service().from('xero_postings').select('status, error').eq('key', `sale:${id}`).single();
    expect(row).toMatchObject({ status: 'failed', error: expect.stringContaining("Account code '999'") });
    // Mended in Xero (here: the setting), the next run posts it.
    const mended = await syncToXero(t.service(), env, createLocalXero({ file }), { trigger: 'schedule', batchSize: 2 });
    expect(mended).toMatchObject({ posted: 1, failed: 0 });
  });

  it('the stand-in refuses what Xero refuses: a refund past what is left on the credit note, a void of a paid invoice, a transfer to itself', async () => {
    const session = createLocalXero({ file }).session('local-access', 'tenant');
    const { documents, balances } = await localXeroBooks(file);
    const credit = documents.find((d) => d.Type === 'ACCRECCREDIT')!;
    const paidInvoice = documents.find((d) => d.Type === 'ACCREC' && d.paid > 0)!;
    const refund = { key: 'credit:again', target: { creditNoteId: credit.ID }, accountCode: 'STRIPE', date: '2026-11-28', amount: 1, reference: 'again' };
    expect(await session.createPayments([refund], 'refund-again')).toEqual([{ key: 'credit:again', ok: false, error: 'Payment amount exceeds the amount outstanding on this document' }]);
    expect(await session.voidInvoice(paidInvoice.ID, 'void-paid')).toBe('This document cannot be edited as it has a payment or credit note allocated to it.');
    const toItself = { key: 'payout:po_same', fromAccountCode: 'STRIPE', toAccountCode: 'STRIPE', date: '2026-11-28', amount: 5, reference: 'Stripe payout po_same' };
    expect(await session.createTransfers([toItself], 'same')).toEqual([{ key: 'payout:po_same', ok: false, error: 'The from and to bank accounts must be different.' }]);
    const after = await localXeroBooks(file);
    expect(after.documents.find((d) => d.ID === paidInvoice.ID)).toMatchObject({ voided: false });
    expect(after.balances).toEqual(balances);
  });
});
