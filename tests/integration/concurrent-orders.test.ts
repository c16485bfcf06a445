/**
 * The SQL functions' guarantees under real concurrency: 50 buyers at once, on 50 connections of PostgreSQL 17,
 * buy the last copies of a book through the functions checkout and the payment webhook use — create_order,
 * link_checkout_session, then fulfil_order twice per order (the webhook and the shopper's confirmation page
 * arrive together), record_refund and the email claims twice as well. No copy is sold twice, no order is
 * half-written, and each refund and each email is claimed exactly once. The embedded backend runs the same
 * test one statement at a time.
 */
import { describe, expect, it } from 'vitest';
import { callFunction, DATABASES, useTestDatabase } from '../helpers/test-databases';

const BUYERS = 50;
const COPIES = 12;
const PRODUCT = 'last-copies';
/** Every tenth buyer's cart also names a book that does not exist: that order must not be written at all. */
const brokenCart = (buyer: number) => buyer % 10 === 9;
const quantityOf = (buyer: number) => (buyer % 3 === 0 ? 2 : 1);

describe.each(DATABASES)('50 buyers for the last copies, on the $label', ({ open }) => {
  const db = useTestDatabase(open, `insert into public.products (id, title, price, stock) values ('${PRODUCT}', 'Last Copies', 20, ${COPIES})`);

  /** One call of a service function, committed, as the server functions make it through the REST API. */
  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);

  async function buy(buyer: number) {
    const quantity = quantityOf(buyer);
    const items = [{ product_id: PRODUCT, title: 'Last Copies', quantity, price_at_time: 20 }];
    if (brokenCart(buyer)) items.push({ product_id: 'no-such-book', title: 'Missing', quantity: 1, price_at_time: 20 });
    const subtotal = items.reduce((sum, item) => sum + item.quantity * item.price_at_time, 0);
    const order = {
      customer_email: `buyer${buyer}@example.com`,
      customer_name: `Buyer ${buyer}`,
      subtotal_amount: subtotal,
      shipping_amount: 15,
      total_amount: subtotal + 15,
      shipping_address: { line1: `${buyer} Test St` },
      shipping_method: { name: 'AU Standard Courier' },
      payment_provider: 'stripe',
    };
    let orderId: string;
    try {
      orderId = await call<string>('create_order', [JSON.stringify(order), JSON.stringify(items)]);
    } catch (error) {
      return { buyer, written: false as const, error: (error as { code?: string }).code };
    }
    expect(await call<boolean>('link_checkout_session', [orderId, `cs_${buyer}`])).toBe(true);
    const [fromWebhook, fromConfirmation] = await Promise.all([call<string>('fulfil_order', [orderId]), call<string>('fulfil_order', [orderId])]);
    const outcome = fromWebhook === 'fulfilled' || fromConfirmation === 'fulfilled' ? 'fulfilled' : fromWebhook;
    const claims =
      outcome === 'fulfilled'
        ? await Promise.all([call<boolean>('claim_confirmation_email', [orderId]), call<boolean>('claim_confirmation_email', [orderId])])
        : await Promise.all([call<boolean>('record_refund', [orderId, `re_${buyer}`]), call<boolean>('record_refund', [orderId, `re_${buyer}`])]);
    return { buyer, written: true as const, orderId, quantity, fulfilment: [fromWebhook, fromConfirmation], outcome, claims };
  }

  it('no copy sold twice, no order half-written, every refund and confirmation claimed once', async () => {
    const results = await Promise.all(Array.from({ length: BUYERS }, (_, buyer) => buy(buyer)));

    // Carts naming a missing book: refused (a foreign-key violation) and nothing of them written.
    const refused = results.filter((r) => !r.written);
    expect(refused.map((r) => r.buyer)).toEqual(results.filter((r) => brokenCart(r.buyer)).map((r) => r.buyer));
    expect(new Set(refused.map((r) => r.error))).toEqual(new Set(['23503']));
    const { rows: orphans } = await db.admin.query<{ n: number }>(`select count(*)::int as n from public.orders o where not exists (select 1 from public.order_items i where i.order_id = o.id)`);
    expect(orphans[0]?.n).toBe(0);
    const { rows: written } = await db.admin.query<{ customer_email: string }>(`select customer_email from public.orders where customer_email like 'buyer%'`);
    expect(written).toHaveLength(BUYERS - refused.length);

    const orders = results.filter((r) => r.written);
    const fulfilled = orders.filter((r) => r.outcome === 'fulfilled');
    const soldOut = orders.filter((r) => r.outcome !== 'fulfilled');
    // Each order is fulfilled by exactly one of its two callers; the other is told it already was.
    for (const order of fulfilled) expect(order.fulfilment.sort()).toEqual(['already_fulfilled', 'fulfilled']);
    for (const order of soldOut) expect(order.fulfilment).toEqual(['out_of_stock', 'out_of_stock']);
    // Exactly one of the two callers claims each email and each refund.
    for (const order of orders) expect(order.claims.filter(Boolean), `order of buyer ${order.buyer}`).toHaveLength(1);

    const sold = fulfilled.reduce((sum, order) => sum + order.quantity, 0);
    expect(sold).toBeLessThanOrEqual(COPIES);
    // Copies only run out for a buyer who wanted more than were left.
    expect(COPIES - sold).toBeLessThan(Math.max(...soldOut.map((o) => o.quantity), 1));
    const { rows: stock } = await db.admin.query<{ stock: number }>(`select stock from public.products where id = '${PRODUCT}'`);
    expect(stock[0]?.stock).toBe(COPIES - sold);

    const { rows: states } = await db.admin.query<{ payment_status: string; status: string; n: number; refunded: number; emailed: number }>(`
      select payment_status, status, count(*)::int as n, count(refunded_at)::int as refunded, count(confirmation_email_sent_at)::int as emailed
      from public.orders where customer_email like 'buyer%' group by 1, 2 order by 1`);
    expect(states).toEqual([
      { payment_status: 'paid', status: 'processing', n: fulfilled.length, refunded: 0, emailed: fulfilled.length },
      ...(soldOut.length ? [{ payment_status: 'refund_due', status: 'cancelled', n: soldOut.length, refunded: soldOut.length, emailed: 0 }] : []),
    ]);
    expect(soldOut.length).toBeGreaterThan(0);
  });
});
