/**
 * Quantity prices and promotion codes in the database, on the embedded backend and on PostgreSQL 17: the sync
 * writes a book's tiers and the database refuses tiers that do not fall or are not below the book's price; a
 * code's check answers only what applies; create_order takes a code's use under its row lock, so 24 shoppers
 * racing for the last 3 uses (on 24 connections of PostgreSQL) get exactly 3 orders and 21 clear refusals; a
 * cancelled order gives its use back; the staff functions create, list and switch codes off. How long an unpaid
 * order holds its use: promotion-code-holds.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { shopDay } from '@/lib/format';
import { callFunction, DATABASES, isPermissionError, staffUserSql, useTestDatabase } from '../helpers/test-databases';

const STAFF_USER = '00000000-0000-4000-8000-0000000000cc';
const STAFF = { sub: STAFF_USER };
const BOOK = { id: 'class-set', title: 'Class Set', price: 22, image_url: '/covers/x.png', category: 'Books', weight: 300, dimensions: { length: 1, width: 1, height: 1 } };

const TIERS = [
  { min_quantity: 10, price: 20 },
  { min_quantity: 25, price: 18 },
];

describe.each(DATABASES)('quantity prices and promotion codes on the $label', ({ open }) => {
  const db = useTestDatabase(open, staffUserSql(STAFF_USER, 'publisher@example.com'));

  const call = <T>(fn: string, args: unknown[], role: 'service_role' | 'authenticated' = 'service_role', claims: Record<string, unknown> = {}) => callFunction<T>(db, fn, args, role, claims);
  const sync = (books: unknown[]) => call<{ synced: string[] }>('sync_catalog', [JSON.stringify(books)]);
  const tiersOf = async (id: string) =>
    (await db.admin.query<{ min_quantity: number; price: string }>(`select min_quantity, price::text from public.product_quantity_prices where product_id = $1 order by 1`, [id])).rows;

  it('the catalog sync writes a book’s quantity prices and replaces them on the next sync', async () => {
    await sync([{ ...BOOK, quantity_prices: TIERS }]);
    expect(await tiersOf(BOOK.id)).toEqual([
      { min_quantity: 10, price: '20.00' },
      { min_quantity: 25, price: '18.00' },
    ]);
    await sync([{ ...BOOK, quantity_prices: [{ min_quantity: 5, price: 21 }] }]);
    expect(await tiersOf(BOOK.id)).toEqual([{ min_quantity: 5, price: '21.00' }]);
    await sync([{ ...BOOK, quantity_prices: TIERS }]);
  });

  it('refuses tiers that are not below the book’s price or do not fall as the copies rise, and a price cut below a tier', async () => {
    await expect(sync([{ ...BOOK, quantity_prices: [{ min_quantity: 10, price: 22 }] }])).rejects.toMatchObject({ code: '23514' });
    await expect(sync([{ ...BOOK, quantity_prices: [TIERS[0], { min_quantity: 25, price: 20 }] }])).rejects.toMatchObject({ code: '23514' });
    await expect(sync([{ ...BOOK, price: 19, quantity_prices: TIERS }])).rejects.toMatchObject({ code: '23514' });
    await expect(db.admin.exec(`update public.products set price = 17 where id = '${BOOK.id}'`)).rejects.toMatchObject({ code: '23514' });
    // Nothing of a refused sync was kept.
    expect(await tiersOf(BOOK.id)).toHaveLength(2);
  });

  it('shoppers read the quantity prices of books for sale, never of one taken off sale', async () => {
    const read = async () => (await db.request('anon', {}, `select min_quantity from public.product_quantity_prices where product_id = '${BOOK.id}'`)).rows.length;
    expect(await read()).toBe(2);
    await db.admin.exec(`update public.products set for_sale = false where id = '${BOOK.id}'`);
    expect(await read()).toBe(0);
    await db.admin.exec(`update public.products set for_sale = true where id = '${BOOK.id}'`);
  });

  const newCode = (code: Record<string, unknown>) => call<string>('admin_create_code', [JSON.stringify(code)], 'authenticated', STAFF);
  const check = (code: string, subtotal: number) => call<Record<string, unknown>>('check_promotion_code', [code, subtotal]);

  it('staff create codes; the check answers only what applies, and why not', async () => {
    await newCode({ code: 'parish10', kind: 'percent', amount: 10, min_subtotal: 100, max_uses: 5 });
    await newCode({ code: 'FIVE', kind: 'amount', amount: 5 });
    const today = shopDay();
    const inAWeek = shopDay(new Date(Date.now() + 7 * 86_400_000));
    const lastMonth = shopDay(new Date(Date.now() - 40 * 86_400_000));
    const lastWeek = shopDay(new Date(Date.now() - 7 * 86_400_000));
    await newCode({ code: 'LATER', kind: 'amount', amount: 5, starts_on: inAWeek });
    await newCode({ code: 'GONE', kind: 'amount', amount: 5, starts_on: lastMonth, ends_on: lastWeek });
    await newCode({ code: 'TODAY', kind: 'amount', amount: 5, starts_on: today, ends_on: today });

    expect(await check('parish10', 450)).toEqual({ status: 'ok', code: 'PARISH10', kind: 'percent', amount: 10, discount: 45 });
    expect(await check(' Parish10 ', 90)).toEqual({ status: 'spend_more', code: 'PARISH10', min_subtotal: 100, shortfall: 10 });
    expect(await check('FIVE', 3)).toMatchObject({ status: 'ok', discount: 3 });
    expect(await check('NOPE', 50)).toEqual({ status: 'not_valid' });
    // Not started yet: answered as a code that does not exist, without its date.
    expect(await check('LATER', 50)).toEqual({ status: 'not_valid' });
    // Ended: answered as a code that does not exist too.
    expect(await check('GONE', 50)).toEqual({ status: 'not_valid' });
    expect(await check('TODAY', 50)).toMatchObject({ status: 'ok' });

    const codes = await call<Array<{ code: string; uses: number; max_uses: number | null }>>('admin_list_codes', [], 'authenticated', STAFF);
    expect(codes.map((c) => c.code).sort()).toEqual(['FIVE', 'GONE', 'LATER', 'PARISH10', 'TODAY']);
    await expect(newCode({ code: 'FIVE', kind: 'amount', amount: 1 })).rejects.toThrow(/already a code FIVE/);
    await expect(newCode({ code: 'HALF', kind: 'percent', amount: 150 })).rejects.toMatchObject({ code: '23514' });

    const five = (await db.admin.query<{ id: string }>(`select id from public.promotion_codes where code = 'FIVE'`)).rows[0]!.id;
    expect(await call<boolean>('admin_set_code_active', [five, false], 'authenticated', STAFF)).toBe(true);
    expect(await check('FIVE', 50)).toEqual({ status: 'not_valid' });
  });

  it('shoppers and non-staff never read the codes table nor call the code functions', async () => {
    for (const [role, claims] of [
      ['anon', {}],
      ['authenticated', { sub: '00000000-0000-4000-8000-00000000000a' }],
    ] as const) {
      const attempt = async (sql: string) => {
        try {
          return (await db.request(role, claims, sql)).rows.length > 0;
        } catch (error) {
          if (isPermissionError(error)) return false;
          throw error;
        }
      };
      expect(await attempt(`select code from public.promotion_codes`)).toBe(false);
      expect(await attempt(`select public.check_promotion_code('PARISH10', 100)`)).toBe(false);
      expect(await attempt(`select public.admin_list_codes()`)).toBe(false);
    }
  });

  const order = (buyer: string, subtotal: number, discount: number, code: string | null) => ({
    customer_email: `${buyer}@example.com`,
    customer_name: buyer,
    subtotal_amount: subtotal,
    discount_amount: discount,
    promotion_code: code,
    shipping_amount: 0,
    total_amount: subtotal - discount,
    shipping_address: { line1: '1 Test St' },
    shipping_method: { name: 'AU Standard Courier' },
    payment_provider: 'stripe',
  });
  const items = [{ product_id: BOOK.id, title: BOOK.title, quantity: 25, price_at_time: 18 }];

  it('an order keeps its code and discount; a wrong discount or a code that does not apply is refused, and nothing is written', async () => {
    const id = await call<string>('create_order', [JSON.stringify(order('tier-buyer', 450, 45, 'parish10')), JSON.stringify(items)]);
    const { rows } = await db.admin.query<Record<string, string>>(
      `select promotion_code, discount_amount::text, total_amount::text, (select price_at_time::text from public.order_items where order_id = o.id) as unit from public.orders o where id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ promotion_code: 'PARISH10', discount_amount: '45.00', total_amount: '405.00', unit: '18.00' });
    await expect(call('create_order', [JSON.stringify(order('cheat', 450, 100, 'PARISH10')), JSON.stringify(items)])).rejects.toThrow(/promotion code refused: changed/);
    await expect(call('create_order', [JSON.stringify(order('small', 90, 9, 'PARISH10')), JSON.stringify(items)])).rejects.toThrow(/promotion code refused: spend_more/);
    await expect(call('create_order', [JSON.stringify(order('off', 50, 5, 'FIVE')), JSON.stringify(items)])).rejects.toThrow(/promotion code refused: not_valid/);
    // A total that does not add up (goods less the code plus shipping) is refused by the table itself.
    await expect(call('create_order', [JSON.stringify({ ...order('sum', 450, 45, 'PARISH10'), total_amount: 450 }), JSON.stringify(items)])).rejects.toMatchObject({ code: '23514' });
    const { rows: written } = await db.admin.query(`select 1 from public.orders where customer_email in ('cheat@example.com', 'small@example.com', 'off@example.com', 'sum@example.com')`);
    expect(written).toHaveLength(0);
  });

  it('24 shoppers race for a code’s last 3 uses: every checkout is placed (none holds a use); 3 payments take them, 21 are refunded', async () => {
    await newCode({ code: 'LAST3', kind: 'amount', amount: 10, max_uses: 3 });
    await db.admin.exec(`update public.products set stock = 1000 where id = '${BOOK.id}'`);
    const SHOPPERS = 24;
    const placed = await Promise.all(Array.from({ length: SHOPPERS }, (_, i) => call<string>('create_order', [JSON.stringify(order(`racer${i}`, 450, 10, 'LAST3')), JSON.stringify(items)])));
    expect(new Set(placed).size).toBe(SHOPPERS);
    // A cancelled order takes no use.
    expect(await call<string>('cancel_unpaid_order', [placed[0]])).toBe('cancelled');
    expect(await check('LAST3', 450)).toMatchObject({ status: 'ok', discount: 10 });
    // Everyone else pays at once: the code's row lock serves them one by one.
    const results = await Promise.all(placed.slice(1).map((id) => call<string>('fulfil_order', [id])));
    expect(results.filter((r) => r === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r === 'code_used_up')).toHaveLength(SHOPPERS - 4);
    expect(await check('LAST3', 450)).toEqual({ status: 'not_valid' });
    const codes = await call<Array<{ code: string; uses: number; paid_orders: number; discount_given: number }>>('admin_list_codes', [], 'authenticated', STAFF);
    expect(codes.find((c) => c.code === 'LAST3')).toMatchObject({ uses: 3, paid_orders: 3, discount_given: 30 });
  });

  it('the sales figures show the codes’ discounts, and net takings are the goods less them plus shipping less refunds', async () => {
    const today = shopDay();
    const sales = await call<{ totals: { goods: number; discounts: number; shipping: number; refunds: number; net: number } }>('admin_sales', [today, today, 'day'], 'authenticated', STAFF);
    expect(sales.totals.discounts).toBeGreaterThanOrEqual(10);
    expect(sales.totals.goods - sales.totals.discounts + sales.totals.shipping - sales.totals.refunds).toBeCloseTo(sales.totals.net, 2);
    const { orders } = await call<{ orders: Array<{ promotion_code: string | null; discount_amount: number }> }>('admin_sales_orders', [today, today], 'authenticated', STAFF);
    expect(orders.some((o) => o.promotion_code === 'LAST3' && Number(o.discount_amount) === 10)).toBe(true);
  });
});
