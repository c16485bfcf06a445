/**
 * Pre-orders in the database, on the embedded backend and on PostgreSQL 17: a title is on pre-order while it has a
 * release date and no release; the copies left to pre-order are its allocation less the copies on paid orders
 * waiting for it, never below 0; the live catalog gives both; the catalog sync writes a date only while it is
 * ahead, and never over a date buyers have pre-ordered for.
 */
import { describe, expect, it } from 'vitest';
import { productFromRow, copiesAvailable, isPreorder } from '../../src/features/catalog/product';
import { DATABASES, useTestDatabase } from '../helpers/test-databases';

const BOOK = 'next-title';
const AHEAD = '2099-06-01';

describe.each(DATABASES)('pre-orders on the $label', ({ open }) => {
  const db = useTestDatabase(open, `insert into public.products (id, title, price, stock, release_date, preorder_allocation) values ('${BOOK}', 'The Next Title', 20, 0, '${AHEAD}', 5)`);

  const asService = async <T>(sql: string, params: unknown[] = []) => (await db.request('service_role', {}, sql, { params, commit: true })).rows as T[];
  const left = async () => (await asService<{ n: number }>(`select public.preorder_left($1) as n`, [BOOK]))[0]!.n;
  /** A paid order waiting for the title, of `quantity` copies. */
  const paidPreorder = async (quantity: number, status = 'preorder') => {
    const { rows } = await db.admin.query<{ id: string }>(
      `insert into public.orders (customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, status, payment_status, paid_at, fulfilled_at)
       values ('buyer@example.com', $1, 0, $1, '{}', '{}', $2, 'paid', now(), now()) returning id`,
      [20 * quantity, status],
    );
    const id = rows[0]!.id;
    await db.admin.query(`insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ($1, $2, 'The Next Title', $3, 20)`, [id, BOOK, quantity]);
    return id;
  };

  it('the copies left are the allocation less the copies on paid orders waiting, never below 0', async () => {
    expect(await left()).toBe(5);
    const first = await paidPreorder(2);
    expect(await left()).toBe(3);
    // A cancelled order's copies are free again; an unpaid one holds none.
    await paidPreorder(1, 'cancelled');
    expect(await left()).toBe(3);
    await db.admin.exec(`update public.products set preorder_allocation = 1 where id = '${BOOK}'`);
    expect(await left()).toBe(0);
    await db.admin.exec(`update public.products set preorder_allocation = 5 where id = '${BOOK}'`);
    await db.admin.query(`update public.orders set status = 'cancelled', payment_status = 'refund_due' where id = $1`, [first]);
    expect(await left()).toBe(5);
  });

  it('the live catalog gives a title on pre-order its date and copies left, and every other product neither', async () => {
    const rows = await asService<Record<string, unknown>>(`select * from public.catalog_for_sale()`);
    const products = rows.map(productFromRow);
    const next = products.find((p) => p.id === BOOK)!;
    expect(next).toMatchObject({ releaseDate: AHEAD, preorderLeft: 5 });
    expect(isPreorder(next)).toBe(true);
    expect(copiesAvailable(next)).toBe(5);
    // Every product reads as the database defines it: on pre-order while dated and not released (the sample next
    // title from content/books is too), and every other product sold from its stock.
    const dated = new Set((await asService<{ id: string }>(`select id from public.products where release_date is not null and released_at is null`)).map((r) => r.id));
    const others = products.filter((p) => !dated.has(p.id));
    expect(others.length).toBeGreaterThan(0);
    for (const product of products) expect(isPreorder(product), product.id).toBe(dated.has(product.id));
    for (const other of others) expect(copiesAvailable(other)).toBe(other.stock);
    // Narrowed to a cart's books.
    expect((await asService<{ id: string }>(`select id from public.catalog_for_sale(array[$1::text])`, [BOOK])).map((r) => r.id)).toEqual([BOOK]);
  });

  it('a released title is no longer on pre-order: no date in the live catalog, no copies left to pre-order', async () => {
    await db.admin.exec(`update public.products set released_at = now() where id = '${BOOK}'`);
    try {
      expect(await left()).toBe(0);
      const [row] = await asService<Record<string, unknown>>(`select * from public.catalog_for_sale(array[$1::text])`, [BOOK]);
      expect(row).toMatchObject({ release_date: null, preorder_left: 0 });
      expect(isPreorder(productFromRow(row))).toBe(false);
    } finally {
      await db.admin.exec(`update public.products set released_at = null where id = '${BOOK}'`);
    }
  });

  it('nobody but the server reads the copies left or the catalog through these functions', async () => {
    for (const role of ['anon', 'authenticated'] as const) {
      await expect(db.request(role, {}, `select public.preorder_left('${BOOK}')`)).rejects.toMatchObject({ code: '42501' });
      await expect(db.request(role, {}, `select * from public.catalog_for_sale()`)).rejects.toMatchObject({ code: '42501' });
    }
  });

  it('the catalog sync writes a release date while it is ahead, and never over a date buyers pre-ordered for', async () => {
    const { rows: current } = await db.admin.query<{ id: string }>(`select id from public.products where for_sale`);
    const book = (id: string, releaseDate: string | null) => ({
      id,
      title: id,
      price: 20,
      category: 'Books',
      weight: 1,
      dimensions: { length: 1, width: 1, height: 1 },
      release_date: releaseDate,
    });
    const dateOf = async (id: string) => (await db.admin.query<{ d: string | null }>(`select to_char(release_date, 'YYYY-MM-DD') as d from public.products where id = $1`, [id])).rows[0]?.d;
    const sync = (books: unknown[]) =>
      asService(`select public.sync_catalog($1::jsonb)`, [JSON.stringify([...current.filter((r) => r.id !== BOOK && r.id !== 'synced-title').map((r) => book(r.id, null)), ...books])]);
    // A new title announced ahead; a date that has come is not a pre-order.
    await sync([book(BOOK, AHEAD), book('synced-title', '2098-01-01')]);
    expect(await dateOf('synced-title')).toBe('2098-01-01');
    await sync([book(BOOK, AHEAD), book('synced-title', '2020-01-01')]);
    expect(await dateOf('synced-title')).toBeNull();
    // With copies pre-ordered, the file's new date does not move the one the buyers were told.
    const order = await paidPreorder(1);
    await sync([book(BOOK, '2099-09-09'), book('synced-title', null)]);
    expect(await dateOf(BOOK)).toBe(AHEAD);
    await db.admin.query(`update public.orders set status = 'cancelled', payment_status = 'refund_due' where id = $1`, [order]);
    await sync([book(BOOK, '2099-09-09'), book('synced-title', null)]);
    expect(await dateOf(BOOK)).toBe('2099-09-09');
    await sync([book(BOOK, AHEAD), book('synced-title', null)]);
  });
});
