/**
 * Paying for, releasing and cancelling pre-orders, on the embedded backend and on PostgreSQL 17: payment takes a
 * pre-order copy under the product's lock as it takes stock (the last allocated copy sells once, the payment that
 * finds none is refunded as out of stock); a paid order with a pre-order line waits as 'preorder', never to pack,
 * its in-stock lines' stock taken; the release sets the stock from the first delivery less the copies owed and
 * makes to pack, oldest paid first, each order whose every pre-order title is out; the back office's changes refuse
 * what they cannot honour; each buyer's email is claimed once.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, staffUserSql, useTestDatabase } from '../helpers/test-databases';

const STAFF_USER = '00000000-0000-4000-8000-0000000000cc';
const STAFF = { sub: STAFF_USER };
const CUSTOMS_SQL = `customs_description = 'Printed picture book', hs_code = '4903.00', origin_country = 'AU'`;

describe.each(DATABASES)('pre-order payment and release on the $label', ({ open }) => {
  const db = useTestDatabase(
    open,
    `${staffUserSql(STAFF_USER, 'publisher@example.com')}
      insert into public.products (id, title, price, stock, release_date, preorder_allocation) values
        ('pre-a', 'Title A', 20, 0, '2099-06-01', 3),
        ('pre-b', 'Title B', 15, 0, '2099-09-01', 10),
        ('pre-race', 'Race Title', 20, 0, '2099-06-01', 1),
        ('in-stock', 'In Stock', 10, 10, null, 0);
      update public.products set low_stock_level = 5 where id like 'pre-%';
      -- A title is released only with its customs data, as the catalog sync writes it from the book file.
      update public.products set ${CUSTOMS_SQL};`,
  );

  const service = async <T>(sql: string, params: unknown[] = []) => (await db.request('service_role', {}, sql, { params, commit: true })).rows[0]?.result as T;
  const staff = async <T>(sql: string, params: unknown[] = []) => (await db.request('authenticated', STAFF, sql, { params, commit: true })).rows[0]?.result as T;
  /** An order of these lines, written by checkout as create_order writes it (to `address`): its id. */
  const checkout = (lines: Array<[string, number]>, email = 'buyer@example.com', address: { country?: string } = {}) =>
    service<string>(`select public.create_order($1::jsonb, $2::jsonb) as result`, [
      JSON.stringify({ customer_email: email, subtotal_amount: 0, shipping_amount: 0, total_amount: 0, shipping_address: address, shipping_method: {}, payment_provider: 'stripe' }),
      JSON.stringify(lines.map(([product_id, quantity]) => ({ product_id, title: product_id, quantity, price_at_time: 0 }))),
    ]);
  const pay = (orderId: string) => service<string>(`select public.fulfil_order($1) as result`, [orderId]);
  const orderOf = async (id: string) =>
    (
      await db.admin.query<{ status: string; payment_status: string; to_pack: boolean }>(
        `select status, payment_status, public.order_to_pack(status, payment_status, ship_before_payment) as to_pack from public.orders where id = $1`,
        [id],
      )
    ).rows[0]!;
  const stockOf = async (id: string) => (await db.admin.query<{ stock: number }>(`select stock from public.products where id = $1`, [id])).rows[0]!.stock;
  const left = (id: string) => service<number>(`select public.preorder_left($1) as result`, [id]);

  it('a paid pre-order waits as a pre-order, never to pack; its in-stock line takes stock, its pre-order line a copy of the allocation', async () => {
    const mixed = await checkout([
      ['pre-a', 1],
      ['in-stock', 2],
    ]);
    expect(await pay(mixed)).toBe('fulfilled');
    expect(await orderOf(mixed)).toEqual({ status: 'preorder', payment_status: 'paid', to_pack: false });
    expect(await stockOf('in-stock')).toBe(8);
    expect(await stockOf('pre-a')).toBe(0);
    expect(await left('pre-a')).toBe(2);
    // The stock history has the in-stock line only, and the pre-order title (no stock, under its level) raised no alert.
    const { rows } = await db.admin.query<{ product_id: string }>(`select product_id from public.stock_changes where order_id = $1`, [mixed]);
    expect(rows.map((r) => r.product_id)).toEqual(['in-stock']);
    const alerts = await db.admin.query<{ product_id: string }>(`select product_id from public.low_stock_alerts where order_id = $1`, [mixed]);
    expect(alerts.rows.map((r) => r.product_id)).toEqual(['in-stock']);
    // An order of stock only is to pack as before.
    const plain = await checkout([['in-stock', 1]]);
    expect(await pay(plain)).toBe('fulfilled');
    expect(await orderOf(plain)).toMatchObject({ status: 'processing', to_pack: true });
  });

  it('a payment that finds too few copies left to pre-order is refunded as one that finds the stock gone', async () => {
    const tooMany = await checkout([['pre-a', 3]]);
    expect(await pay(tooMany)).toBe('out_of_stock');
    expect(await orderOf(tooMany)).toMatchObject({ status: 'cancelled', payment_status: 'refund_due' });
    expect(await left('pre-a')).toBe(2);
  });

  it('two payments racing for the last allocated copy: one order, one refund', async () => {
    const orders = await Promise.all(['one@example.com', 'two@example.com'].map((email) => checkout([['pre-race', 1]], email)));
    const results = await Promise.all(orders.map(pay));
    expect(results.sort()).toEqual(['fulfilled', 'out_of_stock']);
    expect(await left('pre-race')).toBe(0);
    const { rows } = await db.admin.query<{ n: number }>(
      `select count(*)::integer as n from public.orders o join public.order_items oi on oi.order_id = o.id where oi.product_id = 'pre-race' and o.status = 'preorder'`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('the back office keeps the allocation at or above the copies sold and refuses a date in the past', async () => {
    await expect(staff(`select public.admin_set_preorder('pre-a', 0, null) as result`)).rejects.toThrow(/cannot be below the 1 copies already pre-ordered/);
    expect(await staff(`select public.admin_set_preorder('pre-a', 4, null) as result`)).toEqual({ allocation: 4, first_delivery: null, left: 3 });
    await expect(staff(`select public.admin_move_release_date('pre-a', '2020-01-01') as result`)).rejects.toThrow(/date in the past/);
    await expect(staff(`select public.admin_set_preorder('in-stock', 5, null) as result`)).rejects.toThrow(/not on pre-order/);
  });

  it('moving the date tells each buyer once per new date', async () => {
    const moved = await staff<{ orders: string[] }>(`select public.admin_move_release_date('pre-a', '2099-07-01') as result`);
    expect(moved.orders).toHaveLength(1);
    const [order] = moved.orders;
    expect(await service<boolean>(`select public.claim_preorder_date_email($1) as result`, [order])).toBe(true);
    expect(await service<boolean>(`select public.claim_preorder_date_email($1) as result`, [order])).toBe(false);
    await staff(`select public.admin_move_release_date('pre-a', '2099-08-01') as result`);
    expect(await service<boolean>(`select public.claim_preorder_date_email($1) as result`, [order])).toBe(true);
  });

  it('the release refuses a first delivery smaller than the copies owed, then makes the orders to pack, oldest paid first', async () => {
    const second = await checkout([['pre-a', 2]], 'second@example.com');
    expect(await pay(second)).toBe('fulfilled');
    // An order also waiting for another title stays a pre-order until that one is out too.
    const both = await checkout(
      [
        ['pre-a', 1],
        ['pre-b', 1],
      ],
      'both@example.com',
    );
    expect(await pay(both)).toBe('fulfilled');
    expect(await staff(`select public.release_title('pre-a', 3) as result`)).toEqual({ outcome: 'too_few', owed: 4 });
    const released = await staff<{ outcome: string; stock: number; owed: number; orders: string[] }>(`select public.release_title('pre-a', 10) as result`);
    const { rows: waiting } = await db.admin.query<{ id: string }>(
      `select o.id from public.orders o join public.order_items oi on oi.order_id = o.id where oi.product_id = 'pre-a' and o.status = 'processing' order by o.paid_at, o.id`,
    );
    expect(released).toEqual({ outcome: 'released', stock: 6, owed: 4, orders: waiting.map((r) => r.id) });
    expect(released.orders).toHaveLength(2);
    expect(released.orders).toContain(second);
    expect(await orderOf(second)).toMatchObject({ status: 'processing', to_pack: true });
    expect(await orderOf(both)).toMatchObject({ status: 'preorder', to_pack: false });
    expect(await stockOf('pre-a')).toBe(6);
    expect(await left('pre-a')).toBe(0);
    const { rows: history } = await db.admin.query<{ previous_stock: number; new_stock: number; reason: string; actor: string }>(
      `select previous_stock, new_stock, reason, actor from public.stock_changes where product_id = 'pre-a'`,
    );
    expect(history).toEqual([{ previous_stock: 0, new_stock: 6, reason: 'Released: first delivery of 10, 4 pre-ordered', actor: 'publisher@example.com' }]);
    expect(await staff(`select public.release_title('pre-a', 10) as result`)).toEqual({ outcome: 'not_preorder' });
    // Each released buyer is told once that their order is being packed; one still waiting is not.
    expect(await service<boolean>(`select public.claim_preorder_ready_email($1) as result`, [second])).toBe(true);
    expect(await service<boolean>(`select public.claim_preorder_ready_email($1) as result`, [second])).toBe(false);
    expect(await service<boolean>(`select public.claim_preorder_ready_email($1) as result`, [both])).toBe(false);
  });

  it('cancelling a pre-order puts back only the copies taken from stock (a released title’s, not one still on pre-order)', async () => {
    const { rows } = await db.admin.query<{ id: string }>(`select id from public.orders where customer_email = 'both@example.com' and status = 'preorder'`);
    const both = rows[0]!.id;
    const [aBefore, bBefore] = [await stockOf('pre-a'), await stockOf('pre-b')];
    expect(await service<string>(`select public.cancel_paid_order($1, 'publisher@example.com') as result`, [both])).toBe('cancelled');
    expect(await stockOf('pre-a')).toBe(aBefore + 1);
    expect(await stockOf('pre-b')).toBe(bBefore);
    expect(await left('pre-b')).toBe(10);
  });

  it('the daily release takes the titles whose date has come with a first delivery entered, and leaves one without', async () => {
    await db.admin.exec(`
      insert into public.products (id, title, price, stock, release_date, preorder_allocation, preorder_first_delivery) values
        ('due-with', 'Due With Delivery', 20, 0, current_date - 1, 5, 40),
        ('due-without', 'Due Without Delivery', 20, 0, current_date - 1, 5, null);
      update public.products set ${CUSTOMS_SQL} where id like 'due-%';`);
    const due = await service<Array<{ product_id: string; outcome: string }>>(`select public.release_due_titles() as result`);
    expect(due.map((d) => [d.product_id, d.outcome])).toEqual([['due-with', 'released']]);
    expect(await stockOf('due-with')).toBe(40);
    const list = await staff<{ titles: Array<{ id: string; due_without_delivery: boolean }> }>(`select public.admin_list_preorders() as result`);
    expect(list.titles.find((t) => t.id === 'due-without')?.due_without_delivery).toBe(true);
    expect(list.titles.find((t) => t.id === 'due-with')).toBeUndefined();
  });

  it('a title open for pre-order draws its waiting list into one availability mailing, as stock back does', async () => {
    await db.admin.exec(`
      insert into public.back_in_stock_requests (product_id, email, confirmation_sent_at, confirmed_at) values ('pre-b', 'waiting@example.com', now(), now());
      insert into public.back_in_stock_requests (product_id, email, confirmation_sent_at) values ('pre-b', 'unconfirmed@example.com', now())`);
    // The Pre-orders list counts who waits as the mailing draws them: confirmed, not yet emailed.
    const waiting = async () => (await staff<{ titles: Array<{ id: string; waiting: number }> }>(`select public.admin_list_preorders() as result`)).titles.find((t) => t.id === 'pre-b')?.waiting;
    expect(await waiting()).toBe(1);
    const mailing = await service<{ recipients: number } | null>(`select public.availability_create_mailing('pre-b', 'Title B can be pre-ordered', 'Hello', 'publisher@example.com') as result`);
    expect(mailing?.recipients).toBe(1);
    expect(await waiting()).toBe(0);
  });

  it('a title without customs data is not released even with no pre-order going abroad, as once out it is sold abroad, and nothing changes', async () => {
    await db.admin.exec(`insert into public.products (id, title, price, stock, release_date, preorder_allocation) values ('pre-home', 'Home Title', 20, 0, '2099-06-01', 10)`);
    const home = await checkout([['pre-home', 2]], 'home@example.com', { country: 'AU' });
    expect(await pay(home)).toBe('fulfilled');
    await db.admin.exec(`update public.products set hs_code = '4903.00' where id = 'pre-home'`);
    expect(await staff(`select public.release_title('pre-home', 10) as result`)).toEqual({
      outcome: 'customs_missing',
      abroad: 0,
      missing: ['customs_description', 'origin_country'],
    });
    expect(await stockOf('pre-home')).toBe(0);
    expect(await left('pre-home')).toBe(8);
    expect(await orderOf(home)).toMatchObject({ status: 'preorder', to_pack: false });
    expect((await db.admin.query(`select 1 from public.stock_changes where product_id = 'pre-home'`)).rows).toHaveLength(0);
    const list = await staff<{ titles: Array<{ id: string; customs: unknown }> }>(`select public.admin_list_preorders() as result`);
    expect(list.titles.find((t) => t.id === 'pre-home')?.customs).toEqual({ missing: ['customs_description', 'origin_country'], abroad: 0 });
  });

  it('a title without customs data is not released while a pre-order waiting for it goes abroad, and nothing changes until it has them', async () => {
    await db.admin.exec(`insert into public.products (id, title, price, stock, release_date, preorder_allocation) values ('pre-customs', 'Customs Title', 20, 0, '2099-06-01', 10)`);
    const ALL = ['customs_description', 'hs_code', 'origin_country'];
    const gap = async () => (await db.admin.query<{ gap: unknown }>(`select public.preorder_customs_gap('pre-customs') as gap`)).rows[0]!.gap;
    const paidTo = async (country: string) => {
      const id = await checkout([['pre-customs', 1]], `${country}@example.com`, { country });
      expect(await pay(id)).toBe('fulfilled');
      return id;
    };
    const release = () => staff(`select public.release_title('pre-customs', 10) as result`);
    // Bound for Australia only: none abroad yet, though the title still lacks the data.
    const home = await paidTo('AU');
    expect(await gap()).toEqual({ missing: ALL, abroad: 0 });
    // Two abroad (the country as typed, in any case), and one cancelled, which no longer counts.
    const abroad = [await paidTo('us'), await paidTo('NZ')];
    const cancelled = await paidTo('GB');
    expect(await service<string>(`select public.cancel_paid_order($1, 'publisher@example.com') as result`, [cancelled])).toBe('cancelled');
    expect(await gap()).toEqual({ missing: ALL, abroad: 2 });
    expect(await release()).toEqual({ outcome: 'customs_missing', abroad: 2, missing: ALL });
    // Nothing changed: still on pre-order with no stock, every order waiting, nothing in the stock history.
    expect(await stockOf('pre-customs')).toBe(0);
    expect(await left('pre-customs')).toBe(7);
    for (const id of [home, ...abroad]) expect(await orderOf(id)).toMatchObject({ status: 'preorder', to_pack: false });
    expect((await db.admin.query(`select 1 from public.stock_changes where product_id = 'pre-customs'`)).rows).toHaveLength(0);
    // The back office sees it ahead of the day.
    const list = await staff<{ titles: Array<{ id: string; customs: unknown }> }>(`select public.admin_list_preorders() as result`);
    expect(list.titles.find((t) => t.id === 'pre-customs')?.customs).toEqual({ missing: ALL, abroad: 2 });
    // Part of the data is not enough; the daily release, its day come, leaves it on pre-order with the same answer.
    await db.admin.exec(
      `update public.products set customs_description = 'Printed picture book', origin_country = 'AU', release_date = current_date - 1, preorder_first_delivery = 10 where id = 'pre-customs'`,
    );
    expect(await service(`select public.release_due_titles() as result`)).toEqual([{ product_id: 'pre-customs', title: 'Customs Title', outcome: 'customs_missing', abroad: 2, missing: ['hs_code'] }]);
    expect(await orderOf(home)).toMatchObject({ status: 'preorder' });
    // With all three, it is released, and every order waiting for it is to pack.
    await db.admin.exec(`update public.products set hs_code = '4903.00' where id = 'pre-customs'`);
    expect(await gap()).toEqual({ missing: [], abroad: 0 });
    expect(await release()).toMatchObject({ outcome: 'released', stock: 7, owed: 3, orders: [home, ...abroad] });
  });
});
