/**
 * How long an unpaid checkout holds a use of a limited promotion code, on the embedded backend and on PostgreSQL 17:
 * only while its payment page is open (the expired webhook lets it go at once); one shopper, whatever the case of
 * their email, holds at most one use; the last uses held by checkouts in progress answer 'held', taken by paid
 * orders 'used_up'; and a code that has not started answers as one that does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestDatabase } from '../helpers/test-databases';

const BOOK = 'holds-book';
const ITEMS = JSON.stringify([{ product_id: BOOK, title: 'Holds Book', quantity: 2, price_at_time: 25 }]);

describe.each(DATABASES)('promotion code holds on the $label', ({ open }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await open();
    await db.admin.exec(`insert into public.products (id, title, price, stock) values ('${BOOK}', 'Holds Book', 25, 1000)`);
  });
  afterAll(() => db.close());

  const call = async <T>(fn: string, args: unknown[]): Promise<T> => {
    const placeholders = args.map((_, i) => `$${i + 1}`).join(', ');
    const { rows } = await db.request('service_role', {}, `select public.${fn}(${placeholders}) as result`, { params: args, commit: true });
    return rows[0]?.result as T;
  };
  /** A code of $5 off, with `maxUses` uses. */
  const newCode = (code: string, maxUses: number | null, startsAt = 'null') =>
    db.admin.exec(
      `insert into public.promotion_codes (code, kind, amount, max_uses, starts_at, created_by) values ('${code}', 'amount', 5, ${maxUses ?? 'null'}, ${startsAt}, 'publisher@example.com')`,
    );
  const check = (code: string, shopper?: string) => call<Record<string, unknown>>('check_promotion_code', shopper === undefined ? [code, 50] : [code, 50, shopper]);
  /** Checks out $50 of goods with the code as `email`: the new order's id. */
  const checkout = (email: string, code: string) =>
    call<string>('create_order', [
      JSON.stringify({
        customer_email: email,
        customer_name: 'Shopper',
        subtotal_amount: 50,
        discount_amount: 5,
        promotion_code: code,
        shipping_amount: 0,
        total_amount: 45,
        shipping_address: { line1: '1 Test St' },
        shipping_method: { name: 'AU Standard Courier' },
        payment_provider: 'stripe',
      }),
      ITEMS,
    ]);
  /** Why create_order refused the checkout, or 'placed'. */
  const refusal = (email: string, code: string) =>
    checkout(email, code).then(
      () => 'placed',
      (error: Error) => error.message,
    );
  const orderOf = async (id: string) =>
    (
      await db.admin.query<{ status: string; payment_status: string; open_minutes: number | null; expires_at: string | null }>(
        `select status, payment_status, extract(epoch from checkout_expires_at - now()) / 60 as open_minutes, checkout_expires_at::text as expires_at from public.orders where id = $1`,
        [id],
      )
    ).rows[0]!;
  /** The payment page's clock runs past its expiry (no webhook has come). */
  const pageCloses = (id: string) => db.admin.exec(`update public.orders set checkout_expires_at = now() - interval '1 second' where id = '${id}'`);
  const usesOf = async (code: string) => (await db.admin.query<{ uses: number }>(`select public.promotion_code_uses(id) as uses from public.promotion_codes where code = $1`, [code])).rows[0]?.uses;

  it('an unpaid checkout holds its use only while its payment page is open; the expired webhook lets it go at once', async () => {
    await newCode('PAGE1', 1);
    const first = await checkout('first@example.com', 'PAGE1');
    // Before its payment page is linked, the order holds the use as long as a page with a code stays open.
    expect(Number((await orderOf(first)).open_minutes)).toBeGreaterThan(30.9);
    expect(Number((await orderOf(first)).open_minutes)).toBeLessThanOrEqual(31);
    expect(await check('PAGE1')).toEqual({ status: 'held', code: 'PAGE1' });

    // The page is made: its expiry, as the provider answered, is stored; a link that names none keeps it.
    const closes = (await db.admin.query<{ t: string }>(`select (now() + interval '20 minutes')::text as t`)).rows[0]!.t;
    expect(await call<boolean>('link_checkout_session', [first, 'cs_page1', closes])).toBe(true);
    expect(Number((await orderOf(first)).open_minutes)).toBeCloseTo(20, 0);
    expect(await call<boolean>('link_checkout_session', [first, 'cs_page1', null])).toBe(true);
    expect(Number((await orderOf(first)).open_minutes)).toBeCloseTo(20, 0);

    // The page closes unpaid and no webhook comes: the use is free again, though the order is still unpaid.
    await pageCloses(first);
    expect(await orderOf(first)).toMatchObject({ status: 'pending', payment_status: 'unpaid' });
    expect(await check('PAGE1')).toEqual({ status: 'ok', code: 'PAGE1', kind: 'amount', amount: 5, discount: 5 });
    expect(await usesOf('PAGE1')).toBe(0);

    // The next shopper takes it; their page's expired webhook cancels the order and lets the use go at once.
    const second = await checkout('second@example.com', 'PAGE1');
    expect(await check('PAGE1')).toMatchObject({ status: 'held' });
    expect(await call<string>('cancel_unpaid_order', [second])).toBe('cancelled');
    expect(await check('PAGE1')).toMatchObject({ status: 'ok' });

    // A paid order keeps its use after its page has closed.
    const third = await checkout('third@example.com', 'PAGE1');
    expect(await call<string>('fulfil_order', [third])).toBe('fulfilled');
    await pageCloses(third);
    expect(await check('PAGE1')).toEqual({ status: 'used_up', code: 'PAGE1' });
    expect(await usesOf('PAGE1')).toBe(1);
  });

  it('one shopper, whatever the case of their email, holds at most one use: a new checkout replaces their hold', async () => {
    await newCode('TWO', 2);
    await checkout('Ann@Example.com', 'TWO');
    await checkout('ann@example.com', 'TWO');
    expect(await usesOf('TWO')).toBe(1);
    expect(await check('TWO')).toMatchObject({ status: 'ok' });

    await checkout('bob@example.com', 'TWO');
    expect(await check('TWO')).toEqual({ status: 'held', code: 'TWO' });
    // Ann may check out again (her own hold is taken over); a third shopper may not.
    expect(await refusal('ANN@example.com', 'TWO')).toBe('placed');
    expect(await refusal('cy@example.com', 'TWO')).toBe('promotion code refused: held');
    expect(await usesOf('TWO')).toBe(2);
    // The check knows the shopper when the page sends their email: Ann is not held back by her own checkout.
    expect(await check('TWO', ' ann@EXAMPLE.com ')).toMatchObject({ status: 'ok', discount: 5 });
    expect(await check('TWO', 'cy@example.com')).toMatchObject({ status: 'held' });
  });

  it('the last uses held by checkouts in progress answer held; taken by paid orders, used up', async () => {
    await newCode('LASTTWO', 2);
    const payer = await checkout('payer@example.com', 'LASTTWO');
    const waiting = await checkout('waiting@example.com', 'LASTTWO');
    expect(await check('LASTTWO')).toEqual({ status: 'held', code: 'LASTTWO' });
    expect(await refusal('late@example.com', 'LASTTWO')).toBe('promotion code refused: held');

    // One paid, one still on its page: still held (that use may come back).
    expect(await call<string>('fulfil_order', [payer])).toBe('fulfilled');
    expect(await check('LASTTWO')).toEqual({ status: 'held', code: 'LASTTWO' });
    // Both paid: used up.
    expect(await call<string>('fulfil_order', [waiting])).toBe('fulfilled');
    expect(await check('LASTTWO')).toEqual({ status: 'used_up', code: 'LASTTWO' });
    expect(await refusal('later@example.com', 'LASTTWO')).toBe('promotion code refused: used_up');
  });

  it('a code that has not started answers exactly as a code that does not exist, with no date', async () => {
    await newCode('SOON', null, `now() + interval '7 days'`);
    const soon = await check('SOON');
    expect(soon).toEqual({ status: 'not_valid' });
    expect(soon).toEqual(await check('NOSUCHCODE'));
    expect(JSON.stringify(soon)).not.toMatch(/starts|SOON/);
    expect(await refusal('early@example.com', 'SOON')).toBe('promotion code refused: not_valid');
  });
});
