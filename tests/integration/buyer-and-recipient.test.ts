/**
 * The buyer and a gift's recipient are two people. In the database, on the embedded backend and on PostgreSQL 17:
 * customers are the buyers (named by the payer's name, never by a gift's recipient), the accountant's list carries
 * the buyer beside the delivery name, every order carries its buyer as that rule names them (orders.bought_by), and an
 * order's tax figures follow the sales' GST rule. Through the functions:
 * paying a gift on the TEST page keeps the payer's name as the buyer's, the recipient's as the delivery name, and
 * the emails say who is who.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { useTestShop } from '../helpers/shop';
import { DATABASES, staffUserSql, useTestDatabase } from '../helpers/test-databases';

const STAFF = '00000000-0000-4000-8000-0000000007a1';
const GIFT = '00000000-0000-4000-8000-000000000701';
const OWN = '00000000-0000-4000-8000-000000000702';
const OLD_GIFT = '00000000-0000-4000-8000-000000000703';
const EXPORT = '00000000-0000-4000-8000-000000000704';

/**
 * nonna@ bought a gift for Lucy (paid as Maria Rossi), then a book for herself (delivered to Maria Rossi);
 * zed@ sent a gift before buyers' names were kept; gb@ bought for delivery to London, refunded $11 in part.
 */
const FIXTURES = `
  ${staffUserSql(STAFF, 'buyer-staff@example.com')}
  insert into public.orders (id, customer_email, customer_name, buyer_name, is_gift, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at) values
    ('${GIFT}', 'nonna@example.com', 'Lucy Recipient', 'Maria Rossi', true, 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-10T01:00:00Z'),
    ('${OWN}', 'nonna@example.com', 'Maria Rossi', null, false, 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-09T01:00:00Z'),
    ('${OLD_GIFT}', 'zed@example.com', 'Tom Recipient', null, true, 'processing', 'paid', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}', '2026-11-11T01:00:00Z'),
    ('${EXPORT}', 'gb@example.com', 'Gwen Brit', 'Gwen Brit', false, 'processing', 'paid', 22, 25, 47, '{"country": "gb"}', '{"name": "International"}', '2026-11-12T01:00:00Z');
  insert into public.order_refunds (order_id, amount, reason, status, provider_refund_id, actor, settled_at) values
    ('${EXPORT}', 11, 'Damaged cover', 'succeeded', 're_part', 'buyer-staff@example.com', '2026-11-13T01:00:00Z');
`;

