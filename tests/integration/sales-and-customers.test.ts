/**
 * The back office's sales figures and customers, straight from the database functions, on the embedded backend
 * and on PostgreSQL 17: every figure is checked against sums worked out by hand below, including the GST (one
 * eleventh of what Australian buyers paid and kept; exports GST-free) and the Sydney day an order counts on.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, shopperAndStaffSql, isPermissionError, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000005a1';
const SHOPPER = '00000000-0000-4000-8000-0000000005b0';
const STAFF_CLAIMS = { sub: STAFF };

/**
 * Seven orders and two unpaid attempts. Book A is $22, book B $15.
 *   o1 AU Ann@   paid Sun 2 Nov 10:00 Sydney   2 A           goods 44  ship 15  total 59
 *   o2 AU bob@   paid Sun 2 Nov 20:00 Sydney   1 A + 1 B     goods 37  ship 15  total 52  (shipped)
 *   o3 GB ann@   paid Wed 5 Nov                1 A           goods 22  ship 25  total 47  (export)
 *   o4 AU cat@   paid Wed 5 Nov, refunded      1 B           goods 15  ship 15  total 30  (cancelled, refunded in full)
 *   o6 AU dan@   paid 31 Oct 14:00 UTC = Sat 1 Nov 01:00 Sydney: November   goods 22  ship 15  total 37
 *   o7 AU dan@   paid 31 Oct 12:00 UTC = Fri 31 Oct 23:00 Sydney: October   goods 22  ship 15  total 37
 *   o5 AU eve@   unpaid checkout attempt; o8 expired attempt: never sales, never customers.
 */
const FIXTURES = `
  ${shopperAndStaffSql({ id: SHOPPER, email: 'bob@example.com' }, { id: STAFF, email: 'sales-staff@example.com' })}
  insert into public.products (id, title, price, stock) values ('sales-a', 'Book A', 22, 50), ('sales-b', 'Book B', 15, 50);
  insert into public.orders (id, customer_email, customer_name, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at, refund_id, refunded_at) values
    ('00000000-0000-4000-8000-000000000501', 'Ann@example.com', 'Ann Lee', 'processing', 'paid', 44, 15, 59, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-01T23:00:00Z', null, null),
    ('00000000-0000-4000-8000-000000000502', 'bob@example.com', 'Bob Ng', 'shipped', 'paid', 37, 15, 52, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-02T09:00:00Z', null, null),
    ('00000000-0000-4000-8000-000000000503', 'ann@example.com', 'Ann Lee-Smith', 'processing', 'paid', 22, 25, 47, '{"country": "GB"}', '{"name": "International"}', '2026-11-04T23:00:00Z', null, null),
    ('00000000-0000-4000-8000-000000000504', 'cat@example.com', 'Cat Roe', 'cancelled', 'refund_due', 15, 15, 30, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-05T01:00:00Z', 're_cat', '2026-11-06T01:00:00Z'),
    ('00000000-0000-4000-8000-000000000505', 'eve@example.com', 'Eve Unpaid', 'pending', 'unpaid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', null, null, null),
    ('00000000-0000-4000-8000-000000000506', 'dan@example.com', 'Dan Oak', 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-10-31T14:00:00Z', null, null),
    ('00000000-0000-4000-8000-000000000507', 'dan@example.com', 'Dan Oak', 'completed', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-10-31T12:00:00Z', null, null),
    ('00000000-0000-4000-8000-000000000508', 'eve@example.com', 'Eve Unpaid', 'cancelled', 'expired', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', null, null, null);
  insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values
    ('00000000-0000-4000-8000-000000000501', 'sales-a', 'Book A', 2, 22),
    ('00000000-0000-4000-8000-000000000502', 'sales-a', 'Book A', 1, 22),
    ('00000000-0000-4000-8000-000000000502', 'sales-b', 'Book B', 1, 15),
    ('00000000-0000-4000-8000-000000000503', 'sales-a', 'Book A', 1, 22),
    ('00000000-0000-4000-8000-000000000504', 'sales-b', 'Book B', 1, 15),
    ('00000000-0000-4000-8000-000000000505', 'sales-a', 'Book A', 1, 22),
    ('00000000-0000-4000-8000-000000000506', 'sales-a', 'Book A', 1, 22),
    ('00000000-0000-4000-8000-000000000507', 'sales-a', 'Book A', 1, 22),
    ('00000000-0000-4000-8000-000000000508', 'sales-a', 'Book A', 1, 22);
`;

type Sales = {
  totals: Record<string, number>;
  series: Array<Record<string, number | string>>;
  titles: Array<{ product_id: string; title: string; copies: number; goods: number }>;
};

/** jsonb numbers come back as numbers or numeric strings: compare them as numbers. */
const numbers = <T extends Record<string, unknown>>(row: T) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v]));

