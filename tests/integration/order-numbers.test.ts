/**
 * An order's number is its own, given by the database: 1001 first, then each order the next, never given twice
 * (not after a delete, not after a rolled-back insert), never written or changed by hand, and written the same way
 * by the database (order_label) and the TypeScript (orderNumber), as an invoice's is (invoice_label, invoiceNumber). On PostgreSQL 17, 100,000 generated orders get
 * 100,000 numbers, where the first eight hex digits of their ids, the number before, gave two of them one; and the
 * migration numbers the orders a database already holds in the order they were placed.
 */
import { describe, expect, inject, it } from 'vitest';
import { invoiceNumber } from '../../src/features/on-account/rules';
import { orderNumber } from '../../src/lib/format';
import { createScaleDatabase, generateBareOrdersSql } from '../load/back-office-orders';
import { DATABASES, useTestDatabase } from '../helpers/test-databases';

const placeSql = (email: string, createdAt = 'now()') =>
  `insert into public.orders (customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, created_at)
     values ('${email}', 10, 0, 10, '{}', '{}', ${createdAt}) returning id, number`;

describe.each(DATABASES)('order numbers on the $label', ({ open }) => {
  const db = useTestDatabase(open);

  const place = async (email: string) => (await db.admin.query<{ id: string; number: number }>(placeSql(email))).rows[0]!;

  it('the first order is 1001 and each next one the number after; a deleted or rolled-back order’s number is not given again', async () => {
    const first = await place('first@example.com');
    const second = await place('second@example.com');
    expect(first.number).toBe(1001);
    expect(second.number).toBe(1002);
    await db.admin.exec(`delete from public.orders where id = '${second.id}'`);
    await expect(
      db.admin.transaction(async (tx) => {
        await tx.query(placeSql('rolled-back@example.com'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await place('third@example.com')).number).toBe(1004);
  });

  it('a number is never written by hand nor changed, the server role included', async () => {
    const order = await place('fixed@example.com');
    await expect(
      db.admin.exec(`insert into public.orders (number, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method)
      values (${order.number}, 'copy@example.com', 10, 0, 10, '{}', '{}')`),
    ).rejects.toMatchObject({ code: '428C9' });
    const change = db.request('service_role', {}, `update public.orders set number = default where id = '${order.id}'`, { commit: true });
    await expect(change).rejects.toMatchObject({ code: '42501', message: `Order ${order.number} keeps its number.` });
    expect((await db.admin.query(`select number from public.orders where id = $1`, [order.id])).rows).toEqual([{ number: order.number }]);
  });

  it('the database and the pages write a number alike, an order’s and an invoice’s', async () => {
    const { rows } = await db.admin.query<{ label: string }>(`select public.order_label(1001) as label`);
    expect(rows[0]!.label).toBe(orderNumber(1001));
    const numbers = [1, 42, 999, 9999, 10000, 123456];
    const invoices = await db.admin.query<{ label: string }>(`select public.invoice_label(n) as label from unnest($1::integer[]) n`, [numbers]);
    expect(invoices.rows.map((r) => r.label)).toEqual(numbers.map(invoiceNumber));
  });
});

describe('order numbers at scale, on PostgreSQL 17', () => {
  it('100,000 generated orders get 100,000 numbers; the first eight hex digits of their ids gave two of them one', async () => {
    const db = await createScaleDatabase(inject('postgres'), `order_numbers_${process.pid}`, { fromTemplate: true });
    try {
      // The address and name searches' trigram indexes take most of the insert's time and nothing of the numbering.
      await db.admin.exec(`drop index public.orders_email_trgm_idx; drop index public.orders_names_trgm_idx; ${generateBareOrdersSql(100_000)}`);
      const { rows } = await db.admin.query<{ orders: number; numbers: number; id_starts: number; lowest: number; highest: number }>(
        `select count(*)::int as orders, count(distinct number)::int as numbers, count(distinct upper(left(id::text, 8)))::int as id_starts,
           min(number) as lowest, max(number) as highest from public.orders`,
      );
      expect(rows[0]).toEqual({ orders: 100_000, numbers: 100_000, id_starts: 99_998, lowest: 1001, highest: 101_000 });
    } finally {
      await db.drop();
    }
  }, 120_000);
});
