import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { useBackOfficeShop } from '../helpers/shop';
import { callFunction, DATABASES, useTestDatabase } from '../helpers/test-databases';
import { insertOrder } from '../helpers/insert-order';
import { orderRow } from '../helpers/order-row';

const STAFF = 'refunds-publisher@example.com';

describe('part refunds through /api/admin-order', () => {
  const t = useBackOfficeShop('part-refunds', { staff: STAFF, shopper: 'refund-shopper@example.com' });

  /** A paid order of 22 + 15 shipping = 37, paid on `paidOn` (a Sydney day) when given. */
  async function paidOrder(email: string, paidOn?: string): Promise<string> {
    const service = t.service();
    const id = await insertOrder(
      service,
      orderRow(email, {
        checkout_session_id: `cs_local_${crypto.randomUUID()}`,
        customer_name: 'Refund Customer',
        shipping_address: { addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' },
        shipping_method: { id: 'au-standard', name: 'AU Standard Courier' },
      }),
      [{ product_id: 'book-10-reasons', title: 'The Book', quantity: 1, price_at_time: 22 }],
      { fulfil: true },
    );
    if (paidOn) {
      const moved = await service
        .from('orders')
        .update({ paid_at: `${paidOn}T02:00:00Z` })
        .eq('id', id);
      if (moved.error) throw moved.error;
    }
    return id;
  }

  async function act(client: SupabaseClient, body: unknown): Promise<{ status: number; body: { message?: string; error?: string } }> {
    const token = (await client.auth.getSession()).data.session!.access_token;
    const response = await fetch(`${t.url}/api/admin-order`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  }
  const refunds = async (orderId: string) =>
    (await t.staff.rpc('admin_order_refunds', { p_order_id: orderId })).data as {
      refunded: number;
      remaining: number;
      refundable: boolean;
      parts: Array<{ amount: number; reason: string; status: string }>;
    };
  const history = async (orderId: string) => ((await t.staff.rpc('admin_get_order', { p_order_id: orderId })).data as { history: Array<{ action: string; detail: string; actor: string }> }).history;
  const mailTo = async (email: string) => (await readOutbox(t.outbox)).filter((m) => m.to === email);

  it('refunds part with a reason: the customer is emailed what and why and what remains paid; the history records it', async () => {
    const email = 'part-one@example.com';
    const orderId = await paidOrder(email);
    const done = await act(t.staff, { action: 'refund_part', orderId, amountCents: 1250, reason: 'Cover arrived with a bent corner' });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(`Refunded $12.50 on order ${await t.orderNumber(orderId)}; $24.50 remains paid. The customer has been emailed.`);

    const after = await refunds(orderId);
    expect(after).toMatchObject({ refunded: 12.5, remaining: 24.5, refundable: true });
    expect(after.parts).toEqual([expect.objectContaining({ amount: 12.5, reason: 'Cover arrived with a bent corner', status: 'succeeded' })]);
    expect(await history(orderId)).toContainEqual(
      expect.objectContaining({ action: 'refunded_part', actor: STAFF, detail: expect.stringMatching(/^A\$12\.50: Cover arrived with a bent corner \(re_local_/) }),
    );

    const mails = await mailTo(email);
    const notice = mails.find((m) => m.subject.startsWith('A refund of $12.50'));
    expect(notice?.text).toContain('We have refunded $12.50 AUD of your order');
    expect(notice?.text).toContain('Reason: Cover arrived with a bent corner');
    expect(notice?.text).toContain("Your order's total was $37.00 AUD; with this refund, you have paid $24.50 AUD for it.");
  });

  it('refuses more than is left, with what is left; refuses no reason, no amount, and anyone who is not staff', async () => {
    const orderId = await paidOrder('part-two@example.com');
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 3000, reason: 'Late' })).status).toBe(200);
    const tooMuch = await act(t.staff, { action: 'refund_part', orderId, amountCents: 701, reason: 'Late again' });
    expect(tooMuch).toEqual({ status: 409, body: { error: `You can refund at most $7.00 on order ${await t.orderNumber(orderId)}: that is what is left of its payment.` } });
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 500, reason: '   ' })).status).toBe(400);
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 0, reason: 'x' })).status).toBe(400);
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 1.5, reason: 'x' })).status).toBe(400);
    expect((await act(t.shopper, { action: 'refund_part', orderId, amountCents: 100, reason: 'Mine' })).status).toBe(403);
    expect((await refunds(orderId)).refunded).toBe(30);
  });

  it('refunded in full by its parts, the order ends refunded: out of To pack, no second email, no more refunds', async () => {
    const email = 'part-three@example.com';
    const orderId = await paidOrder(email);
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 2000, reason: 'Wrong edition' })).status).toBe(200);
    const last = await act(t.staff, { action: 'refund_part', orderId, amountCents: 1700, reason: 'Shipping back to us' });
    expect(last.body.message).toBe(`Refunded $17.00 on order ${await t.orderNumber(orderId)}: it is now refunded in full. The customer has been emailed.`);
    const order = (await t.staff.rpc('admin_get_order', { p_order_id: orderId })).data as { payment_status: string; refunded_at: string | null };
    expect(order.payment_status).toBe('refund_due');
    expect(order.refunded_at).not.toBeNull();
    expect((await refunds(orderId)).refundable).toBe(false);
    expect((await history(orderId)).map((e) => e.action)).toEqual(['refunded_part', 'refunded_part', 'refunded']);
    const toPack = (await t.staff.rpc('admin_list_orders', { p_view: 'to_pack', p_search: '' })).data.orders as Array<{ id: string }>;
    expect(toPack.map((o) => o.id)).not.toContain(orderId);
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 1, reason: 'More' })).status).toBe(409);
    // One email per part; the claim for a refund-in-full email is already taken, so none follows.
    expect((await mailTo(email)).filter((m) => /refund/i.test(m.subject))).toHaveLength(2);
    expect((await t.service().rpc('claim_refund_email', { p_order_id: orderId })).data).toBe(false);
  });

  it('cancelling after a part refund refunds and tells the rest, not the whole again', async () => {
    const email = 'part-four@example.com';
    const orderId = await paidOrder(email);
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 500, reason: 'Goodwill' })).status).toBe(200);
    expect((await act(t.staff, { action: 'cancel', orderId })).status).toBe(200);
    const cancelled = (await mailTo(email)).find((m) => m.subject.includes('cancelled and refunded'));
    expect(cancelled?.text).toContain('We have refunded the remaining $32.00 AUD to your card (with the $5.00 AUD refunded before, the whole $37.00 AUD).');
  });

  it('a refund the provider refuses is recorded as failed, counts for nothing, and can be tried again', async () => {
    const orderId = await paidOrder('part-five@example.com');
    const { createLocalTestPayments } = await import('../../functions/_lib/providers/local-payments');
    const { runOrderAction } = await import('../../functions/_lib/back-office');
    const real = createLocalTestPayments(() => t.service());
    const refusing = { ...real, refundSession: vi.fn(async () => ({ id: 're_refused', status: 'failed' as const })) };
    const email = { name: 'recording', send: vi.fn(async () => undefined), sendBatch: vi.fn(async () => undefined) };
    const failed = await runOrderAction(
      { db: t.service(), actor: STAFF, services: { email, payments: refusing, siteOrigin: t.url } },
      { action: 'refund_part', orderId, amountCents: 1000, reason: 'Damaged' },
    );
    expect(failed.status).toBe(502);
    expect(failed.message).toMatch(/did not go through .*Nothing was refunded; you can try again/);
    expect(email.send).not.toHaveBeenCalled();
    expect(refusing.refundSession).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ amountCents: 1000, reason: 'Damaged', idempotencyKey: expect.stringMatching(/^order-part-refund-/) }),
    );
    expect(await refunds(orderId)).toMatchObject({ refunded: 0, remaining: 37 });
    expect((await history(orderId)).at(-1)).toMatchObject({ action: 'refund_failed', detail: expect.stringContaining('Part refund of A$10.00 did not go through') });
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 1000, reason: 'Damaged' })).status).toBe(200);
  });

  it('a part refund cut off before it was saved is settled by the next one: the provider made it, so it counts and the customer hears; it never did, so it is freed', async () => {
    const orderId = await paidOrder('part-seven@example.com');
    const { createLocalTestPayments } = await import('../../functions/_lib/providers/local-payments');
    const { runOrderAction } = await import('../../functions/_lib/back-office');
    const payments = createLocalTestPayments(() => t.service());
    const email = { name: 'recording', send: vi.fn(async (_mail: { subject: string }) => undefined), sendBatch: vi.fn(async () => undefined) };
    const service = t.service();
    const reserve = async (amount: number) => {
      const { data, error } = await service.rpc('begin_part_refund', { p_order_id: orderId, p_amount: amount, p_reason: 'Cut off', p_actor: STAFF });
      if (error) throw error;
      return (data as { refund_id: string }).refund_id;
    };
    // As calls cut off would leave them: one the provider made, one it never heard of, both ten minutes old…
    const [made, lost] = [await reserve(10), await reserve(5)];
    const { data: order } = await service.from('orders').select('checkout_session_id').eq('id', orderId).single();
    await payments.refundSession(order!.checkout_session_id, { orderId, idempotencyKey: `order-part-refund-${made}`, amountCents: 1000, reason: 'Cut off', partRefundId: made });
    // Nobody but the database's owner may rewrite a refund's time.
    await t.shop.backend!.db.query(`update public.order_refunds set created_at = now() - interval '10 minutes' where id in ($1, $2)`, [made, lost]);
    // …and one a call is making right now, which is left alone.
    await reserve(2);

    const next = await runOrderAction({ db: service, actor: STAFF, services: { email, payments, siteOrigin: t.url } }, { action: 'refund_part', orderId, amountCents: 300, reason: 'Postage' });
    expect(next.status).toBe(200);
    const after = await refunds(orderId);
    expect(after.parts.map(({ amount, status }) => `${amount} ${status}`).sort()).toEqual(['10 succeeded', '2 pending', '3 succeeded', '5 failed']);
    expect(after.refunded).toBe(13);
    // The customer is told of the refund that was made before the cut, and of the new one.
    expect(email.send).toHaveBeenCalledTimes(2);
    expect(email.send.mock.calls.map(([mail]) => mail.subject)).toEqual([
      `A refund of $10.00 on your order ${await t.orderNumber(orderId)}`,
      `A refund of $3.00 on your order ${await t.orderNumber(orderId)}`,
    ]);
    expect(await history(orderId)).toContainEqual(expect.objectContaining({ action: 'refund_failed', detail: expect.stringContaining('the payment provider never made it') }));
  });

  it('the sales figures and the customer’s total count part refunds (and GST follows)', async () => {
    // A day of its own, far back, so no other test's order is in it.
    const day = '2019-03-14';
    const email = 'part-sales@example.com';
    const orderId = await paidOrder(email, day);
    expect((await act(t.staff, { action: 'refund_part', orderId, amountCents: 1100, reason: 'Price match' })).status).toBe(200);
    const sales = (await t.staff.rpc('admin_sales', { p_from: day, p_to: day, p_by: 'day' })).data as { totals: Record<string, number> };
    expect(sales.totals).toMatchObject({ orders: 1, goods: 22, shipping: 15, refunds: 11, net: 26, gst: 2.36, copies: 1 });
    const csvOrders = (await t.staff.rpc('admin_sales_orders', { p_from: day, p_to: day })).data.orders as Array<{ refunded_amount: number; refund_id: string }>;
    expect(csvOrders[0]).toMatchObject({ refunded_amount: 11, refund_id: expect.stringMatching(/^re_local_/) });
    const customer = (await t.staff.rpc('admin_get_customer', { p_email: email })).data as { total_spent: number };
    expect(customer.total_spent).toBe(26);
  });

  it('a signed-in shopper reads no refunds', async () => {
    const orderId = await paidOrder('part-six@example.com');
    const { error } = await t.shopper.rpc('admin_order_refunds', { p_order_id: orderId });
    expect(error?.code).toBe('42501');
    const table = await t.shopper.from('order_refunds').select('amount');
    expect(table.data ?? []).toEqual([]);
  });
});

