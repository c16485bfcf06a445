/**
 * Fixing an order from the back office, on the embedded backend and on PostgreSQL 17: the internal note, the
 * delivery address corrected until the parcel ships (the old one kept in the history), and a delivery marked by
 * mistake taken back to shipped. Staff only.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES, shopperAndStaffSql, isPermissionError, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000006a1';
const SHOPPER = '00000000-0000-4000-8000-0000000006b0';
const PAID = '00000000-0000-4000-8000-000000000601';
const SHIPPED = '00000000-0000-4000-8000-000000000602';
const DELIVERED = '00000000-0000-4000-8000-000000000603';

const FIXTURES = `
  ${shopperAndStaffSql({ id: SHOPPER, email: 'buyer@example.com' }, { id: STAFF, email: 'fixer@example.com' })}
  insert into public.orders (id, customer_email, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at, tracking_number, tracking_carrier, shipped_at, delivered_at) values
    ('${PAID}', 'buyer@example.com', 'processing', 'paid', 22, 25, 47, '{"addressLine1": "1 Old Rd", "city": "London", "postalCode": "N1 1AA", "country": "GB", "phone": "+44 20 7946 0000"}', '{}', now(), null, null, null, null),
    ('${SHIPPED}', 'buyer@example.com', 'shipped', 'paid', 22, 15, 37, '{"line1": "2 Sent St", "city": "Sydney", "postal_code": "2000", "country": "AU"}', '{}', now(), '33ABC1234567', 'Australia Post', now(), null),
    ('${DELIVERED}', 'buyer@example.com', 'completed', 'paid', 22, 15, 37, '{"line1": "3 Done Ave", "city": "Sydney", "postal_code": "2000", "country": "AU"}', '{}', now(), '33ABC7654321', 'Australia Post', now(), now());
`;

describe.each(DATABASES)('order fixes on the $label', ({ open }) => {
  const db = useTestDatabase(open, FIXTURES);
  const asStaff = async <T>(sql: string): Promise<T> => (await db.request('authenticated', { sub: STAFF }, `select ${sql} as r`, { commit: true })).rows[0]?.r as T;
  const order = async (id: string) =>
    (
      await db.admin.query<Record<string, unknown>>(
        `select status, shipping_address, delivered_at, (select note from public.order_notes n where n.order_id = o.id) as internal_note from public.orders o where id = '${id}'`,
      )
    ).rows[0]!;
  const history = async (id: string) =>
    (await db.admin.query<{ action: string; detail: string; actor: string }>(`select action, detail, actor from public.order_events where order_id = '${id}' order by id`)).rows;

  it('an internal note is saved, recorded with who wrote it, and saving it unchanged records nothing', async () => {
    expect(await asStaff(`public.admin_set_order_note('${PAID}', '  Gift: no invoice in the parcel ')`)).toBe(true);
    expect(await asStaff(`public.admin_set_order_note('${PAID}', 'Gift: no invoice in the parcel')`)).toBe(false);
    expect((await order(PAID)).internal_note).toBe('Gift: no invoice in the parcel');
    expect(await history(PAID)).toEqual([{ action: 'note_changed', detail: 'Gift: no invoice in the parcel', actor: 'fixer@example.com' }]);
    await expect(asStaff(`public.admin_set_order_note('${PAID}', repeat('x', 2001))`)).rejects.toThrow('A note can be up to 2000 characters.');
    expect(((await asStaff<Record<string, unknown>>(`public.admin_get_order('${PAID}')`)) as { internal_note: string }).internal_note).toBe('Gift: no invoice in the parcel');
    // The buyer reads their own order's row, and the note is not in it.
    const own = await db.request('authenticated', { sub: SHOPPER }, `select * from public.orders where id = '${PAID}'`);
    expect(Object.keys(own.rows[0] ?? {})).not.toContain('internal_note');
  });

  it('the delivery address is corrected before shipping, the country and phone kept, the old address in the history', async () => {
    const result = await asStaff(
      `public.admin_change_address('${PAID}', '{"addressLine1": " 12  Abbey Road ", "addressLine2": "", "city": "London", "state": "", "postalCode": "NW8 9AY", "country": "US"}')`,
    );
    expect(result).toBe('changed');
    expect((await order(PAID)).shipping_address).toEqual({
      addressLine1: '12 Abbey Road',
      addressLine2: '',
      city: 'London',
      state: '',
      postalCode: 'NW8 9AY',
      country: 'GB',
      phone: '+44 20 7946 0000',
    });
    expect((await history(PAID)).at(-1)).toEqual({ action: 'address_changed', detail: 'was: 1 Old Rd, London N1 1AA, GB', actor: 'fixer@example.com' });
    expect(await asStaff(`public.admin_change_address('${PAID}', '{"addressLine1": "12 Abbey Road", "city": "London", "postalCode": "NW8 9AY"}')`)).toBe('unchanged');
    await expect(asStaff(`public.admin_change_address('${PAID}', '{"addressLine1": "", "city": "London"}')`)).rejects.toThrow('The address needs its first line and its city or suburb.');
    await expect(asStaff(`public.admin_change_address('${PAID}', '{"addressLine1": "1 Rd\\u0007", "city": "London"}')`)).rejects.toThrow('Each address line is one line of up to 200 characters.');
  });

  it('a shipped order keeps its address', async () => {
    expect(await asStaff(`public.admin_change_address('${SHIPPED}', '{"addressLine1": "9 Elsewhere", "city": "Perth"}')`)).toBe('not_editable');
    expect((await order(SHIPPED)).shipping_address).toMatchObject({ line1: '2 Sent St' });
  });

  it('a delivered order goes back to shipped, once; a shipped one has nothing to undo', async () => {
    expect(await asStaff(`public.admin_undo_delivered('${DELIVERED}')`)).toBe('shipped');
    expect(await order(DELIVERED)).toMatchObject({ status: 'shipped', delivered_at: null });
    expect(await asStaff(`public.admin_undo_delivered('${DELIVERED}')`)).toBe('not_delivered');
    expect((await history(DELIVERED)).map((e) => e.action)).toEqual(['delivery_undone']);
  });

  it('a signed-in shopper can do none of it', async () => {
    for (const sql of [`public.admin_set_order_note('${PAID}', 'x')`, `public.admin_change_address('${PAID}', '{"addressLine1": "x", "city": "y"}')`, `public.admin_undo_delivered('${SHIPPED}')`]) {
      const refused = await db.request('authenticated', { sub: SHOPPER }, `select ${sql}`).then(
        () => false,
        (error: unknown) => isPermissionError(error),
      );
      expect(refused, sql).toBe(true);
    }
  });
});
