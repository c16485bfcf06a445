/**
 * Customs data on both databases: the catalog sync writes each book's customs columns (sync_customs, the service
 * role only), the columns refuse a malformed tariff or country code, and an order's customs lines carry what the
 * buyer paid per copy (the quantity price and the promotion code), read through the service role as the
 * functions read them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { readCatalog } from '@/features/catalog/book-files';
import { splitCustomsValue } from '@/features/customs/declaration';
import { CustomsDataError, orderCustomsLines, paidLineCents, paidUnitValue } from '../../functions/_lib/customs';
import { DATABASES, type TestDatabase, useTestDatabase } from '../helpers/test-databases';

const ORDER = '00000000-0000-4000-8000-0000000c0001';
const BARE_ORDER = '00000000-0000-4000-8000-0000000c0002';
const CODE = '00000000-0000-4000-8000-0000000c00c1';

/**
 * The few supabase-js query shapes orderCustomsLines uses, run as SQL in the service role: what PostgREST does
 * with them, so the test reads the rows, grants and types each database really has.
 */
const NUMERIC = new Set(['subtotal_amount', 'discount_amount', 'price_at_time', 'weight']);

function serviceClientOn(db: TestDatabase): SupabaseClient {
  const from = (table: string) => {
    let columns = '*';
    const where: string[] = [];
    const params: unknown[] = [];
    let orderBy = '';
    const run = async () => {
      try {
        const sql = `select ${columns} from public.${table}${where.length ? ` where ${where.join(' and ')}` : ''}${orderBy}`;
        const { rows } = await db.request('service_role', {}, sql, { params });
        // PostgREST sends numeric columns as JSON numbers.
        return { data: rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, NUMERIC.has(k) && v !== null ? Number(v) : v]))), error: null };
      } catch (error) {
        return { data: null, error: { message: (error as Error).message } };
      }
    };
    const builder = {
      select(list: string) {
        columns = list;
        return builder;
      },
      eq(column: string, value: unknown) {
        params.push(value);
        where.push(`${column} = $${params.length}`);
        return builder;
      },
      in(column: string, values: unknown[]) {
        params.push(values);
        where.push(`${column} = any($${params.length})`);
        return builder;
      },
      order(column: string) {
        orderBy = ` order by ${column}`;
        return builder;
      },
      async maybeSingle() {
        const result = await run();
        return { data: result.data?.[0] ?? null, error: result.error };
      },
      // biome-ignore lint/suspicious/noThenProperty: supabase-js query builders are awaited
      then(resolve: (value: unknown) => unknown, reject: (reason: unknown) => unknown) {
        return run().then(resolve, reject);
      },
    };
    return builder;
  };
  return { from } as unknown as SupabaseClient;
}

describe('a copy’s paid value', () => {
  it('is the price per copy less its share of the code', () => {
    expect(paidUnitValue(18, 450, 0)).toBe(18);
    expect(paidUnitValue(18, 450, 45)).toBe(16.2);
    expect(paidUnitValue(22, 22, 5)).toBe(17);
    // A code never takes a copy below nothing.
    expect(paidUnitValue(22, 22, 30)).toBe(0);
  });
});

describe('each line’s paid value, to the cent', () => {
  it('3 copies at $22 with $10 off are declared at $56.00, as 2 × $18.67 and 1 × $18.66', () => {
    expect(paidLineCents([{ unitPrice: 22, quantity: 3 }], 10)).toEqual([5600]);
    expect(splitCustomsValue(3, 5600)).toEqual([
      { quantity: 2, unitCents: 1867 },
      { quantity: 1, unitCents: 1866 },
    ]);
    expect(splitCustomsValue(25, 40500)).toEqual([{ quantity: 25, unitCents: 1620 }]);
  });

  it('the lines add up to what was paid for the goods, whatever the code', () => {
    for (const [lines, discount] of [
      [
        [
          { unitPrice: 22, quantity: 3 },
          { unitPrice: 12.95, quantity: 1 },
          { unitPrice: 9.99, quantity: 7 },
        ],
        10,
      ],
      [
        [
          { unitPrice: 18, quantity: 1 },
          { unitPrice: 18, quantity: 1 },
          { unitPrice: 18, quantity: 1 },
        ],
        10,
      ],
      [[{ unitPrice: 22, quantity: 1 }], 30],
    ] as const) {
      const paid = paidLineCents(lines, discount);
      const goods = lines.reduce((sum, line) => sum + Math.round(line.unitPrice * 100) * line.quantity, 0);
      expect(paid.reduce((sum, cents) => sum + cents, 0)).toBe(Math.max(goods - discount * 100, 0));
      for (const [i, cents] of paid.entries()) {
        const split = splitCustomsValue(lines[i]!.quantity, cents);
        expect(split.reduce((sum, part) => sum + part.quantity * part.unitCents, 0)).toBe(cents);
      }
    }
  });
});

