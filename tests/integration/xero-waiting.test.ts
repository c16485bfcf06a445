/**
 * What the back office says waits for Xero is what the next sync posts, on the embedded backend and on PostgreSQL 17:
 * both read one definition (xero_waiting). Before a run: new sales and school invoices, a refund whose sale is not yet
 * posted, a school invoice's payment and its credit note behind it, a void, a refund of a sale already posted, what Xero
 * refused before (a sale and a payout's fees) and a batch left by a run that died; not a refund of a sale from before
 * the first day. The run (xero_claim kind by kind, as functions/_lib/xero-sync.ts claims, each batch settled posted)
 * posts exactly that many, and the Stripe payout it was given besides: the one thing the count cannot know before
 * Stripe is asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, staffUserSql, type TestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-00000000c0d1';
const id = (n: number) => `00000000-0000-4000-8000-0000000f${String(n).padStart(4, '0')}`;
const SALE_NEW = id(1);
const SALE_POSTED = id(2);
const SALE_REFUNDED = id(3);
const SALE_REFUSED = id(4);
const SALE_CLAIMED = id(5);
const SALE_BEFORE = id(6);
const SCHOOL_PAID_ORDER = id(7);
const SCHOOL_VOID_ORDER = id(8);
const REFUND_OF_NEW = id(11);
const REFUND_OF_POSTED = id(12);
const REFUND_BEFORE = id(13);
const SCHOOL_CREDIT = id(14);
const INVOICE_PAID = id(21);
const INVOICE_VOID = id(22);
/** The kinds in the order a run posts them: a document's invoice before its payment, void or refund. */
const KINDS = ['sale', 'school', 'school_paid', 'school_void', 'credit'] as const;

type Claim = { batch: string | null; documents: Array<{ key: string }> | null };
type Status = { waiting: number; refused: number };