describe.each(DATABASES)('buyers and recipients on the $label', ({ open }) => {
  const db = useTestDatabase(open, FIXTURES);
  const asStaff = async <T>(sql: string): Promise<T> => (await db.request('authenticated', { sub: STAFF }, `select ${sql} as r`)).rows[0]?.r as T;

  it('customers are the buyers: named by the payer, never by a gift’s recipient, and found by either name', async () => {
    const { customers } = await asStaff<{ customers: Array<{ email: string; name: string; orders: number }> }>(`public.admin_list_customers('')`);
    expect(customers.map((c) => [c.email, c.name, Number(c.orders)])).toEqual([
      ['gb@example.com', 'Gwen Brit', 1],
      ['zed@example.com', '', 1],
      ['nonna@example.com', 'Maria Rossi', 2],
    ]);
    expect((await asStaff<{ customers: Array<{ email: string }> }>(`public.admin_list_customers('lucy')`)).customers.map((c) => c.email)).toEqual(['nonna@example.com']);
    expect((await asStaff<{ customers: Array<{ email: string }> }>(`public.admin_list_customers('maria')`)).customers.map((c) => c.email)).toEqual(['nonna@example.com']);
    const nonna = await asStaff<{ name: string; order_list: Array<{ id: string; customer_name: string; buyer_name: string; is_gift: boolean }> }>(`public.admin_get_customer('Nonna@example.com')`);
    expect(nonna.name).toBe('Maria Rossi');
    expect(nonna.order_list.map((o) => [o.id, o.buyer_name, o.customer_name, o.is_gift])).toEqual([
      [GIFT, 'Maria Rossi', 'Lucy Recipient', true],
      [OWN, 'Maria Rossi', 'Maria Rossi', false],
    ]);
  });

  it('the accountant’s list carries the buyer beside the delivery name', async () => {
    const { orders: rows } = await asStaff<{ orders: Array<{ id: string; buyer_name: string | null; delivery_name: string; is_gift: boolean; gst_applies: boolean }> }>(
      `public.admin_sales_orders('2026-11-01', '2026-11-30')`,
    );
    // GST as public.gst_applies answers it, which the CSV's tax type reads.
    expect(rows.map((r) => [r.id, r.buyer_name, r.delivery_name, r.is_gift, r.gst_applies])).toEqual([
      [OWN, 'Maria Rossi', 'Maria Rossi', false, true],
      [GIFT, 'Maria Rossi', 'Lucy Recipient', true, true],
      [OLD_GIFT, null, 'Tom Recipient', true, true],
      [EXPORT, 'Gwen Brit', 'Gwen Brit', false, false],
    ]);
  });

  it('an order’s tax figures follow the sales’ rule: one eleventh for Australia, none for an export, and each refund with its GST', async () => {
    const figures = async (id: string) => (await db.request('service_role', {}, `select public.order_tax_figures('${id}') as r`)).rows[0]?.r as Record<string, unknown>;
    expect(await figures(GIFT)).toMatchObject({ gst_applies: true, refunds: [] });
    expect(Number((await figures(GIFT)).gst)).toBe(3.36);
    const exported = await figures(EXPORT);
    expect(exported).toMatchObject({ gst_applies: false, refunds: [{ refund_id: 're_part', reason: 'Damaged cover' }] });
    expect(Number(exported.gst)).toBe(0);
    // Refunded in full after the part: the rest (36) is the second adjustment.
    await db.admin.exec(
      `update public.orders set payment_status = 'refund_due', status = 'cancelled', refunded_at = '2026-11-14T01:00:00Z', refund_id = 're_rest', shipping_address = '{"country": "AU"}' where id = '${EXPORT}'`,
    );
    const refunds = (await figures(EXPORT)).refunds as Array<{ amount: number; gst: number; refund_id: string }>;
    expect(refunds.map((r) => [Number(r.amount), Number(r.gst), r.refund_id])).toEqual([
      [11, 1, 're_part'],
      [36, 3.27, 're_rest'],
    ]);
    const sales = await asStaff<{ totals: { gst: number } }>(`public.admin_sales('2026-11-01', '2026-11-30', 'day')`);
    // Kept by Australian deliveries: 37 + 37 + 37 (the export, now Australian, refunded in full keeps nothing).
    expect(Number(sales.totals.gst)).toBe(Math.round(((37 * 3) / 11) * 100) / 100);
  });

  it('every order carries its buyer as the rule names them, the same as the lists, and follows a name given later', async () => {
    const boughtBy = async () =>
      (await db.admin.query<{ id: string; bought_by: string | null }>(`select id, bought_by from public.orders where id in ('${GIFT}', '${OWN}', '${OLD_GIFT}') order by id`)).rows.map((r) => [
        r.id,
        r.bought_by,
      ]);
    expect(await boughtBy()).toEqual([
      [GIFT, 'Maria Rossi'],
      [OWN, 'Maria Rossi'],
      [OLD_GIFT, null],
    ]);
    // The back office's order (its detail and slips) reads the same column.
    expect((await asStaff<{ bought_by: string | null }>(`public.admin_get_order('${GIFT}')`)).bought_by).toBe('Maria Rossi');
    // A payer's name given afterwards, or a guest's placeholder, changes it as the rule says.
    await db.admin.exec(`update public.orders set buyer_name = 'Zed Giver' where id = '${OLD_GIFT}'; update public.orders set customer_name = 'Guest Customer' where id = '${OWN}'`);
    expect(await boughtBy()).toEqual([
      [GIFT, 'Maria Rossi'],
      [OWN, null],
      [OLD_GIFT, 'Zed Giver'],
    ]);
    await db.admin.exec(`update public.orders set buyer_name = null where id = '${OLD_GIFT}'; update public.orders set customer_name = 'Maria Rossi' where id = '${OWN}'`);
  });

  it('refuses a buyer’s name with a line break or longer than a label', async () => {
    await expect(db.admin.exec(`update public.orders set buyer_name = 'a' || chr(10) || 'b' where id = '${OWN}'`)).rejects.toThrow(/check/);
    await expect(db.admin.exec(`update public.orders set buyer_name = repeat('x', 101) where id = '${OWN}'`)).rejects.toThrow(/check/);
  });
});

