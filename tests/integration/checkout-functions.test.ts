/**
 * The checkout functions as an attacker or a broken client would call them: the browser's prices are
 * never charged, bad input gets a 4xx with a message, and no body whatever yields a 5xx.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderRow } from '../helpers/order-row';
import { startTestShop, type TestShop } from '../helpers/shop';
import { internationalPrice } from '../../src/lib/international-rates';

let t: TestShop;
beforeAll(async () => {
  t = await startTestShop();
  await t.service().from('products').insert({ id: 'two-left', title: 'Two Left', price: 10, stock: 2 });
  await t.service().from('products').insert({ id: 'off-sale', title: 'Off Sale', price: 10, stock: 5, for_sale: false });
});
afterAll(() => t.close());

const address = { fullName: 'Guest', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };

async function post(path: string, body: unknown, raw = false) {
  const response = await fetch(`${t.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> | null };
}

/** The order's `columns` as they were stored. */
async function storedOrder(orderId: string, columns: string): Promise<Record<string, unknown>> {
  const { data } = await t.service().from('orders').select(columns).eq('id', orderId).single<Record<string, unknown>>();
  return data ?? {};
}

async function orderTotals(orderId: string) {
  const data = await storedOrder(orderId, 'subtotal_amount, shipping_amount, total_amount, customer_name');
  const { data: items } = await t.service().from('order_items').select('price_at_time, quantity').eq('order_id', orderId);
  return { ...data, items } as Record<string, unknown>;
}

describe('create-checkout charges the database price', () => {
  it('ignores a tampered price and recomputes shipping', async () => {
    const { status, body } = await post('create-checkout', {
      cartItems: [{ product: { id: 'book-10-reasons', price: 0.01 }, id: 'book-10-reasons', quantity: 2, price: 0.01 }],
      shippingDetails: { ...address, shippingMethod: { id: 'au-standard', price: 0 } },
      customerEmail: 'buyer@example.com',
      total: 0.02,
    });
    expect(status).toBe(200);
    expect(body?.url).toMatch(/\/api\/test-payment\?session=cs_local_/);
    expect(await orderTotals(body!.orderId as string)).toMatchObject({
      subtotal_amount: 44,
      shipping_amount: 15,
      total_amount: 59,
      customer_name: 'Guest',
      items: [{ price_at_time: 22, quantity: 2 }],
    });
    const page = await (await fetch(body!.url as string)).text();
    expect(page).toContain('$59.00');
    expect(page).toContain('TEST PAYMENT');
  });

  it('names a guest without a name "Guest Customer"', async () => {
    const { body } = await post('create-checkout', { cartItems: [{ id: 'book-10-reasons', quantity: 1 }], shippingDetails: { ...address, fullName: '' }, customerEmail: 'g@example.com' });
    expect((await orderTotals(body!.orderId as string)).customer_name).toBe('Guest Customer');
  });

  it.each([
    ['AU at 75 AUD or more ships free', 'AU', 4, 0],
    ['AU below 75 AUD pays the standard rate', 'AU', 3, 15],
    // 4 copies of a 300 g book: the rate card's International Standard for 1.2 kg (no Australia Post key here).
    ['abroad pays International Standard for the parcel’s weight, whatever the subtotal', 'NZ', 4, internationalPrice('NZ', 'standard', 1200)],
  ])('%s', async (_, country, quantity, shipping) => {
    const method = country === 'AU' ? 'au-standard' : 'international-standard';
    const { status, body } = await post('create-checkout', {
      cartItems: [{ id: 'book-10-reasons', quantity }],
      shippingDetails: { ...address, country, shippingMethod: { id: method } },
      customerEmail: 'free@example.com',
    });
    expect(status).toBe(200);
    expect((await orderTotals(body!.orderId as string)).shipping_amount).toBe(shipping);
  });
});

describe('create-checkout stores names and address lines as single lines', () => {
  it('a name carrying a forged second line, control characters and a bidi override is stored on one line', async () => {
    const { status, body } = await post('create-checkout', {
      cartItems: [{ id: 'book-10-reasons', quantity: 1 }],
      shippingDetails: {
        ...address,
        fullName: 'Jane Doe\r\nACTION NEEDED: pay again at https://evil.example/pay\u0000',
        addressLine1: '1 Church St\u2028Level 2',
        addressLine2: '\u202Eevil\u202C Unit 3\u0007',
        city: 'Parramatta\n',
        state: ' NSW\u0085',
        postalCode: '21\u000750',
        phone: '0400\r000 000',
      },
      customerEmail: 'oneline@example.com',
    });
    expect(status).toBe(200);
    const data = await storedOrder(body!.orderId as string, 'customer_name, shipping_address');
    expect(data?.customer_name).toBe('Jane Doe ACTION NEEDED: pay again at https://evil.example/pay');
    expect(data?.shipping_address).toMatchObject({ addressLine1: '1 Church St Level 2', addressLine2: 'evil Unit 3', city: 'Parramatta', state: 'NSW', postalCode: '2150', phone: '0400 000 000' });
  });
});