describe.each(DATABASES)('sales and customers on the $label', ({ open }) => {
  const db = useTestDatabase(open, FIXTURES);
  const asStaff = async <T>(sql: string): Promise<T> => (await db.request('authenticated', STAFF_CLAIMS, `select ${sql} as r`)).rows[0]?.r as T;

  it('November by day: orders, goods, shipping, refunds, net and GST add up to the sums worked out by hand', async () => {
    const sales = await asStaff<Sales>(`public.admin_sales('2026-11-01', '2026-11-30', 'day')`);
    const goods = 44 + 37 + 22 + 15 + 22;
    const shipping = 15 + 15 + 25 + 15 + 15;
    const refunds = 30;
    // Australian orders kept: o1 59 + o2 52 + o6 37 (o4 refunded in full); the British order is an export.
    const taxable = 59 + 52 + 37;
    expect(numbers(sales.totals)).toEqual({
      orders: 5,
      copies: 2 + 2 + 1 + 1, // paid orders only: o4's book went back on the shelf
      goods,
      discounts: 0,
      shipping,
      refunds,
      net: goods + shipping - refunds,
      taxable_sales: taxable,
      export_sales: 47,
      gst: Math.round((taxable / 11) * 100) / 100, // 148 / 11 = 13.4545… → 13.45
    });
    expect(numbers(sales.totals).gst).toBe(13.45);

    expect(sales.series).toHaveLength(30);
    const day = (d: string) => numbers(sales.series.find((s) => String(s.period).startsWith(d))!);
    expect(day('2026-11-01')).toMatchObject({ orders: 1, goods: 22, shipping: 15, refunds: 0, net: 37, gst: 3.36 });
    expect(day('2026-11-02')).toMatchObject({ orders: 2, copies: 2 + 2, goods: 81, shipping: 30, refunds: 0, net: 111, gst: 10.09 });
    expect(day('2026-11-05')).toMatchObject({ orders: 2, copies: 1, goods: 37, shipping: 40, refunds: 30, net: 47, gst: 0 });
    expect(day('2026-11-03')).toMatchObject({ orders: 0, goods: 0, net: 0, gst: 0 });

    expect(sales.titles.map(numbers)).toEqual([
      { product_id: 'sales-a', title: 'Book A', copies: 5, goods: 110 },
      { product_id: 'sales-b', title: 'Book B', copies: 1, goods: 15 },
    ]);
  });

  it('by month, an order paid late on 31 October in Sydney counts in October', async () => {
    const sales = await asStaff<Sales>(`public.admin_sales('2026-10-01', '2026-11-30', 'month')`);
    expect(sales.series.map((s) => [String(s.period).slice(0, 7), numbers(s).orders, numbers(s).net])).toEqual([
      ['2026-10', 1, 37],
      ['2026-11', 5, 195],
    ]);
  });

  it('the orders of a period with their lines, for the CSV; unpaid attempts left out', async () => {
    const { orders } = await asStaff<{ orders: Array<{ id: string; refunded_amount: number; items: unknown[] }> }>(`public.admin_sales_orders('2026-11-01', '2026-11-30')`);
    expect(orders.map((o) => o.id.slice(-3))).toEqual(['506', '501', '502', '503', '504']);
    expect(orders.find((o) => o.id.endsWith('504'))!.refunded_amount).toBe(30);
    expect(orders.find((o) => o.id.endsWith('502'))!.items).toHaveLength(2);
  });

  it('refuses a period that ends before it starts, and an unknown grouping', async () => {
    await expect(asStaff(`public.admin_sales('2026-11-30', '2026-11-01', 'day')`)).rejects.toThrow('Choose a period whose start is on or before its end.');
    await expect(asStaff(`public.admin_sales('2026-11-01', '2026-11-30', 'fortnight')`)).rejects.toThrow('Group sales by day, week, month or year.');
  });

  it('customers: one row per address whatever its case, the latest name, orders, spent less refunds, guests and accounts', async () => {
    const customers = (await asStaff<{ customers: Array<Record<string, unknown>> }>(`public.admin_list_customers('')`)).customers.map(numbers);
    expect(customers.map((c) => [c.email, c.name, c.orders, c.total_spent, c.has_account])).toEqual([
      ['cat@example.com', 'Cat Roe', 1, 0, false],
      ['ann@example.com', 'Ann Lee-Smith', 2, 59 + 47, false],
      ['bob@example.com', 'Bob Ng', 1, 52, true],
      ['dan@example.com', 'Dan Oak', 2, 37 + 37, false],
    ]);
    expect((await asStaff<{ customers: Array<{ email: string }> }>(`public.admin_list_customers('LEE')`)).customers.map((c) => c.email)).toEqual(['ann@example.com']);
    expect((await asStaff<{ customers: Array<{ email: string }> }>(`public.admin_list_customers('eve')`)).customers.map((c) => c.email)).toEqual([]);

    const ann = numbers(await asStaff<Record<string, unknown>>(`public.admin_get_customer('ANN@example.com')`));
    expect(ann).toMatchObject({ email: 'ann@example.com', name: 'Ann Lee-Smith', orders: 2, total_spent: 106 });
    expect((ann.order_list as Array<{ id: string }>).map((o) => o.id.slice(-3))).toEqual(['503', '501']);
    expect(await asStaff(`public.admin_get_customer('eve@example.com')`)).toBeNull();
  });

  it('a signed-in shopper gets none of it', async () => {
    for (const sql of [
      `public.admin_sales('2026-11-01', '2026-11-30', 'day')`,
      `public.admin_sales_orders('2026-11-01', '2026-11-30')`,
      `public.admin_list_customers('')`,
      `public.admin_get_customer('bob@example.com')`,
    ]) {
      const refused = await db.request('authenticated', { sub: SHOPPER }, `select ${sql}`).then(
        () => false,
        (error: unknown) => isPermissionError(error),
      );
      expect(refused, sql).toBe(true);
    }
  });
});