describe.each(DATABASES)('part refunds at once, on the $label', ({ open }) => {
  const ORDER = '00000000-0000-4000-8000-00000000ab01';
  const db = useTestDatabase(
    open,
    `
      insert into public.orders (id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, checkout_session_id)
        values ('${ORDER}', 'race@example.com', 22, 15, 37, '{}', '{"name": "AU Standard Courier"}', 'cs_race');
      insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${ORDER}', 'book-10-reasons', 'Book', 1, 22);
      update public.products set stock = greatest(stock, 5) where id = 'book-10-reasons';
      select public.fulfil_order('${ORDER}');`,
  );

  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);

  it('twenty staff refunding $10 at once on a $37 order: three go through, the rest are told what is left', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call<{ outcome: string; refund_id?: string; remaining: number }>('begin_part_refund', [ORDER, 10, `Race ${i}`, 'publisher@example.com'])),
    );
    const reserved = attempts.filter((a) => a.outcome === 'reserved');
    expect(reserved).toHaveLength(3);
    expect(attempts.filter((a) => a.outcome === 'too_much').every((a) => a.remaining === 7)).toBe(true);
    // Settled twice each, at once (a retried request): each part is settled and written to the history once.
    const settled = await Promise.all(
      reserved.flatMap((r) => [
        call<{ outcome: string }>('settle_part_refund', [r.refund_id, `re_${r.refund_id}`, null]),
        call<{ outcome: string }>('settle_part_refund', [r.refund_id, `re_${r.refund_id}`, null]),
      ]),
    );
    expect(settled.filter((s) => s.outcome === 'succeeded')).toHaveLength(3);
    expect(settled.filter((s) => s.outcome === 'already')).toHaveLength(3);
    const { rows } = await db.admin.query<{ refunded: string; events: number; payment_status: string }>(`
      select (select sum(amount) from public.order_refunds where order_id = o.id and status = 'succeeded')::text as refunded,
        (select count(*)::int from public.order_events where order_id = o.id and action = 'refunded_part') as events, o.payment_status
      from public.orders o where o.id = '${ORDER}'`);
    expect(rows[0]).toEqual({ refunded: '30.00', events: 3, payment_status: 'paid' });
    // The last $7, twice at once: one goes through and the order is refunded in full, the other finds nothing left.
    const last = await Promise.all([
      call<{ outcome: string; refund_id?: string }>('begin_part_refund', [ORDER, 7, 'Rest', 'a@example.com']),
      call<{ outcome: string }>('begin_part_refund', [ORDER, 7, 'Rest', 'b@example.com']),
    ]);
    expect(last.map((l) => l.outcome).sort()).toEqual(['reserved', 'too_much']);
    const winner = last.find((l) => l.outcome === 'reserved') as { refund_id: string };
    expect(await call<{ fully_refunded: boolean }>('settle_part_refund', [winner.refund_id, 're_last', null])).toMatchObject({ fully_refunded: true, remaining: 0 });
    const { rows: after } = await db.admin.query<{ payment_status: string; refund_id: string }>(`select payment_status, refund_id from public.orders where id = '${ORDER}'`);
    expect(after[0]).toEqual({ payment_status: 'refund_due', refund_id: 're_last' });
    expect(await call<{ outcome: string }>('begin_part_refund', [ORDER, 1, 'More', 'x'])).toEqual({ outcome: 'not_refundable' });
  });

  it('refuses an amount of no cents, of fractions of a cent, and no reason', async () => {
    for (const [amount, reason] of [
      [0, 'r'],
      [1.005, 'r'],
      [1, '  '],
    ] as const) {
      await expect(call('begin_part_refund', [ORDER, amount, reason, 'x'])).rejects.toMatchObject({ code: '22023' });
    }
  });
});
