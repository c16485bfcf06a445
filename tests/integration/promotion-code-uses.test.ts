/**
 * When a limited promotion code's use is taken, on the embedded backend and on PostgreSQL 17: only by a payment.
 * Unpaid checkouts hold nothing, so one visitor with ten addresses and ten payment pages left open cannot keep a
 * real buyer from a code with uses left; a payment that arrives after the last use went is refunded in full (the
 * order flagged, the stock untouched); and a code that has not started, has ended or is used up answers exactly as
 * a code that does not exist.
 */
import { describe, expect, it } from 'vitest';
import { orderRow } from '../helpers/order-row';
import { callFunction, DATABASES, useTestDatabase } from '../helpers/test-databases';

const BOOK = 'uses-book';
const ITEMS = JSON.stringify([{ product_id: BOOK, title: 'Uses Book', quantity: 2, price_at_time: 25 }]);

describe.each(DATABASES)('promotion code uses on the $label', ({ open }) => {
  const db = useTestDatabase(open, `insert into public.products (id, title, price, stock) values ('${BOOK}', 'Uses Book', 25, 1000)`);

  const call = <T>(fn: string, args: unknown[]) => callFunction<T>(db, fn, args);
  /** A code of $5 off, with `maxUses` uses. */
  const newCode = (code: string, maxUses: number | null, period = { starts: 'null', ends: 'null' }) =>
    db.admin.exec(
      `insert into public.promotion_codes (code, kind, amount, max_uses, starts_at, ends_at, created_by) values ('${code}', 'amount', 5, ${maxUses ?? 'null'}, ${period.starts}, ${period.ends}, 'publisher@example.com')`,
    );
  const check = (code: string) => call<Record<string, unknown>>('check_promotion_code', [code, 50]);
  /** Checks out $50 of goods with the code as `email`, from the browser cart `cart`: the new order's id. */
  const checkout = (email: string, code: string, cart?: string) =>
    call<string>('create_order', [
      JSON.stringify(
        orderRow(email, {
          subtotal: 50,
          discount: 5,
          shipping: 0,
          customer_name: 'Shopper',
          promotion_code: code,
          shipping_address: { line1: '1 Test St' },
          payment_provider: 'stripe',
          ...(cart && { cart_id: cart }),
        }),
      ),
      ITEMS,
    ]);
  /** Why create_order refused the checkout, or 'placed'. */
  const refusal = (email: string, code: string) =>
    checkout(email, code).then(
      () => 'placed',
      (error: Error) => error.message,
    );
  const orderOf = async (id: string) =>
    (await db.admin.query<{ status: string; payment_status: string; code_used_up: boolean }>(`select status, payment_status, code_used_up from public.orders where id = $1`, [id])).rows[0]!;
  const stock = async () => (await db.admin.query<{ stock: number }>(`select stock from public.products where id = '${BOOK}'`)).rows[0]!.stock;
  const usesOf = async (code: string) => (await db.admin.query<{ uses: number }>(`select public.promotion_code_uses(id) as uses from public.promotion_codes where code = $1`, [code])).rows[0]?.uses;

  it('one visitor with ten addresses and ten unpaid checkouts keeps no buyer from a one-use code', async () => {
    await newCode('ONEUSE', 1);
    // The hoarder: a+1@x … a+10@x, each its own cart and open payment page.
    for (let i = 1; i <= 10; i++) await checkout(`a+${i}@example.com`, 'ONEUSE', `hoard-cart-${i}`);
    expect(await usesOf('ONEUSE')).toBe(0);
    // The real buyer is offered the code, checks out with it and pays: the use is theirs.
    expect(await check('ONEUSE')).toEqual({ status: 'ok', code: 'ONEUSE', kind: 'amount', amount: 5, discount: 5 });
    const buyer = await checkout('real.buyer@example.com', 'ONEUSE', 'buyer-cart');
    expect(await call<string>('fulfil_order', [buyer])).toBe('fulfilled');
    expect(await usesOf('ONEUSE')).toBe(1);
    // Now it has ended: a new checkout is refused as for a code that never existed.
    expect(await check('ONEUSE')).toEqual({ status: 'not_valid' });
    expect(await refusal('later@example.com', 'ONEUSE')).toBe('promotion code refused: not_valid');
  });

  it('a payment that arrives after the last use went is refunded: flagged, stock untouched, the same answer again', async () => {
    await newCode('LASTONE', 1);
    const first = await checkout('first@example.com', 'LASTONE');
    const second = await checkout('second@example.com', 'LASTONE');
    const before = await stock();
    expect(await call<string>('fulfil_order', [first])).toBe('fulfilled');
    expect(await call<string>('fulfil_order', [second])).toBe('code_used_up');
    expect(await orderOf(second)).toEqual({ status: 'cancelled', payment_status: 'refund_due', code_used_up: true });
    expect(await stock()).toBe(before - 2);
    // A retried webhook or a second visit to the confirmation page is told the same, never that it is paid.
    expect(await call<string>('fulfil_order', [second])).toBe('code_used_up');
    expect(await usesOf('LASTONE')).toBe(1);
  });

  it('a code of two uses takes two payments; a cancelled order gives its use back', async () => {
    await newCode('TWOUSES', 2);
    const orders = await Promise.all(['x@example.com', 'y@example.com', 'z@example.com'].map((email) => checkout(email, 'TWOUSES')));
    expect(await call<string>('fulfil_order', [orders[0]])).toBe('fulfilled');
    expect(await check('TWOUSES')).toMatchObject({ status: 'ok' });
    expect(await call<string>('cancel_unpaid_order', [orders[1]])).toBe('cancelled');
    expect(await call<string>('fulfil_order', [orders[2]])).toBe('fulfilled');
    expect(await check('TWOUSES')).toEqual({ status: 'not_valid' });
  });

  it('a code that has not started, has ended or is switched off answers exactly as a code that does not exist', async () => {
    await newCode('SOON', null, { starts: `now() + interval '7 days'`, ends: 'null' });
    await newCode('OVER', null, { starts: `now() - interval '7 days'`, ends: `now() - interval '1 day'` });
    await newCode('OFF', null);
    await db.admin.exec(`update public.promotion_codes set active = false where code = 'OFF'`);
    const unknown = await check('NOSUCHCODE');
    expect(unknown).toEqual({ status: 'not_valid' });
    for (const code of ['SOON', 'OVER', 'OFF']) {
      const answer = await check(code);
      expect(answer).toEqual(unknown);
      expect(JSON.stringify(answer)).not.toContain(code);
      expect(await refusal('early@example.com', code)).toBe('promotion code refused: not_valid');
    }
  });
});