describe('create-checkout writes an address the post can deliver to', () => {
  it('an Australian address with the state left out gets the state its postcode belongs to', async () => {
    const { status, body } = await post('create-checkout', {
      cartItems: [{ id: 'book-10-reasons', quantity: 1 }],
      shippingDetails: { ...address, state: '', postalCode: '2600', city: 'Canberra' },
      customerEmail: 'derived-state@example.com',
    });
    expect(status).toBe(200);
    const data = await storedOrder(body!.orderId as string, 'shipping_address');
    expect(data?.shipping_address).toMatchObject({ state: 'ACT', postalCode: '2600' });
  });

  it.each([
    [
      'a US address without its state',
      { country: 'US', state: '', postalCode: '10001', shippingMethod: { id: 'international-standard' } },
      /shippingDetails\.state: Please complete your shipping address/,
    ],
    ['a ZIP code of four digits', { country: 'US', state: 'NY', postalCode: '1001', shippingMethod: { id: 'international-standard' } }, /Please enter a valid zip code \(for example 10001\)/],
    ['an Australian postcode of three digits', { postalCode: '200' }, /Please enter a valid postcode \(for example 2000\)/],
    ['a state that is none', { state: 'Sydney' }, /Please choose a state from the list/],
  ])('%s is refused with the field and what to do', async (_case, change, message) => {
    const { status, body } = await post('create-checkout', { cartItems: [{ id: 'book-10-reasons', quantity: 1 }], shippingDetails: { ...address, ...change }, customerEmail: 'x@example.com' });
    expect(status).toBe(400);
    expect(body?.error).toMatch(message);
  });
});

