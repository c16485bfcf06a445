/**
 * The packing bench's database functions, on both databases: an order is claimed for the platform once (two
 * callers at once: one sends), a lost answer is looked up before a second send, a label ships the order with its
 * tracking number, and tracking events are kept once, bound to an order the shop sent, moving it to shipped and
 * completed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DATABASES, useTestDatabase } from '../helpers/test-databases';

describe.each(DATABASES)('the packing bench on the $label', ({ open }) => {
  const db = useTestDatabase(open, `insert into public.products (id, title, price, stock) values ('bench-book', 'Bench Book', 20, 100)`);

  /** A paid order waiting to be packed, with the number the database gave it. */
  async function paidOrder(): Promise<{ id: string; number: string }> {
    const id = randomUUID();
    await db.admin.exec(`
      insert into public.orders (id, customer_email, customer_name, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, payment_status, status, paid_at)
        values ('${id}', 'mary@example.com', 'Mary Smith', 20, 10, 30, '{"addressLine1": "1 Test St", "city": "Parramatta", "state": "NSW", "postalCode": "2150", "country": "AU"}', '{"name": "AU Standard"}', 'paid', 'processing', now());
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${id}', 'bench-book', 'Bench Book', 1, 20);`);
    const { rows } = await db.admin.query<{ number: number }>(`select number from public.orders where id = $1`, [id]);
    return { id, number: String(rows[0]!.number) };
  }

  async function call<T = unknown>(sql: string, params: unknown[]): Promise<T> {
    const { rows } = await db.request('service_role', {}, sql, { params, commit: true });
    return rows[0]?.r as T;
  }
  const claim = (id: string) => call<{ outcome: string; attempts?: number; lost_answer?: boolean }>(`select public.claim_shipment_send($1, 'starshipit') as r`, [id]);
  const sent = (id: string, platformId: string) => call<string>(`select public.record_shipment_sent($1, $2, 'Starshipit') as r`, [id, platformId]);
  const failed = (id: string, message: string) => call<string>(`select public.record_shipment_failed($1, $2, 'Starshipit') as r`, [id, message]);
  const label = (id: string, tracking: string) => call<string>(`select public.record_shipment_label($1, $2, 'Australia Post', 'publisher@example.com') as r`, [id, tracking]);
  const tracking = (number: string, key: string, status: string, trackingNumber: string | null, at = new Date().toISOString()) =>
    call<{ outcome: string; order_id?: string }>(`select public.record_tracking_event($1, $2, $3, $4, 'Australia Post', $5, 'Starshipit') as r`, [number, key, status, trackingNumber, at]);
  const key = () => randomUUID().replace(/-/g, '').padEnd(64, '0');
  async function row(id: string) {
    const { rows } = await db.admin.query<Record<string, unknown>>(
      `select o.status, o.tracking_number, o.tracking_status, s.state, s.attempts, s.platform_order_id, s.last_error from public.orders o left join public.shipments s on s.order_id = o.id where o.id = $1`,
      [id],
    );
    return rows[0]!;
  }
  const history = async (id: string) => (await db.admin.query<{ action: string }>(`select action from public.order_events where order_id = $1 order by id`, [id])).rows.map((r) => r.action);

  it('callers at once: one claims the send, the others are told it is under way; once sent, it is done', async () => {
    // Several orders, each claimed by six callers at once: on PostgreSQL they race to create the shipment's row.
    const orders = await Promise.all(Array.from({ length: 5 }, paidOrder));
    for (const other of orders.slice(1)) {
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => claim(other.id)));
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'claimed']);
    }
    const order = orders[0]!;
    const outcomes = await Promise.all([claim(order.id), claim(order.id)]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['busy', 'claimed']);
    expect(await sent(order.id, '1001')).toBe('sent');
    expect(await sent(order.id, '1002')).toBe('already');
    expect((await claim(order.id)).outcome).toBe('done');
    expect(await row(order.id)).toMatchObject({ state: 'sent', attempts: 1, platform_order_id: '1001' });
    expect(await history(order.id)).toEqual(['shipment_sent']);
  });

  it('a failed send is tried again; a send whose answer was lost is marked so the platform is asked first', async () => {
    const order = await paidOrder();
    expect((await claim(order.id)).outcome).toBe('claimed');
    expect(await failed(order.id, 'Starshipit is limiting requests (429)')).toBe('failed');
    expect(await row(order.id)).toMatchObject({ state: 'failed', last_error: 'Starshipit is limiting requests (429)' });
    expect(await claim(order.id)).toMatchObject({ outcome: 'claimed', attempts: 2, lost_answer: false });
    // The caller stopped before recording anything; past the lease, the next claim knows an answer may be lost.
    await db.admin.exec(`update public.shipments set claimed_at = now() - interval '5 minutes', state = 'pending' where order_id = '${order.id}'`);
    expect(await claim(order.id)).toMatchObject({ outcome: 'claimed', attempts: 3, lost_answer: true });
    expect(await history(order.id)).toEqual(['shipment_failed']);
  });

  it("the shipment carries the order's number, which the platform is asked for when an answer was lost", async () => {
    const order = await paidOrder();
    expect(Number(order.number)).toBeGreaterThanOrEqual(1001);
    expect(await claim(order.id)).toMatchObject({ outcome: 'claimed', order_number: order.number });
    const { rows } = await db.admin.query<{ order_number: string }>(`select order_number from public.shipments where order_id = $1`, [order.id]);
    expect(rows).toEqual([{ order_number: order.number }]);
    // Nothing else is a platform order number: the shipments' check keeps to the digits of an order's number.
    await expect(db.admin.exec(`update public.shipments set order_number = 'A1B2C3D4' where order_id = '${order.id}'`)).rejects.toThrow(/shipments_order_number_check/);
  });

  it('an unpaid order is not sent', async () => {
    const order = await paidOrder();
    await db.admin.exec(`update public.orders set payment_status = 'unpaid', status = 'pending', paid_at = null where id = '${order.id}'`);
    expect((await claim(order.id)).outcome).toBe('not_to_pack');
    expect((await db.admin.query(`select 1 from public.shipments where order_id = $1`, [order.id])).rows).toEqual([]);
  });

  it('a label ships the order with its tracking number; printing it again changes nothing', async () => {
    const order = await paidOrder();
    expect(await label(order.id, '33TST1234567')).toBe('not_sent');
    await claim(order.id);
    await sent(order.id, '2001');
    expect(await label(order.id, '33TST1234567')).toBe('shipped');
    expect(await label(order.id, '33TST1234567')).toBe('unchanged');
    expect(await row(order.id)).toMatchObject({ status: 'shipped', tracking_number: '33TST1234567', state: 'labelled' });
    expect(await history(order.id)).toEqual(['shipment_sent', 'shipped', 'label_printed']);
  });

  it('tracking events: unknown orders and parcels are ignored, a repeat changes nothing, delivered completes the order', async () => {
    const order = await paidOrder();
    await claim(order.id);
    await sent(order.id, '3001');
    await label(order.id, '33TST7654321');
    const before = await history(order.id);

    expect((await tracking('99999999', key(), 'Delivered', '33TST7654321')).outcome).toBe('unknown_order');
    // The order's old number (its id's start) binds nothing: the platform knows it by its number.
    expect((await tracking(order.id.slice(0, 8).toUpperCase(), key(), 'Delivered', '33TST7654321')).outcome).toBe('unknown_order');
    expect((await tracking(order.number, key(), 'Delivered', '33TSTOTHER99')).outcome).toBe('unknown_parcel');
    expect(await history(order.id)).toEqual(before);

    const inTransit = key();
    expect((await tracking(order.number, inTransit, 'InTransit', '33TST7654321', '2026-11-20T01:00:00Z')).outcome).toBe('recorded');
    expect(await row(order.id)).toMatchObject({ status: 'shipped', state: 'shipped', tracking_status: 'In transit' });
    expect((await tracking(order.number, inTransit, 'InTransit', '33TST7654321', '2026-11-20T01:00:00Z')).outcome).toBe('duplicate');

    const delivered = key();
    expect((await tracking(order.number, delivered, 'Delivered', '33TST7654321', '2026-11-21T01:00:00Z')).outcome).toBe('delivered');
    expect(await row(order.id)).toMatchObject({ status: 'completed', state: 'delivered', tracking_status: 'Delivered' });
    expect((await tracking(order.number, delivered, 'Delivered', '33TST7654321', '2026-11-21T01:00:00Z')).outcome).toBe('duplicate');
    // An older event arriving late is kept, but the latest stays the latest.
    expect((await tracking(order.number, key(), 'OutForDelivery', '33TST7654321', '2026-11-20T20:00:00Z')).outcome).toBe('recorded');
    expect(await row(order.id)).toMatchObject({ status: 'completed', tracking_status: 'Delivered' });
    expect(await history(order.id)).toEqual([...before, 'tracking_update', 'tracking_update', 'delivered', 'tracking_update']);
    const { rows } = await db.admin.query(`select count(*)::int as n from public.shipment_tracking_events where order_id = $1`, [order.id]);
    expect(rows[0]).toEqual({ n: 3 });
  });

  it('a parcel labelled at the platform itself ships the order when its first scan arrives', async () => {
    const order = await paidOrder();
    await claim(order.id);
    await sent(order.id, '4001');
    expect((await tracking(order.number, key(), 'Dispatched', 'LX123456785AU')).outcome).toBe('shipped');
    expect(await row(order.id)).toMatchObject({ status: 'shipped', tracking_number: 'LX123456785AU', state: 'shipped', tracking_status: 'Lodged with the carrier' });
  });

  it('a cancelled order: its shipment is cancelled once; a later tracking event keeps the order cancelled and asks for one notice', async () => {
    const order = await paidOrder();
    await claim(order.id);
    await sent(order.id, '5001');
    expect(await call<string>(`select public.cancel_paid_order($1, 'publisher@example.com') as r`, [order.id])).toBe('cancelled');
    expect(await call<string>(`select public.record_shipment_cancelled($1, 'Deleted at Starshipit.', 'Starshipit') as r`, [order.id])).toBe('cancelled');
    expect(await call<string>(`select public.record_shipment_cancelled($1, 'Deleted at Starshipit.', 'Starshipit') as r`, [order.id])).toBe('not_open');
    expect(await row(order.id)).toMatchObject({ status: 'cancelled', state: 'cancelled' });
    expect((await claim(order.id)).outcome).toBe('not_to_pack');
    const lodged = await tracking(order.number, key(), 'Dispatched', 'LX123456785AU');
    expect(lodged).toMatchObject({ outcome: 'cancelled_order', order_id: order.id, status: 'Lodged with the carrier', notify: true });
    expect(await tracking(order.number, key(), 'Delivered', 'LX123456785AU')).toMatchObject({ outcome: 'cancelled_order', notify: false });
    expect(await row(order.id)).toMatchObject({ status: 'cancelled', tracking_number: null, state: 'cancelled' });
    expect((await history(order.id)).slice(-2)).toEqual(['tracking_update', 'tracking_update']);
  });

  it('once delivered, a later scan that is not a delivery is kept but does not replace Delivered as the latest', async () => {
    const order = await paidOrder();
    await claim(order.id);
    await sent(order.id, '6001');
    await label(order.id, '33TST6000001');
    expect((await tracking(order.number, key(), 'Delivered', '33TST6000001', '2026-11-21T01:00:00Z')).outcome).toBe('delivered');
    expect((await tracking(order.number, key(), 'InTransit', '33TST6000001', '2026-11-21T05:00:00Z')).outcome).toBe('recorded');
    expect(await row(order.id)).toMatchObject({ status: 'completed', tracking_status: 'Delivered' });
    const { rows } = await db.admin.query(`select count(*)::int as n from public.shipment_tracking_events where order_id = $1`, [order.id]);
    expect(rows[0]).toEqual({ n: 2 });
  });

  it('the tracking history is append-only', async () => {
    await expect(db.admin.exec(`update public.shipment_tracking_events set status = 'x'`)).rejects.toThrow();
  });
});
