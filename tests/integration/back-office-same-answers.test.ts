/**
 * Paging changes how the back office asks, never what it is told: on PostgreSQL 17 with 10,000 generated orders,
 * every read is answered by the functions as they were before the paging migration, the migration is applied,
 * and the pages of the new functions, read to their end, are the old answers row for row (the old lists stopped
 * at 200 rows: their 200 are the first 200 of the pages). The sales figures are the same to the cent.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asStaff, createScaleDatabase, FIRST_DAY, generateOrders, LAST_DAY, readAllPages, readFixtures, SCALE_MIGRATION, type ScaleFixtures, YEAR } from '../load/back-office-orders';

type Row = Record<string, unknown>;
type Database = Awaited<ReturnType<typeof createScaleDatabase>>;

const VIEWS = ['to_pack', 'shipped', 'refunds_due', 'all', 'unpaid'];
const CUSTOMER_SEARCHES = ['', 'nguyen', 'maria', 'KELLY7', 'o', 'example.com', "o'brien", '100%', 'nobody-at-all'];

describe('the back office pages as it answered before, on PostgreSQL 17 with 10,000 orders', () => {
  let db: Database;
  let fixtures: ScaleFixtures;
  const before = new Map<string, unknown>();
  const orderSearches = () => ['maria.nguyen', fixtures.numberStart, fixtures.numberStart.toUpperCase().slice(0, 3), fixtures.orderId, `${fixtures.orderId.slice(0, 9)}`, '@example', '_', 'nobody'];

  beforeAll(async () => {
    db = await createScaleDatabase(inject('postgres'), `same_answers_${process.pid}`, { before: SCALE_MIGRATION });
    await generateOrders(db.admin, 10_000);
    fixtures = await readFixtures(db.admin);
    const old = (sql: string) => asStaff(db.api, `select ${sql} as r`);
    for (const view of VIEWS) before.set(`orders ${view}`, await old(`public.admin_list_orders('${view}', '')`));
    for (const search of orderSearches()) before.set(`orders search ${search}`, await old(`public.admin_list_orders('all', '${search}')`));
    for (const search of CUSTOMER_SEARCHES) before.set(`customers ${search}`, await old(`public.admin_list_customers('${search.replace(/'/g, "''")}')`));
    before.set('stock history', await old(`public.admin_stock_history('${fixtures.busiestBook}')`));
    before.set('sales orders', await old(`public.admin_sales_orders('${YEAR.from}', '${YEAR.to}')`));
    before.set('sales by day', await old(`public.admin_sales('${YEAR.from}', '${YEAR.to}', 'day')`));
    before.set('sales by month', await old(`public.admin_sales('${FIRST_DAY}', '${LAST_DAY}', 'month')`));
    before.set('orders', await Promise.all(fixtures.orderIds.slice(0, 50).map((id) => old(`public.admin_get_order('${id}')`))));
    before.set('customer', await old(`public.admin_get_customer('${fixtures.customerEmail}')`));
    await db.migrate(SCALE_MIGRATION);
  }, 120_000);
  afterAll(() => db?.drop());

  it('every order view and search: the pages, read to their end, start with the 200 rows the list gave', async () => {
    for (const view of VIEWS) {
      const { rows } = await readAllPages<Row>(db.api, 'orders', `select public.admin_list_orders('${view}', '', $1, 37) as r`, 200);
      const old = before.get(`orders ${view}`) as Row[];
      expect(rows.slice(0, 200), view).toEqual(old);
      if (old.length < 200) expect(rows, view).toHaveLength(old.length);
    }
    for (const search of orderSearches()) {
      const { rows } = await readAllPages<Row>(db.api, 'orders', `select public.admin_list_orders('all', '${search}', $1, 50) as r`, 200);
      const old = before.get(`orders search ${search}`) as Row[];
      expect(rows.slice(0, 200), search).toEqual(old);
      if (old.length < 200) expect(rows, search).toHaveLength(old.length);
    }
  });

  it('customers, with and without a search: every page together is the whole list, in its order', async () => {
    for (const search of CUSTOMER_SEARCHES) {
      const { rows, pages } = await readAllPages<Row>(db.api, 'customers', `select public.admin_list_customers('${search.replace(/'/g, "''")}', $1, 200) as r`);
      expect(rows, search).toEqual(before.get(`customers ${search}`));
      expect(pages, search).toBe(Math.max(1, Math.ceil(rows.length / 200)));
    }
  });

  it('a book’s stock history, the accountant’s year and the sales figures', async () => {
    const history = await readAllPages<Row>(db.api, 'changes', `select public.admin_stock_history('${fixtures.busiestBook}', $1, 64) as r`, 200);
    expect(history.rows.slice(0, 200)).toEqual(before.get('stock history'));
    const sold = await readAllPages<Row>(db.api, 'orders', `select public.admin_sales_orders('${YEAR.from}', '${YEAR.to}', $1, 500) as r`);
    expect(sold.rows).toEqual(before.get('sales orders'));
    expect(sold.pages).toBeGreaterThan(1);
    expect(await asStaff(db.api, `select public.admin_sales('${YEAR.from}', '${YEAR.to}', 'day') as r`)).toEqual(before.get('sales by day'));
    expect(await asStaff(db.api, `select public.admin_sales('${FIRST_DAY}', '${LAST_DAY}', 'month') as r`)).toEqual(before.get('sales by month'));
  });

  it('every packing slip in one call is each order as the detail view reads it', async () => {
    expect(await asStaff(db.api, `select public.admin_get_orders($1) as r`, [fixtures.orderIds.slice(0, 50)])).toEqual(before.get('orders'));
    expect(await asStaff(db.api, `select public.admin_get_customer('${fixtures.customerEmail}') as r`)).toEqual(before.get('customer'));
  });
});
