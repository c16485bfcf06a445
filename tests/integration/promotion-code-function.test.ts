/**
 * /api/promotion-code over HTTP, through the local server as Netlify routes it: a one-use code with a checkout in
 * progress still applies (an unpaid checkout holds no use); a code not started, ended or used up answers as no
 * code; and the limit per client address, counted in a sliding window as Netlify counts it, refuses
 * a 31st request in any minute with 429 and a message a shopper can read, which the checkout page shows too when
 * Netlify's own 429 carries none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CartLine } from '@/features/cart/cart';
import { checkCode, RequestError, TOO_MANY_REQUESTS } from '@/features/checkout/api';
import { config } from '../../functions/promotion-code';
import { orderRow } from '../helpers/order-row';
import { startTestShop, type TestShop } from '../helpers/shop';

// The checkout's calls read the sign-in state only for a bearer token; none here.
vi.mock('@/features/account/auth', () => ({ $auth: { get: () => ({ status: 'signed-out', user: null, session: null }) } }));

const HOLDER = 'holder@example.com';
let t: TestShop;
let book = '';

/** An order of one $50 book with $1 off by `code`, written as checkout writes it. */
const orderWithCode = (email: string, code: string) =>
  t.service().rpc('create_order', {
    p_order: orderRow(email, { subtotal: 50, discount: 1, shipping: 0, promotion_code: code, shipping_address: { line1: '1 Test St' }, payment_provider: 'local-test' }),
    p_items: [{ product_id: book, title: 'Book', quantity: 1, price_at_time: 50 }],
  });

beforeAll(async () => {
  t = await startTestShop();
  const { data, error } = await t.service().from('products').select('id').eq('for_sale', true).gt('stock', 0).limit(1).single();
  if (error) throw error;
  book = (data as { id: string }).id;
  const codes = await t
    .service()
    .from('promotion_codes')
    .insert([
      { code: 'HTTPHELD', kind: 'amount', amount: 1, max_uses: 1, created_by: 'publisher@example.com' },
      { code: 'HTTPSOON', kind: 'amount', amount: 1, starts_at: new Date(Date.now() + 7 * 86_400_000).toISOString(), created_by: 'publisher@example.com' },
      { code: 'HTTPOVER', kind: 'amount', amount: 1, ends_at: new Date(Date.now() - 86_400_000).toISOString(), created_by: 'publisher@example.com' },
      { code: 'HTTPUSED', kind: 'amount', amount: 1, max_uses: 1, created_by: 'publisher@example.com' },
    ]);
  if (codes.error) throw codes.error;
  // HTTPUSED's one use went to a paid order.
  const used = await orderWithCode('paid@example.com', 'HTTPUSED');
  if (used.error) throw used.error;
  const paid = await t.service().rpc('fulfil_order', { p_order_id: used.data });
  if (paid.error || paid.data !== 'fulfilled') throw paid.error ?? new Error(String(paid.data));
  // The holder is on their payment page with HTTPHELD's one use.
  const held = await orderWithCode(HOLDER, 'HTTPHELD');
  if (held.error) throw held.error;
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const ask = (body: Record<string, unknown>) =>
  fetch(`${t.url}/api/promotion-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cartItems: [{ id: book, quantity: 1 }], ...body }) });

describe('/api/promotion-code', () => {
  it('a one-use code with a checkout in progress still applies for anyone: an unpaid checkout holds no use', async () => {
    const answer = await ask({ code: 'httpheld' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ok', code: 'HTTPHELD', discount: 1, message: null });
    // The email older pages send changes nothing.
    expect(await (await ask({ code: 'HTTPHELD', email: 'someone.else@example.com' })).json()).toMatchObject({ status: 'ok', discount: 1 });
  });

  it('a code not started, ended or used up answers exactly as one that does not exist, without its name or dates', async () => {
    const none = await (await ask({ code: 'NOSUCHCODE' })).json();
    expect(none).toEqual({ status: 'not_valid', subtotal: expect.any(Number), message: 'That code is not valid. Please check it and try again.' });
    for (const code of ['HTTPSOON', 'HTTPOVER', 'HTTPUSED']) expect(await (await ask({ code })).json()).toEqual(none);
  });

  it('answers 30 requests a minute per client address, in a sliding window: the 31st in any minute is 429 with a readable message', async () => {
    expect(config.rateLimit).toEqual({ windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] });
    // The local server's clock, well past the requests above.
    let now = Date.now() + 10 * 60_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const statuses = async (count: number) => Promise.all(Array.from({ length: count }, async () => (await ask({ code: 'NOSUCHCODE' })).status));

    expect(await statuses(1)).toEqual([200]);
    now += 59_000;
    expect(await statuses(29)).toEqual(Array(29).fill(200));
    const refused = await ask({ code: 'NOSUCHCODE' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'Too many requests. Please wait a minute and try again.' });

    // Two seconds on, the first request has left the minute: one more is answered, and the next is the 31st in a
    // minute again (a fixed window starting at the first request would have let another 30 through).
    now += 2_000;
    expect(await statuses(2)).toEqual([200, 429]);
    // A minute after the burst, the address is answered again.
    now += 60_000;
    expect(await statuses(1)).toEqual([200]);
  });

  it('the TEST payment page, like Stripe’s, takes no payment once it has closed: the order is cancelled and its use free', async () => {
    await t.service().from('promotion_codes').insert({ code: 'HTTPPAGE', kind: 'amount', amount: 1, max_uses: 1, created_by: 'publisher@example.com' });
    const placed = await orderWithCode('late-payer@example.com', 'HTTPPAGE');
    if (placed.error) throw placed.error;
    const session = `cs_local_${placed.data}`;
    const linked = await t.service().rpc('link_checkout_session', { p_order_id: placed.data, p_session_id: session, p_expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(linked).toMatchObject({ data: true, error: null });

    const form = new URLSearchParams({ session, success: `${t.url}/order-confirmation?session_id={CHECKOUT_SESSION_ID}`, cancel: `${t.url}/cart`, action: 'pay' });
    const paid = await fetch(`${t.url}/api/test-payment`, { method: 'POST', body: form, redirect: 'manual' });
    expect(paid.status).toBe(410);
    expect(await paid.text()).toContain('This payment page has closed');
    const { data } = await t.service().from('orders').select('status, payment_status').eq('id', placed.data).single();
    expect(data).toEqual({ status: 'cancelled', payment_status: 'expired' });
    expect(await (await ask({ code: 'HTTPPAGE' })).json()).toMatchObject({ status: 'ok' });
  });

  it('the checkout page shows Netlify’s own 429, which carries no message of ours, as one a shopper can read', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response('Too Many Requests', { status: 429, headers: { 'content-type': 'text/plain' } });
    });
    const lines = [{ product: { id: book }, quantity: 1 }] as unknown as CartLine[];
    const refused = await checkCode('HTTPHELD', lines, ' holder@example.com ').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestError);
    expect(refused).toMatchObject({ status: 429, message: TOO_MANY_REQUESTS });
    // The page sends the email typed so far with the check.
    expect(sent).toEqual([{ code: 'HTTPHELD', cartItems: [{ id: book, quantity: 1 }], email: HOLDER }]);
  });
});