describe('a gift paid on the TEST page', () => {
  const outbox = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'outbox.jsonl');
  const t = useTestShop({ env: { LOCAL_OUTBOX_FILE: outbox, NOTIFY_EMAIL_TO: 'publisher@example.com' } });
  beforeAll(async () => {
    await t.service().from('products').insert({ id: 'buyer-book', title: 'Buyer Book', price: 12, stock: 50 });
  });

  it('keeps the payer as the buyer and the recipient as the delivery name; the emails say who is who', async () => {
    const { body } = await t.post('create-checkout', {
      cartItems: [{ id: 'buyer-book', quantity: 1 }],
      shippingDetails: { fullName: 'Lucy Recipient', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } },
      customerEmail: 'maria@example.com',
      gift: { isGift: true, message: '', hidePrices: false },
    });
    const orderId = body!.orderId as string;
    const link = new URL(body!.url as string);
    const page = await (await fetch(link)).text();
    // The name on the card is the buyer's: never prefilled with the recipient's.
    expect(page).toContain('name="payer" autocomplete="cc-name" maxlength="100" value=""');
    const form = new URLSearchParams({ ...Object.fromEntries(link.searchParams), action: 'pay', payer: '  Maria   Rossi ' });
    expect((await fetch(`${t.url}/api/test-payment`, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);

    const row = (await t.service().from('orders').select('customer_name, buyer_name').eq('id', orderId).single()).data;
    expect(row).toEqual({ customer_name: 'Lucy Recipient', buyer_name: 'Maria Rossi' });
    const emails = await readOutbox(outbox);
    const confirmation = emails.find((e) => e.idempotencyKey === `order-confirmation-${orderId}`);
    expect(confirmation?.text).toMatch(/^Hello Maria Rossi,$/m);
    expect(confirmation?.text).toContain('This order is a gift for Lucy Recipient.');
    expect(confirmation?.text).toContain('The gift slip says it is from Maria Rossi.');
    const notice = emails.find((e) => e.idempotencyKey === `order-notice-${orderId}`);
    expect(notice?.to).toBe('publisher@example.com');
    expect(notice?.text).toContain('from Maria Rossi <maria@example.com> to Lucy Recipient (a gift).');
  });

  it('a buyer who leaves their name off the gift slip is told so, and the slip does not say whom it is from', async () => {
    const { body } = await t.post('create-checkout', {
      cartItems: [{ id: 'buyer-book', quantity: 1 }],
      shippingDetails: { fullName: 'Tom Recipient', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } },
      customerEmail: 'secret@example.com',
      gift: { isGift: true, message: 'Happy birthday!', hidePrices: false, hideSender: true },
    });
    const orderId = body!.orderId as string;
    expect((await t.service().from('orders').select('gift_hide_sender').eq('id', orderId).single()).data).toEqual({ gift_hide_sender: true });
    const link = new URL(body!.url as string);
    const form = new URLSearchParams({ ...Object.fromEntries(link.searchParams), action: 'pay', payer: 'Sam Secret' });
    expect((await fetch(`${t.url}/api/test-payment`, { method: 'POST', body: form, redirect: 'manual' })).status).toBe(303);
    const confirmation = (await readOutbox(outbox)).find((e) => e.idempotencyKey === `order-confirmation-${orderId}`);
    expect(confirmation?.text).toMatch(/^Hello Sam Secret,$/m);
    expect(confirmation?.text).toContain('Your name is left off the gift slip.');
    expect(confirmation?.text).not.toContain('The gift slip says it is from');
  });
});
