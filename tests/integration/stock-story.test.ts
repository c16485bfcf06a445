/**
 * Stock with its story, on the embedded backend and on PostgreSQL 17: a delivery added (+N) with its reason, the
 * history of a product (the publisher's changes, each sale and each cancellation with its order), the low-stock
 * crossing opened once per crossing (two sales below the level, concurrent ones too, open one) and re-armed when
 * the stock is back, and the back-in-stock list: one row per address and book in any letter case, each address
 * claimed by one caller only, and only while the book is in stock. Staff only for the history and the counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, isPermissionError, type TestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000007a1';
const SHOPPER = '00000000-0000-4000-8000-0000000007b0';
const BOOK = 'story-book';
const ORDERS = ['00000000-0000-4000-8000-000000000701', '00000000-0000-4000-8000-000000000702', '00000000-0000-4000-8000-000000000703', '00000000-0000-4000-8000-000000000704'];

const FIXTURES = `
  insert into auth.users (id, email, email_confirmed_at) values ('${STAFF}', 'counter@example.com', now()), ('${SHOPPER}', 'reader@example.com', now());
  insert into public.staff_members (email) values ('counter@example.com');
  insert into public.products (id, title, price, stock, low_stock_level) values ('${BOOK}', 'Story Book', 20, 12, 10), ('sold-out-book', 'Sold Out', 20, 0, 10);
  ${ORDERS.map(
    (id, i) => `insert into public.orders (id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, checkout_session_id)
      values ('${id}', 'buyer${i}@example.com', 40, 15, 55, '{}', '{}', 'cs_story_${i}');
    insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${id}', '${BOOK}', 'Story Book', 2, 20);`,
  ).join('\n')}
`;

describe.each(DATABASES)('stock with its story on the $label', ({ open }) => {
  let db: TestDatabase;
  const as =
    (sub: string) =>
    async <T>(sql: string): Promise<T> =>
      (await db.request('authenticated', { sub }, `select ${sql} as r`, { commit: true })).rows[0]?.r as T;
  const asStaff = as(STAFF);
  const asService = async <T>(sql: string): Promise<T> => (await db.request('service_role', {}, `select ${sql} as r`, { commit: true })).rows[0]?.r as T;
  const stock = async () => (await db.admin.query<{ stock: number }>(`select stock from public.products where id = '${BOOK}'`)).rows[0]!.stock;
  const openCrossings = async () => (await db.admin.query<{ n: number }>(`select count(*)::int as n from public.low_stock_alerts where product_id = '${BOOK}' and rearmed_at is null`)).rows[0]!.n;
  const allCrossings = async () => (await db.admin.query<{ n: number }>(`select count(*)::int as n from public.low_stock_alerts where product_id = '${BOOK}'`)).rows[0]!.n;

  beforeAll(async () => {
    db = await open();
    await db.admin.exec(FIXTURES);
  });
  afterAll(() => db.close());

  it('a delivery adds N copies with its reason; N must be a whole number of at least 1, and a reason is needed', async () => {
    expect(await asStaff(`public.admin_receive_stock('${BOOK}', 3, '  Reprint delivered ')`)).toBe(15);
    expect(await stock()).toBe(15);
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', 0, 'none')`)).rejects.toThrow('Copies received must be a whole number from 1 to 100000.');
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', -4, 'none')`)).rejects.toThrow('Copies received must be a whole number from 1 to 100000.');
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', 2, '  ')`)).rejects.toThrow('Give a reason for the change');
    await expect(asStaff(`public.admin_receive_stock('${BOOK}', 100000, 'too many')`)).rejects.toThrow('Stock can be at most 100000.');
    await expect(asStaff(`public.admin_receive_stock('no-such-book', 2, 'x')`)).rejects.toMatchObject({ code: 'P0002' });
    expect(await stock()).toBe(15);
  });

  it('a shopper, a visitor and the server functions cannot add stock or read the history and the counts', async () => {
    for (const sql of [`public.admin_receive_stock('${BOOK}', 5, 'x')`, `public.admin_stock_history('${BOOK}')`, 'public.admin_list_stock()']) {
      await expect(as(SHOPPER)(sql)).rejects.toSatisfy(isPermissionError);
      await expect(db.request('anon', {}, `select ${sql}`)).rejects.toSatisfy(isPermissionError);
      await expect(db.request('service_role', {}, `select ${sql}`)).rejects.toSatisfy(isPermissionError);
    }
    // Nor write the waiting list themselves: only the server function does, as the service role.
    await expect(db.request('anon', {}, `insert into public.back_in_stock_requests (product_id, email) values ('sold-out-book', 'x@example.com')`)).rejects.toSatisfy(isPermissionError);
    expect(Number(await as(SHOPPER)(`(select count(*) from public.stock_changes)`))).toBe(0);
  });

  it('a sale writes its history row naming the order and opens one crossing below the level; a second sale below it opens none', async () => {
    expect(await asService(`public.fulfil_order('${ORDERS[0]}')`)).toBe('fulfilled'); // 15 → 13
    expect(await openCrossings()).toBe(0);
    expect(await asService(`public.fulfil_order('${ORDERS[1]}')`)).toBe('fulfilled'); // 13 → 11
    expect(await asService(`public.fulfil_order('${ORDERS[2]}')`)).toBe('fulfilled'); // 11 → 9: below 10
    expect(await asService(`public.fulfil_order('${ORDERS[2]}')`)).toBe('already_fulfilled'); // a retried webhook
    expect(await asService(`public.fulfil_order('${ORDERS[3]}')`)).toBe('fulfilled'); // 9 → 7: still below
    expect(await stock()).toBe(7);
    expect(await allCrossings()).toBe(1);

    const history = await asStaff<Array<Record<string, unknown>>>(`public.admin_stock_history('${BOOK}')`);
    expect(history.map(({ previous_stock, new_stock, reason, actor, order_id }) => ({ previous_stock, new_stock, reason, actor, order_id }))).toEqual([
      { previous_stock: 9, new_stock: 7, reason: 'Sold', actor: 'buyer3@example.com', order_id: ORDERS[3] },
      { previous_stock: 11, new_stock: 9, reason: 'Sold', actor: 'buyer2@example.com', order_id: ORDERS[2] },
      { previous_stock: 13, new_stock: 11, reason: 'Sold', actor: 'buyer1@example.com', order_id: ORDERS[1] },
      { previous_stock: 15, new_stock: 13, reason: 'Sold', actor: 'buyer0@example.com', order_id: ORDERS[0] },
      { previous_stock: 12, new_stock: 15, reason: 'Reprint delivered', actor: 'counter@example.com', order_id: null },
    ]);

    // The email is claimed once: the crossing belongs to the sale that made it, and a second claim finds nothing.
    const claimed = await asService<Array<Record<string, unknown>>>(`public.claim_low_stock_alerts('${ORDERS[2]}')`);
    expect(claimed).toEqual([{ id: expect.anything(), product_id: BOOK, title: 'Story Book', level: 10, stock: 9 }]);
    expect(await asService(`public.claim_low_stock_alerts('${ORDERS[2]}')`)).toEqual([]);
    expect(await asService(`public.claim_low_stock_alerts('${ORDERS[3]}')`)).toEqual([]);
    // Given back after a failed email, it is claimed again by the next attempt.
    await asService(`public.release_low_stock_alert(${Number(claimed[0]!.id)})`);
    expect(await asService(`public.claim_low_stock_alerts('${ORDERS[2]}')`)).toHaveLength(1);
  });

  it('a cancellation puts the copies back in the history, by who cancelled it; stock back at the level re-arms the alert', async () => {
    expect(await asService(`public.cancel_paid_order('${ORDERS[3]}', 'counter@example.com')`)).toBe('cancelled'); // 7 → 9
    const [latest] = await asStaff<Array<Record<string, unknown>>>(`public.admin_stock_history('${BOOK}')`);
    expect(latest).toMatchObject({ previous_stock: 7, new_stock: 9, reason: 'Order cancelled, copies put back', actor: 'counter@example.com', order_id: ORDERS[3] });
    expect(await openCrossings()).toBe(1); // 9 is still below 10

    expect(await asStaff(`public.admin_set_stock('${BOOK}', 10, 'Counted')`)).toBe(10);
    expect(await openCrossings()).toBe(0);
    expect(await allCrossings()).toBe(1);
  });

  it('the catalog sync sets each book’s level; a book without one keeps it', async () => {
    expect(await asService(`public.sync_low_stock_levels('[{"id": "${BOOK}", "low_stock_level": 4}, {"id": "sold-out-book"}]')`)).toBe(1);
    expect((await db.admin.query<{ id: string; low_stock_level: number }>(`select id, low_stock_level from public.products where id in ('${BOOK}', 'sold-out-book') order by id`)).rows).toEqual([
      { id: 'sold-out-book', low_stock_level: 10 },
      { id: BOOK, low_stock_level: 4 },
    ]);
  });

  it('the waiting list: one row per address and book in any letter case; claimed only once the book is in stock, by one caller', async () => {
    await db.request('service_role', {}, `insert into public.back_in_stock_requests (product_id, email) values ('sold-out-book', 'Ann@Example.com'), ('sold-out-book', 'bo@example.com')`, {
      commit: true,
    });
    await expect(db.request('service_role', {}, `insert into public.back_in_stock_requests (product_id, email) values ('sold-out-book', 'ann@example.COM')`)).rejects.toMatchObject({ code: '23505' });
    await expect(db.request('service_role', {}, `insert into public.back_in_stock_requests (product_id, email) values ('no-such-book', 'ann@example.com')`)).rejects.toMatchObject({ code: '23503' });

    const listed = await asStaff<Array<{ id: string; waiting: number }>>('public.admin_list_stock()');
    expect(listed.find((p) => p.id === 'sold-out-book')).toMatchObject({ waiting: 2, stock: 0, low_stock_level: 10 });

    // Out of stock: nobody is claimed.
    expect(await asService(`public.claim_back_in_stock('sold-out-book')`)).toEqual([]);
    expect(await asStaff(`public.admin_receive_stock('sold-out-book', 5, 'Delivery')`)).toBe(5);

    const claims = db.concurrent
      ? await Promise.all([asService<unknown[]>(`public.claim_back_in_stock('sold-out-book')`), asService<unknown[]>(`public.claim_back_in_stock('sold-out-book')`)])
      : [await asService<unknown[]>(`public.claim_back_in_stock('sold-out-book')`), await asService<unknown[]>(`public.claim_back_in_stock('sold-out-book')`)];
    const all = claims.flat() as Array<{ email: string }>;
    expect(all.map((c) => c.email).sort()).toEqual(['Ann@Example.com', 'bo@example.com']);
  });
});