describe.each(DATABASES)('what waits for Xero on the $label', ({ open }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await open();
    const order = (id: string, paidAt: string | null, extra = `'paid', null, null, 'checkout', null`) =>
      `('${id}', 'buyer@example.com', 'processing', 44, 15, 59, '{"country": "AU"}', '{"name": "Courier"}', ${paidAt ? `'${paidAt}'` : 'null'}, ${extra})`;
    // An invoice sent on the 26th, for 10 copies at $22 and $15 postage (GST one eleventh, due in 14 days).
    const invoice = (id: string, orderId: string, status: string, closed: string) =>
      `('${id}', 'books@example.com', '${status}', 'St Mary''s Primary', 'Ann', 'office@example.com', '{"country": "AU"}', 14, 'rate_card', 'Courier', 15, 220, 235, 21.36,
        'local-test', '${orderId}', '2026-11-26T01:00:00Z', '2026-12-10', ${closed})`;
    await db.admin.exec(`
      ${staffUserSql(STAFF, 'waiting-books@example.com')}
      update public.xero_connection set tenant_id = 'tenant-1', tenant_name = 'Publisher Pty Ltd', refresh_token_sealed = 'v1.a.b.c', start_on = '2026-11-25',
        refresh_expires_at = now() + interval '60 days';
      insert into public.orders (id, customer_email, status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at,
          payment_status, refund_id, refunded_at, kind, organisation) values
        ${order(SALE_NEW, '2026-11-26T01:00:00Z')}, ${order(SALE_POSTED, '2026-11-26T02:00:00Z')},
        ${order(SALE_REFUNDED, '2026-11-26T03:00:00Z', `'refund_due', 're_whole', '2026-11-27T01:00:00Z', 'checkout', null`)},
        ${order(SALE_REFUSED, '2026-11-26T04:00:00Z')}, ${order(SALE_CLAIMED, '2026-11-26T05:00:00Z')},
        ${order(SALE_BEFORE, '2026-11-20T01:00:00Z')},
        ${order(SCHOOL_PAID_ORDER, '2026-11-27T02:00:00Z', `'paid', null, null, 'invoice', 'St Mary''s Primary'`)}, ${order(SCHOOL_VOID_ORDER, null, `'unpaid', null, null, 'invoice', 'St Mary''s Primary'`)};
      insert into public.invoices (id, created_by, status, organisation, contact_name, email, address, terms_days, shipping_kind, shipping_name, shipping_amount,
          subtotal, total, gst, provider, order_id, sent_at, due_on, paid_at, voided_at) values
        ${invoice(INVOICE_PAID, SCHOOL_PAID_ORDER, 'paid', `'2026-11-27T02:00:00Z', null`)}, ${invoice(INVOICE_VOID, SCHOOL_VOID_ORDER, 'void', `null, '2026-11-27T03:00:00Z'`)};
      insert into public.order_refunds (id, order_id, amount, reason, status, provider_refund_id, actor, settled_at) values
        ('${REFUND_OF_NEW}', '${SALE_NEW}', 11, 'One copy arrived damaged', 'succeeded', 're_new', 'books@example.com', '2026-11-27T04:00:00Z'),
        ('${REFUND_OF_POSTED}', '${SALE_POSTED}', 15, 'Postage', 'succeeded', 're_posted', 'books@example.com', '2026-11-27T05:00:00Z'),
        ('${REFUND_BEFORE}', '${SALE_BEFORE}', 11, 'Bent cover', 'succeeded', 're_before', 'books@example.com', '2026-11-27T06:00:00Z'),
        ('${SCHOOL_CREDIT}', '${SCHOOL_PAID_ORDER}', 22, 'One copy short', 'succeeded', 're_school', 'books@example.com', '2026-11-28T01:00:00Z');
      -- The ledger as earlier runs left it: a sale posted, a sale and a payout's fees refused, a batch whose run died.
      insert into public.xero_postings (key, kind, order_id, payout, occurred_at, status, batch, claimed_until, xero_id, error, posted_at, last_tried_at) values
        ('sale:${SALE_POSTED}', 'sale', '${SALE_POSTED}', null, '2026-11-26T02:00:00Z', 'posted', null, null, 'inv-posted', null, now(), now() - interval '1 hour'),
        ('sale:${SALE_REFUSED}', 'sale', '${SALE_REFUSED}', null, '2026-11-26T04:00:00Z', 'failed', null, null, null, 'Account code ''999'' is not valid.', null, now() - interval '1 hour'),
        ('sale:${SALE_CLAIMED}', 'sale', '${SALE_CLAIMED}', null, '2026-11-26T05:00:00Z', 'claimed', gen_random_uuid(), now() - interval '1 minute', null, null, null, now() - interval '6 minutes'),
        ('payout:po_refused', 'payout', null, '{"id": "po_refused", "amount": 80, "arrival_on": "2026-11-27"}', '2026-11-26T13:00:00Z', 'failed', null, null, 'bt-1',
          'Transferred, but Stripe''s fees were refused.', null, now() - interval '1 hour');`);
  });
  afterAll(() => db.close());

  const service = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await db.request('service_role', {}, `select ${sql} as result`, { params, commit: true })).rows[0]?.result as T;
  const status = async () => (await db.request('authenticated', { sub: STAFF }, 'select public.admin_xero_status() as result')).rows[0]!.result as Status;
  const settlePosted = (claim: Claim) =>
    service<number>(`public.xero_settle($1, $2)`, [claim.batch, JSON.stringify((claim.documents ?? []).map((d, i) => ({ key: d.key, status: 'posted', xero_id: `x-${i}-${d.key}` })))]);

  /** One run as the sync makes it: each kind in turn, batch after batch until none waits, every document posted. */
  async function run(payouts: unknown[]): Promise<string[]> {
    const startedAt = new Date(Date.now() - 1000).toISOString();
    const posted: string[] = [];
    const claims = [
      ...KINDS.map((kind) => () => service<Claim>(`public.xero_claim($1, 2, 300, null, $2)`, [kind, startedAt])),
      () => service<Claim>(`public.xero_claim('payout', 2, 300, $1, $2)`, [JSON.stringify(payouts), startedAt]),
    ];
    for (const claim of claims) {
      for (let batch = await claim(); batch.batch; batch = await claim()) {
        await settlePosted(batch);
        posted.push(...(batch.documents ?? []).map((d) => d.key));
      }
    }
    return posted;
  }

  it('the count before a sync is what it posts, Stripe’s new payouts aside; nothing waits after it', async () => {
    const before = await status();
    const waitingKeys = (await db.admin.query<{ key: string }>(`select key from public.xero_waiting('2026-11-25')`)).rows.map((r) => r.key);
    expect(waitingKeys.sort()).toEqual(
      [
        `sale:${SALE_NEW}`,
        `credit:${REFUND_OF_NEW}`,
        `credit:${REFUND_OF_POSTED}`,
        `sale:${SALE_REFUNDED}`,
        `credit:${SALE_REFUNDED}:full`,
        `sale:${SALE_REFUSED}`,
        `sale:${SALE_CLAIMED}`,
        `school:${INVOICE_PAID}`,
        `school_paid:${INVOICE_PAID}`,
        `credit:${SCHOOL_CREDIT}`,
        `school:${INVOICE_VOID}`,
        `school_void:${INVOICE_VOID}`,
        'payout:po_refused',
      ].sort(),
    );
    expect(before).toMatchObject({ waiting: 13, refused: 2 });

    const payouts = [
      { id: 'po_refused', amount: 80, arrival_on: '2026-11-27' },
      { id: 'po_new', amount: 120.5, arrival_on: '2026-11-28' },
    ];
    // Given Stripe's payouts, the one definition counts the new one too: exactly what the run posts.
    const withPayouts = await db.admin.query<{ n: number }>(`select count(*)::int as n from public.xero_waiting('2026-11-25', $1)`, [JSON.stringify(payouts)]);
    const posted = await run(payouts);
    expect(posted).toHaveLength(withPayouts.rows[0]!.n);
    expect(posted.sort()).toEqual([...waitingKeys, 'payout:po_new'].sort());
    expect(posted.length).toBe(before.waiting + 1);
    // Each document once; the refund of a sale from before the first day is never posted.
    expect(new Set(posted).size).toBe(posted.length);
    expect(posted).not.toContain(`credit:${REFUND_BEFORE}`);
    expect(await status()).toMatchObject({ waiting: 0, refused: 0 });
    expect(await run(payouts)).toEqual([]);
  });
});