describe.each(DATABASES)('customs data on the $label', ({ open }) => {
  const db = useTestDatabase(open, `insert into public.products (id, title, price, stock, weight) values ('bare-book', 'Bare Book', 12, 5, 250)`);

  it('the catalog sync writes the book file’s customs data, and only the service role may run it', async () => {
    const books = JSON.stringify(readCatalog());
    const sync = `select public.sync_customs($1::jsonb) as changed`;
    for (const role of ['anon', 'authenticated'] as const) {
      await expect(db.request(role, {}, sync, { params: [books] })).rejects.toMatchObject({ code: '42501' });
    }
    await db.admin.exec(`update public.products set customs_description = null, hs_code = null, origin_country = null where id = 'book-10-reasons'`);
    const { rows } = await db.request('service_role', {}, sync, { params: [books], commit: true });
    expect(rows[0]?.changed).toBe(1);
    const { rows: product } = await db.admin.query(`select customs_description, hs_code, origin_country from public.products where id = 'book-10-reasons'`);
    expect(product[0]).toEqual({ customs_description: "Printed children's picture book", hs_code: '4903.00', origin_country: 'AU' });
    // Nothing changed: nothing written.
    expect((await db.request('service_role', {}, sync, { params: [books], commit: true })).rows[0]?.changed).toBe(0);
  });

  it('refuses a tariff code or a country that is not one', async () => {
    for (const set of [`hs_code = '4903'`, `hs_code = '49.03.00'`, `hs_code = '4903.0a'`, `origin_country = 'au'`, `origin_country = 'AUS'`]) {
      await expect(db.admin.exec(`update public.products set ${set} where id = 'bare-book'`), set).rejects.toMatchObject({ code: '23514' });
    }
    for (const code of ['4903.00', '4901.99', '4903.00.00', '4903.0000']) {
      await db.admin.exec(`update public.products set hs_code = '${code}' where id = 'bare-book'`);
    }
    await db.admin.exec(`update public.products set hs_code = null where id = 'bare-book'`);
  });

  it('an order’s lines carry what was paid per copy: the quantity price less its share of the code', async () => {
    // 25 copies at the quantity price of 18 (not the list price of 22), then 10% off the goods.
    await db.admin.exec(`
      insert into public.promotion_codes (id, code, kind, amount, created_by) values ('${CODE}', 'PARISH10', 'percent', 10, 'publisher@example.com');
      insert into public.orders (id, customer_email, subtotal_amount, discount_amount, promotion_code_id, promotion_code, shipping_amount, total_amount, shipping_address, shipping_method)
        values ('${ORDER}', 'us@example.com', 450, 45, '${CODE}', 'PARISH10', 60, 465, '{"country": "US"}', '{"name": "International Standard"}');
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${ORDER}', 'book-10-reasons', '10 Reasons', 25, 18);`);
    const lines = await orderCustomsLines(serviceClientOn(db), ORDER);
    expect(lines).toEqual([{ description: "Printed children's picture book", quantity: 25, valueAud: 405, unitValueAud: 16.2, hsCode: '4903.00', originCountry: 'AU', unitWeightGrams: 300 }]);
  });

  it('a UK order for 3 copies with $10 off is declared at $56.00, what was paid for the goods', async () => {
    const uk = '00000000-0000-4000-8000-0000000c0003';
    await db.admin.exec(`
      insert into public.orders (id, customer_email, subtotal_amount, discount_amount, promotion_code_id, promotion_code, shipping_amount, total_amount, shipping_address, shipping_method)
        values ('${uk}', 'uk@example.com', 66, 10, '${CODE}', 'PARISH10', 40, 96, '{"country": "GB"}', '{"name": "International Standard"}');
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${uk}', 'book-10-reasons', '10 Reasons', 3, 22);`);
    const lines = await orderCustomsLines(serviceClientOn(db), uk);
    expect(lines).toEqual([expect.objectContaining({ quantity: 3, valueAud: 56, unitValueAud: 18.67 })]);
  });

  it('names the book that lacks customs data, and an order that is not there', async () => {
    await db.admin.exec(`
      insert into public.orders (id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method)
        values ('${BARE_ORDER}', 'us@example.com', 34, 60, 94, '{"country": "US"}', '{"name": "International Standard"}');
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values
        ('${BARE_ORDER}', 'book-10-reasons', '10 Reasons', 1, 22), ('${BARE_ORDER}', 'bare-book', 'Bare Book', 1, 12);`);
    const error = await orderCustomsLines(serviceClientOn(db), BARE_ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CustomsDataError);
    expect((error as CustomsDataError).productIds).toEqual(['bare-book']);
    expect((error as Error).message).toMatch(/missing for bare-book/);
    await expect(orderCustomsLines(serviceClientOn(db), '00000000-0000-4000-8000-0000000c0099')).rejects.toBeInstanceOf(CustomsDataError);
  });
});