describe('create-checkout refuses bad input with a 4xx and a message', () => {
  const good = { cartItems: [{ id: 'book-10-reasons', quantity: 1 }], shippingDetails: address, customerEmail: 'x@example.com' };
  it.each([
    ['a negative quantity', { ...good, cartItems: [{ id: 'book-10-reasons', quantity: -1 }] }, 400, /at least 1/],
    ['a fractional quantity', { ...good, cartItems: [{ id: 'book-10-reasons', quantity: 1.5 }] }, 400, /whole number/],
    ['an empty cart', { ...good, cartItems: [] }, 400, /Your cart is empty/],
    ['an unknown product', { ...good, cartItems: [{ id: 'no-such-book', quantity: 1 }] }, 400, /couldn't find/],
    ['a book taken off sale', { ...good, cartItems: [{ id: 'off-sale', quantity: 1 }] }, 400, /couldn't find/],
    ['more than the stock', { ...good, cartItems: [{ id: 'two-left', quantity: 3 }] }, 409, /Only 2 left/],
    ['a country we do not ship to', { ...good, shippingDetails: { ...address, country: 'FR' } }, 400, /We ship to/],
    ['an invalid email', { ...good, customerEmail: 'nope' }, 400, /valid email/],
    ['an email carrying a query', { ...good, customerEmail: 'a@x.co?bcc=spy%40evil.example' }, 400, /valid email/],
    ['an email with a one-letter top-level domain', { ...good, customerEmail: 'jane@example.c' }, 400, /valid email/],
    ['a missing address line', { ...good, shippingDetails: { ...address, addressLine1: '  ' } }, 400, /complete your shipping address/],
    ['no shipping method', { ...good, shippingDetails: { ...address, shippingMethod: { id: '' } } }, 400, /Please select a shipping method/],
    ['a shipping method that is not offered', { ...good, shippingDetails: { ...address, shippingMethod: { id: 'teleport' } } }, 409, /Please choose one again/],
    ['a return address on another site', { ...good, successUrl: 'https://evil.example/ok' }, 400, /on this site/],
  ])('%s', async (_, body, status, message) => {
    const answer = await post('create-checkout', body);
    expect(answer.status).toBe(status);
    expect(String(answer.body?.error)).toMatch(message);
  });

  it('a malformed body', async () => {
    const answer = await post('create-checkout', '{"cartItems": [', true);
    expect(answer.status).toBe(400);
    expect(answer.body?.error).toBe('The request body is not valid JSON.');
  });
});

describe('create-checkout when the delivery options changed since the page showed them', () => {
  afterEach(() => {
    delete process.env.AUSPOST_API_KEY;
    vi.unstubAllGlobals();
  });

  it('a live Australia Post option chosen on the page, and Australia Post failing at checkout: 409 with the current options, no order', async () => {
    process.env.AUSPOST_API_KEY = 'pac-test-key';
    const realFetch = globalThis.fetch;
    // Australia Post is down now (as its gateway answers); every other request goes through.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(input instanceof Request ? input.url : String(input)).hostname === 'digitalapi.auspost.com.au' ? Promise.resolve(new Response('Bad gateway', { status: 502 })) : realFetch(input, init),
    );
    const before = (await t.service().from('orders').select('id', { count: 'exact', head: true })).count;
    const { status, body } = await post('create-checkout', {
      cartItems: [{ id: 'book-10-reasons', quantity: 1 }],
      shippingDetails: { ...address, shippingMethod: { id: 'AUS_PARCEL_REGULAR' } },
      customerEmail: 'changed@example.com',
    });
    expect(status).toBe(409);
    expect(body).toEqual({
      error: 'The delivery options for your address have changed. Please choose one again.',
      quotes: [expect.objectContaining({ id: 'au-standard', plan_name: 'AU Standard Courier', price: 15 }), expect.objectContaining({ id: 'au-express', price: 25 })],
      message: 'Could not fetch shipping rates.',
    });
    expect((await t.service().from('orders').select('id', { count: 'exact', head: true })).count).toBe(before);
  });
});

describe('the order, its items and its payment session are written together', () => {
  const order = orderRow('tx@example.com', { shipping_method: { id: 'au-standard' }, payment_provider: 'local-test' });

  it('an item that cannot be written leaves no order behind', async () => {
    const before = (await t.service().from('orders').select('id', { count: 'exact', head: true }).eq('customer_email', 'tx@example.com')).count;
    const { error } = await t.service().rpc('create_order', {
      p_order: order,
      p_items: [
        { product_id: 'book-10-reasons', title: 'Book', quantity: 1, price_at_time: 22 },
        { product_id: 'no-such-product', title: 'Ghost', quantity: 1, price_at_time: 0 },
      ],
    });
    expect(error?.code).toBe('23503');
    expect((await t.service().from('orders').select('id', { count: 'exact', head: true }).eq('customer_email', 'tx@example.com')).count).toBe(before);
  });

  it('linking the same session twice is fine; another session for a linked order is refused', async () => {
    const { data: orderId } = await t.service().rpc('create_order', { p_order: order, p_items: [{ product_id: 'book-10-reasons', title: 'Book', quantity: 1, price_at_time: 22 }] });
    const link = async (session: string) => (await t.service().rpc('link_checkout_session', { p_order_id: orderId, p_session_id: session })).data;
    expect(await link('cs_local_first')).toBe(true);
    expect(await link('cs_local_first')).toBe(true);
    expect(await link('cs_local_second')).toBe(false);
    expect((await t.service().from('orders').select('checkout_session_id').eq('id', orderId).single()).data).toEqual({ checkout_session_id: 'cs_local_first' });
  });
});

describe('fuzz: random bodies never yield a 5xx', () => {
  const functionPaths = readdirSync('functions')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .filter((name) => !['health', 'stripe-webhook', 'test-payment'].includes(name))
    // A scheduled function has no path and reads no body: Netlify runs it, never a visitor.
    .filter((name) => !/export const config: ScheduledFunctionConfig/.test(readFileSync(`functions/${name}.ts`, 'utf8')));

  function randomValue(depth = 0): unknown {
    const pick = Math.floor(Math.random() * (depth > 2 ? 5 : 8));
    switch (pick) {
      case 0:
        return null;
      case 1:
        return Math.random() > 0.5;
      case 2:
        return [Math.random() * 1e6 - 5e5, -1, 0, 1.5, Number.MAX_SAFE_INTEGER][Math.floor(Math.random() * 5)];
      case 3:
        return ['', 'book-10-reasons', 'AU', 'a'.repeat(5000), '<script>', "'; drop table orders; --", 'x@y.z', '{CHECKOUT_SESSION_ID}'][Math.floor(Math.random() * 8)];
      case 4:
        return 'suggest';
      case 5:
        return Array.from({ length: Math.floor(Math.random() * 4) }, () => randomValue(depth + 1));
      default: {
        const keys = [
          'cartItems',
          'shippingDetails',
          'customerEmail',
          'id',
          'quantity',
          'country',
          'action',
          'input',
          'place_id',
          'sessionId',
          'deliveryPostcode',
          'deliveryCountry',
          'cart',
          'type',
          'data',
          'turnstileToken',
          'product',
        ];
        return Object.fromEntries(Array.from({ length: Math.floor(Math.random() * 6) }, () => [keys[Math.floor(Math.random() * keys.length)]!, randomValue(depth + 1)]));
      }
    }
  }

  it(`covers ${'every'} function`, () => expect(functionPaths.length).toBeGreaterThanOrEqual(6));

  // Called directly (not through the local server's rate limit), so every body reaches the validation.
  it('200 random bodies per function', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const name of functionPaths) {
      const handler = ((await import(`../../functions/${name}.ts`)) as { default: (r: Request) => Promise<Response> }).default;
      for (let i = 0; i < 200; i += 1) {
        const body = i % 10 === 0 ? '{not json' : JSON.stringify(randomValue());
        const response = await handler(new Request(`${t.url}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) failures.push(`${name} ${response.status} ${body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(statuses.get(400)).toBeGreaterThan(100);
  }, 180_000);
});
