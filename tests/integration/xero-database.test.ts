/**
 * The Xero ledger in the database, on the embedded backend and on PostgreSQL 17: what waits (from the connection's
 * first day, each document once its own invoice is posted), claims in batches that a lapsed lease gives back under
 * the same id (the same idempotency keys), failures kept with Xero's words and claimed anew, settling checked, two
 * claims at once never sharing a document, one run at a time, and the back office's view of it all, which never
 * holds a token.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, shopperAndStaffSql, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-00000000c0c1';
const SHOPPER = '00000000-0000-4000-8000-00000000c0c2';
const A = '00000000-0000-4000-8000-000000000e01';
const B = '00000000-0000-4000-8000-000000000e02';
const BEFORE = '00000000-0000-4000-8000-000000000e03';
const FULL = '00000000-0000-4000-8000-000000000e04';
const PART = '00000000-0000-4000-8000-000000000e05';

type Claim = { batch: string | null; documents: Array<Record<string, unknown>> | null };

describe.each(DATABASES)('the Xero ledger on the $label', ({ open }) => {
  const db = useTestDatabase(
    open,
    `
      ${shopperAndStaffSql({ id: SHOPPER, email: 'buyer@example.com' }, { id: STAFF, email: 'books@example.com' })}
      insert into public.products (id, title, price, stock) values ('xero-a', 'Book A', 22, 50);
      insert into public.orders (id, customer_email, customer_name, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at, refund_id, refunded_at) values
        ('${A}', 'ann@example.com', 'Ann Lee', 'processing', 'paid', 44, 15, 59, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-26T23:00:00Z', null, null),
        ('${B}', 'bo@example.com', 'Bo Ng', 'processing', 'paid', 22, 25, 47, '{"country": "US"}', '{"name": "International"}', '2026-11-27T01:00:00Z', null, null),
        ('${BEFORE}', 'cy@example.com', 'Cy Old', 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-20T01:00:00Z', null, null),
        ('${FULL}', 'di@example.com', 'Di Back', 'cancelled', 'refund_due', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-27T02:00:00Z', 're_full', '2026-11-27T03:00:00Z');
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values
        ('${A}', 'xero-a', 'Book A', 2, 22), ('${B}', 'xero-a', 'Book A', 1, 22), ('${BEFORE}', 'xero-a', 'Book A', 1, 22), ('${FULL}', 'xero-a', 'Book A', 1, 22);
      insert into public.order_refunds (id, order_id, amount, reason, status, provider_refund_id, actor, settled_at) values
        ('${PART}', '${A}', 11, 'One copy arrived damaged', 'succeeded', 're_part', 'books@example.com', '2026-11-27T04:00:00Z');`,
  );

  const service = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await db.request('service_role', {}, `select ${sql} as result`, { params, commit: true })).rows[0]?.result as T;
  const claim = (kind: string, limit = 50) => service<Claim>(`public.xero_claim($1, $2)`, [kind, limit]);
  const settle = (batch: string, results: unknown[]) => service<number>(`public.xero_settle($1, $2)`, [batch, JSON.stringify(results)]);
  const status = (role: 'authenticated' | 'anon', sub?: string) => db.request(role, sub ? { sub } : {}, `select public.admin_xero_status() as result`);
  const keys = (c: Claim) => (c.documents ?? []).map((d) => d.key);
  const lapse = () => db.admin.exec(`update public.xero_postings set claimed_until = now() - interval '1 second' where status = 'claimed'`);

  it('claims nothing before an organisation is connected, and refuses a kind or size it does not know', async () => {
    await expect(claim('sale')).rejects.toMatchObject({ code: '22023', message: 'Connect the shop to Xero first.' });
    await db.admin.exec(
      `update public.xero_connection set tenant_id = 'tenant-1', tenant_name = 'Publisher Pty Ltd', refresh_token_sealed = 'v1.a.b.c', start_on = '2026-11-25', refresh_expires_at = now() + interval '60 days'`,
    );
    await expect(claim('payout')).rejects.toMatchObject({ code: '22023' });
    await expect(claim('sale', 101)).rejects.toMatchObject({ code: '22023' });
  });

  it('a batch holds the paid orders from the first day on, with what an invoice needs; a claimed document is not claimed twice', async () => {
    const first = await claim('sale');
    expect(keys(first)).toEqual([`sale:${A}`, `sale:${B}`, `sale:${FULL}`]);
    const a = first.documents?.[0];
    expect(a).toMatchObject({ kind: 'sale', country: 'AU', gst_applies: true, shipping_name: 'AU Standard Courier', made: null, xero_invoice_id: null });
    expect(Number(a?.total)).toBe(59);
    expect(a?.lines).toEqual([{ title: 'Book A', quantity: 2, unit_price: 22 }]);
    expect(first.documents?.[1]).toMatchObject({ country: 'US', gst_applies: false });
    expect(await claim('sale')).toEqual({ batch: null, documents: [] });
    // Nothing of a refund waits while its order's invoice is not posted.
    expect(await claim('credit')).toEqual({ batch: null, documents: [] });

    expect(
      await settle(first.batch!, [
        { key: `sale:${A}`, status: 'posted', xero_id: 'inv-a', xero_number: 'WEB-A', payment_id: 'pay-a', total: 59, gst: 5.36 },
        { key: `sale:${B}`, status: 'failed', error: "Account code '999' is not a valid code for this document." },
        { key: `sale:${FULL}`, status: 'retry', error: 'Xero did not answer within 10000 ms.' },
      ]),
    ).toBe(3);
  });

  it('a batch whose run died is claimed again whole under the same id; a failed document under a new one', async () => {
    const before = await db.admin.query<{ batch: string }>(`select batch::text from public.xero_postings where key = $1`, [`sale:${FULL}`]);
    const again = await claim('sale');
    expect(again.batch).toBe(before.rows[0]!.batch);
    expect(keys(again)).toEqual([`sale:${FULL}`]);
    await settle(again.batch!, [{ key: `sale:${FULL}`, status: 'posted', xero_id: 'inv-full', payment_id: 'pay-full', total: 37, gst: 3.36 }]);

    const retried = await claim('sale');
    expect(retried.batch).not.toBe(before.rows[0]!.batch);
    expect(keys(retried)).toEqual([`sale:${B}`]);
    await lapse();
    // A lapsed lease gives the same batch back, counted as another try.
    const lapsed = await claim('sale');
    expect(lapsed.batch).toBe(retried.batch);
    const tries = await db.admin.query<{ attempts: number }>(`select attempts from public.xero_postings where key = $1`, [`sale:${B}`]);
    expect(tries.rows[0]!.attempts).toBe(3);
    await settle(lapsed.batch!, [{ key: `sale:${B}`, status: 'posted', xero_id: 'inv-b', payment_id: 'pay-b', total: 47, gst: 0 }]);
    expect(await claim('sale')).toEqual({ batch: null, documents: [] });
  });

  it('refunds wait for their order’s invoice: the part refund and what the whole refund gave back beyond its parts', async () => {
    const credits = await claim('credit');
    expect(keys(credits).sort()).toEqual([`credit:${FULL}:full`, `credit:${PART}`].sort());
    const byKey = new Map((credits.documents ?? []).map((d) => [d.key, d]));
    expect(byKey.get(`credit:${PART}`)).toMatchObject({ xero_invoice_id: 'inv-a', refund: { reason: 'One copy arrived damaged', on: '2026-11-27' } });
    const refundOf = (key: string) => Number((byKey.get(key)?.refund as { amount: number } | undefined)?.amount);
    expect(refundOf(`credit:${PART}`)).toBe(11);
    expect(refundOf(`credit:${FULL}:full`)).toBe(37);
    await expect(settle(credits.batch!, [{ key: `sale:${A}`, status: 'posted', xero_id: 'x' }])).rejects.toMatchObject({ code: '22023' });
    await expect(settle(credits.batch!, [{ key: `credit:${PART}`, status: 'posted' }])).rejects.toMatchObject({ code: '22023' });
    await expect(settle(credits.batch!, [{ key: `credit:${PART}`, status: 'maybe' }])).rejects.toMatchObject({ code: '22023' });
    // A failure keeps what Xero made of it: the next try pays it rather than making it again.
    await settle(credits.batch!, [
      {
        key: `credit:${PART}`,
        status: 'failed',
        xero_id: 'cn-1',
        xero_number: 'CN-0001',
        total: 11,
        gst: 1,
        error: 'Posted as CN-0001, but its payment was refused: Account code is not a bank account.',
      },
      { key: `credit:${FULL}:full`, status: 'posted', xero_id: 'cn-2', payment_id: 'pay-cn-2', total: 37, gst: 3.36 },
    ]);
    const retry = await claim('credit');
    expect(retry.documents?.[0]).toMatchObject({ key: `credit:${PART}`, made: { xero_id: 'cn-1', xero_number: 'CN-0001' } });
    await settle(retry.batch!, [{ key: `credit:${PART}`, status: 'failed', xero_id: 'cn-1', error: 'Account code is not a bank account.' }]);
  });

  it('staff see the connection, the last run, what waits and what failed, never the token; others are refused', async () => {
    await db.admin.exec(`insert into public.xero_syncs (trigger, finished_at, posted, failed, calls) values ('schedule', now(), 4, 1, 7)`);
    const { rows } = await status('authenticated', STAFF);
    const seen = rows[0]!.result as Record<string, unknown>;
    expect(JSON.stringify(seen)).not.toContain('v1.a.b.c');
    expect(seen).toMatchObject({
      connection: { tenant_name: 'Publisher Pty Ltd', start_on: '2026-11-25', renewal_reason: null },
      last_sync: { trigger: 'schedule', posted: 4, failed: 1, calls: 7 },
      posted: 4,
      // The refused credit note: the next run tries it again.
      waiting: 1,
      refused: 1,
      failures: [{ key: `credit:${PART}`, kind: 'credit', error: 'Account code is not a bank account.', attempts: 2 }],
    });
    await expect(status('authenticated', SHOPPER)).rejects.toMatchObject({ code: '42501' });
    await expect(status('anon')).rejects.toMatchObject({ code: '42501' });
  });

  it('one run at a time: a second run cannot start while one has not finished', async () => {
    const start = (trigger: string) => db.request('service_role', {}, `insert into public.xero_syncs (trigger) values ($1) returning id`, { params: [trigger], commit: true });
    await start('staff');
    await expect(start('schedule')).rejects.toMatchObject({ code: '23505' });
    await db.admin.exec(`update public.xero_syncs set finished_at = now() where finished_at is null`);
    expect((await start('schedule')).rows).toHaveLength(1);
    await db.admin.exec(`update public.xero_syncs set finished_at = now() where finished_at is null`);
  });

  it('two claims at once never share a document', async () => {
    await db.admin.exec(`
      insert into public.orders (id, customer_email, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at)
        select gen_random_uuid(), 'many@example.com', 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-27T05:00:00Z' from generate_series(1, 6);`);
    // PGlite serves one connection at a time: there the two claims run one after the other.
    const [one, two] = db.concurrent ? await Promise.all([claim('sale', 4), claim('sale', 4)]) : [await claim('sale', 4), await claim('sale', 4)];
    const all = [...keys(one), ...keys(two)];
    expect(all).toHaveLength(6);
    expect(new Set(all).size).toBe(6);
  });

  it('Stripe payouts join the ledger as they are claimed, once each by their id; a transfer made is kept when its fees are refused', async () => {
    const payouts = (list: unknown) => service<Claim>(`public.xero_claim('payout', 50, 300, $1)`, [JSON.stringify(list)]);
    await expect(claim('payout')).rejects.toMatchObject({ code: '22023' });
    await expect(service(`public.xero_claim('sale', 50, 300, '[]'::jsonb)`)).rejects.toMatchObject({ code: '22023' });
    await expect(payouts([{ id: 'ch_1', amount: 10, arrival_on: '2026-11-28' }])).rejects.toMatchObject({ code: '22023' });
    await expect(payouts([{ id: 'po_1', amount: -1, arrival_on: '2026-11-28' }])).rejects.toMatchObject({ code: '22023' });
    await expect(payouts({ id: 'po_1' })).rejects.toMatchObject({ code: '22023' });

    const paid = [
      { id: 'po_B2', amount: 40, arrival_on: '2026-11-29' },
      { id: 'po_A1', amount: 92.6, arrival_on: '2026-11-28' },
    ];
    const first = await payouts(paid);
    expect(keys(first)).toEqual(['payout:po_A1', 'payout:po_B2']);
    expect(first.documents?.[0]).toMatchObject({ kind: 'payout', payout: { id: 'po_A1', arrival_on: '2026-11-28' }, made: null });
    expect(Number((first.documents![0]!.payout as { amount: number }).amount)).toBe(92.6);
    expect(await payouts(paid)).toEqual({ batch: null, documents: [] });
    await settle(first.batch!, [
      { key: 'payout:po_A1', status: 'posted', xero_id: 'bt-1', payment_id: 'spend-1' },
      { key: 'payout:po_B2', status: 'failed', xero_id: 'bt-2', error: "Transferred, but Stripe's fees were refused: Account code '404' is not valid." },
    ]);
    // A run claims again only what failed before it started: what failed in it waits for the next run.
    expect(await service(`public.xero_claim('payout', 50, 300, $1, now() - interval '1 hour')`, [JSON.stringify(paid)])).toEqual({ batch: null, documents: [] });
    const retry = await payouts(paid);
    expect(retry.documents).toEqual([expect.objectContaining({ key: 'payout:po_B2', made: { xero_id: 'bt-2' } })]);
    await settle(retry.batch!, [{ key: 'payout:po_B2', status: 'failed', xero_id: 'bt-2', error: "Account code '404' is not valid." }]);
    // The back office lists a payout's failure by its payout id: it has no order.
    const seen = (await status('authenticated', STAFF)).rows[0]!.result as { failures: unknown[] };
    expect(seen.failures).toContainEqual(expect.objectContaining({ key: 'payout:po_B2', kind: 'payout', payout_id: 'po_B2', number: null, order_id: null }));
  });
});
