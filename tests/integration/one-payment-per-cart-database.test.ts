/**
 * One cart, one payment, in the database, on the embedded backend and on PostgreSQL 17: create_order refuses a
 * second open order of one cart, link_checkout_session never links a page to an order a newer checkout replaced,
 * and fulfil_order answers 'duplicate' (refund due, stock untouched) for a second payment of one cart, while a
 * cart paid, then bought again later, is two orders as it should be.
 */
import { describe, expect, it } from 'vitest';
import { orderRow } from '../helpers/order-row';
import { callFunction, DATABASES, useTestDatabase } from '../helpers/test-databases';

const BOOK = 'cart-book';
const ITEMS = JSON.stringify([{ product_id: BOOK, title: 'Cart Book', quantity: 2, price_at_time: 20 }]);
const KEY = 'a'.repeat(64);

describe.each(DATABASES)('one payment per cart on the $label', ({ open }) => {
  const db = useTestDatabase(open, `insert into public.products (id, title, price, stock) values ('${BOOK}', 'Cart Book', 20, 100)`);

  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);
  const checkout = (cartId: string | null, key = KEY) =>
    call<string>('create_order', [
      JSON.stringify(
        orderRow('cart@example.com', { subtotal: 40, shipping: 0, customer_name: 'Shopper', shipping_address: { line1: '1 Test St' }, payment_provider: 'stripe', cart_id: cartId, cart_key: key }),
      ),
      ITEMS,
    ]);
  const orderOf = async (id: string) =>
    (
      await db.admin.query<{ status: string; payment_status: string; cart_id: string | null; cart_key: string | null; checkout_url: string | null; duplicate_of: string | null }>(
        `select status, payment_status, cart_id, cart_key, checkout_url, duplicate_of from public.orders where id = $1`,
        [id],
      )
    ).rows[0]!;
  const stock = async () => (await db.admin.query<{ stock: number }>(`select stock from public.products where id = '${BOOK}'`)).rows[0]!.stock;

  it('create_order keeps the cart and its key, and refuses a second order of one cart while the first is open', async () => {
    const first = await checkout('cart-one-1');
    expect(await orderOf(first)).toMatchObject({ cart_id: 'cart-one-1', cart_key: KEY, payment_status: 'unpaid' });
    await expect(checkout('cart-one-1', 'b'.repeat(64))).rejects.toMatchObject({ message: expect.stringContaining('cart checkout open') });
    // Once the older order is cancelled (its page closed), the cart may check out again.
    expect(await call<string>('cancel_unpaid_order', [first])).toBe('cancelled');
    const second = await checkout('cart-one-1', 'b'.repeat(64));
    expect(second).not.toBe(first);
    // A checkout without a cart id (an older page, an API caller) is not held back.
    await checkout(null);
    await checkout(null);
  });

  it('a cart id or key of the wrong shape is refused by the table', async () => {
    await expect(checkout('bad id with spaces')).rejects.toThrow();
    await expect(checkout('cart-shape-1', 'not-a-hash')).rejects.toThrow();
  });

  it('link_checkout_session stores the page’s address, and never links a page to an order that was cancelled', async () => {
    const order = await checkout('cart-link-1');
    expect(await call<boolean>('link_checkout_session', [order, 'cs_link_1', null, 'https://checkout.stripe.com/c/pay/cs_link_1'])).toBe(true);
    expect((await orderOf(order)).checkout_url).toBe('https://checkout.stripe.com/c/pay/cs_link_1');
    const replaced = await checkout('cart-link-2');
    await call('cancel_unpaid_order', [replaced]);
    expect(await call<boolean>('link_checkout_session', [replaced, 'cs_link_2', null, 'https://checkout.stripe.com/c/pay/cs_link_2'])).toBe(false);
    expect((await orderOf(replaced)).checkout_url).toBeNull();
  });

  it('a second payment for one cart is a duplicate: refund due, naming the order kept, its stock untouched', async () => {
    // Two pages of one cart both open (a race no check before the payment can close): both are paid.
    const first = await checkout('cart-twice-1');
    await db.admin.exec(`insert into public.orders (customer_email, customer_name, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, payment_provider, cart_id, cart_key)
      values ('cart@example.com', 'Shopper', 40, 0, 40, '{}', '{}', 'stripe', 'cart-twice-1', '${'c'.repeat(64)}')`);
    const second = (await db.admin.query<{ id: string }>(`select id from public.orders where cart_id = 'cart-twice-1' and id <> $1`, [first])).rows[0]!.id;
    await db.admin.exec(`insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${second}', '${BOOK}', 'Cart Book', 2, 20)`);
    const before = await stock();
    expect(await call<string>('fulfil_order', [second])).toBe('fulfilled');
    expect(await call<string>('fulfil_order', [first])).toBe('duplicate');
    expect(await stock()).toBe(before - 2);
    expect(await orderOf(first)).toMatchObject({ payment_status: 'refund_due', status: 'cancelled', duplicate_of: second });
    // Asked again (a redelivered webhook, the confirmation page): the same answer.
    expect(await call<string>('fulfil_order', [first])).toBe('duplicate');
    expect(await call<string>('fulfil_order', [second])).toBe('already_fulfilled');
    // The publisher's notice may be claimed for it, once.
    expect(await call<boolean>('claim_publisher_notice', [first])).toBe(true);
    expect(await call<boolean>('claim_publisher_notice', [first])).toBe(false);
  });

  it('the same cart paid, then bought again later, is two orders, both kept', async () => {
    const first = await checkout('cart-again-1');
    expect(await call<string>('fulfil_order', [first])).toBe('fulfilled');
    const later = await checkout('cart-again-1');
    expect(await call<string>('fulfil_order', [later])).toBe('fulfilled');
  });

  it('two payments of one cart at the same moment: one order is kept, the other is the duplicate', async () => {
    const a = await checkout('cart-race-1');
    await call('cancel_unpaid_order', [a]);
    // The first page was closed as the second opened, and yet both were paid (the provider's answers crossed).
    await db.admin.exec(`update public.orders set status = 'pending', payment_status = 'unpaid' where id = '${a}'`);
    await db.admin.exec(`insert into public.orders (customer_email, customer_name, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, payment_provider, cart_id)
      values ('cart@example.com', 'Shopper', 40, 0, 40, '{}', '{}', 'stripe', 'cart-race-1')`);
    const b = (await db.admin.query<{ id: string }>(`select id from public.orders where cart_id = 'cart-race-1' and id <> $1`, [a])).rows[0]!.id;
    await db.admin.exec(`insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${b}', '${BOOK}', 'Cart Book', 2, 20)`);
    const results = await Promise.all([call<string>('fulfil_order', [a]), call<string>('fulfil_order', [b])]);
    expect(results.sort()).toEqual(['duplicate', 'fulfilled']);
  });
});
