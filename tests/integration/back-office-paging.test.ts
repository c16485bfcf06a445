/**
 * The back office's paged reads on the embedded backend and on PostgreSQL 17, with 300 generated orders: pages
 * read one after another are the list read at once, a cursor the database did not give is refused with a sentence,
 * page sizes are kept within bounds, every packing slip comes in one call, and the sales figures follow a change
 * to an order made after they were last read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestDatabase } from '../helpers/test-databases';
import { generateOrdersSql, SCALE_STAFF } from '../load/back-office-orders';

type Page = { next: string | null } & Record<string, unknown>;
const STAFF = { sub: SCALE_STAFF };

describe.each(DATABASES)('paged back-office reads on the $label', ({ open }) => {
  let db: TestDatabase;
  const asStaff = async <T>(sql: string, params?: unknown[]): Promise<T> => (await db.request('authenticated', STAFF, `select ${sql} as r`, { params })).rows[0]?.r as T;
  /** Every page of a list, `call` taking the cursor as $1. */
  const pages = async (key: string, call: string) => {
    const rows: unknown[] = [];
    let cursor: string | null = null;
    let count = 0;
    do {
      const page: Page = await asStaff<Page>(call, [cursor]);
      rows.push(...(page[key] as unknown[]));
      cursor = page.next;
      count += 1;
    } while (cursor && count < 1000);
    return { rows, count };
  };

  beforeAll(async () => {
    db = await open();
    await db.admin.transaction((tx) => tx.exec(generateOrdersSql(300, 7)));
  }, 120_000);
  afterAll(() => db.close());

  it('orders of every view, customers, a stock history and the accountant’s list: small pages together are one big page', async () => {
    const counts = (
      await db.admin.query<Record<string, number>>(`select count(*) filter (where payment_status in ('paid', 'refund_due'))::int as all,
      count(*) filter (where payment_status in ('unpaid', 'expired'))::int as unpaid from public.orders`)
    ).rows[0]!;
    expect((await pages('orders', `public.admin_list_orders('all', '', $1, 200)`)).rows).toHaveLength(counts.all!);
    expect((await pages('orders', `public.admin_list_orders('unpaid', '', $1, 200)`)).rows).toHaveLength(counts.unpaid!);
    for (const view of ['to_pack', 'shipped', 'refunds_due', 'all', 'unpaid']) {
      const whole = await pages('orders', `public.admin_list_orders('${view}', '', $1, 200)`);
      const paged = await pages('orders', `public.admin_list_orders('${view}', '', $1, 7)`);
      expect(paged.rows, view).toEqual(whole.rows);
      expect(paged.count, view).toBe(Math.max(1, Math.ceil(whole.rows.length / 7)));
      expect(new Set(paged.rows.map((o) => (o as { id: string }).id)).size, view).toBe(paged.rows.length);
    }
    const customers = await asStaff<Page>(`public.admin_list_customers('', null, 200)`);
    expect((await pages('customers', `public.admin_list_customers('', $1, 9)`)).rows).toEqual(customers.customers);
    expect((await pages('customers', `public.admin_list_customers('nguyen', $1, 2)`)).rows).toEqual((await asStaff<Page>(`public.admin_list_customers('nguyen', null, 200)`)).customers);
    const book = (await db.admin.query<{ product_id: string }>(`select product_id from public.stock_changes group by 1 order by count(*) desc limit 1`)).rows[0]!.product_id;
    expect((await pages('changes', `public.admin_stock_history('${book}', $1, 3)`)).rows).toEqual((await asStaff<Page>(`public.admin_stock_history('${book}', null, 200)`)).changes);
    const sold = await asStaff<Page>(`public.admin_sales_orders('2021-01-01', '2026-12-31', null, 5000)`);
    expect((sold.orders as unknown[]).length).toBeGreaterThan(250);
    expect((await pages('orders', `public.admin_sales_orders('2021-01-01', '2026-12-31', $1, 40)`)).rows).toEqual(sold.orders);
  });

  it('a cursor it did not give is refused with a sentence (22023); page sizes stay within 1 to 200 (5,000)', async () => {
    for (const sql of [
      `public.admin_list_orders('all', '', 'yesterday', 10)`,
      `public.admin_list_orders('all', '', '123|not-an-id', 10)`,
      `public.admin_list_customers('', '99999999999999999999|a@example.com', 10)`,
      `public.admin_stock_history('scale-book-1', 'abc', 10)`,
      `public.admin_sales_orders('2026-01-01', '2026-12-31', '|', 10)`,
    ]) {
      await expect(asStaff(sql), sql).rejects.toMatchObject({ code: '22023', message: 'That page link is not one this list gave: start again from the first page.' });
    }
    expect((await asStaff<Page>(`public.admin_list_orders('all', '', null, 0)`)).orders).toHaveLength(1);
    expect((await asStaff<Page>(`public.admin_list_orders('all', '', null, 100000)`)).orders).toHaveLength(200);
    expect((await asStaff<Page>(`public.admin_list_customers('', null, -5)`)).customers).toHaveLength(1);
    expect((await asStaff<Page>(`public.admin_sales_orders('2021-01-01', '2026-12-31', null, 0)`)).orders).toHaveLength(1);
  });

  it('every packing slip in one call, in the order asked; more than 500 or an unknown order refused', async () => {
    const ids = (await db.admin.query<{ id: string }>(`select id from public.orders order by created_at desc limit 3`)).rows.map((r) => r.id);
    const slips = await asStaff<Array<{ id: string; items: unknown[] }>>(`public.admin_get_orders($1::uuid[])`, [ids]);
    expect(slips.map((s) => s.id)).toEqual(ids);
    expect(slips[0]).toEqual(await asStaff(`public.admin_get_order('${ids[0]}')`));
    await expect(asStaff(`public.admin_get_orders(array_fill('${ids[0]}'::uuid, array[501]))`)).rejects.toMatchObject({ code: '22023', message: "Give the orders' ids, up to 500 at a time." });
    await expect(asStaff(`public.admin_get_orders(array['00000000-0000-4000-8000-0000000fffff'::uuid])`)).rejects.toMatchObject({ code: 'P0002' });
  });

  it('sales by week and by year; by day for a year at most; a change after a look shows at the next look', async () => {
    const byYear = await asStaff<{ series: Array<{ period: string; orders: number }>; totals: { orders: number; net: number } }>(`public.admin_sales('2021-11-21', '2026-11-20', 'year')`);
    expect(byYear.series.map((s) => s.period)).toEqual(['2021-01-01', '2022-01-01', '2023-01-01', '2024-01-01', '2025-01-01', '2026-01-01']);
    const byWeek = await asStaff<{ series: Array<{ period: string }>; totals: unknown }>(`public.admin_sales('2021-11-21', '2026-11-20', 'week')`);
    expect(byWeek.totals).toEqual(byYear.totals);
    await expect(asStaff(`public.admin_sales('2025-01-01', '2026-01-02', 'day')`)).rejects.toMatchObject({
      code: '22023',
      message: 'Sales by day cover a year (366 days) at most: group a longer period by week, month or year.',
    });
    expect((await asStaff<{ series: unknown[] }>(`public.admin_sales('2024-01-01', '2024-12-31', 'day')`)).series).toHaveLength(366);

    // Looked at (and kept), then an order refunded in full: the next look has its refund.
    await db.request('authenticated', STAFF, `select public.admin_sales('2021-11-21', '2026-11-20', 'year')`, { commit: true });
    const order = (
      await db.admin.query<{ id: string; total: number }>(
        `select id, total_amount::float8 as total from public.orders where payment_status = 'paid' and not exists (select 1 from public.order_refunds r where r.order_id = orders.id) order by paid_at limit 1`,
      )
    ).rows[0]!;
    await db.admin.exec(`update public.orders set payment_status = 'refund_due', status = 'cancelled', refund_id = 're_late', refunded_at = now() where id = '${order.id}'`);
    const after = await asStaff<{ totals: { orders: number; net: number; refunds: number } }>(`public.admin_sales('2021-11-21', '2026-11-20', 'year')`);
    expect(Number(after.totals.orders)).toBe(Number(byYear.totals.orders));
    expect(Number(after.totals.net)).toBeCloseTo(Number(byYear.totals.net) - order.total, 2);
  });
});
