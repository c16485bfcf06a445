/**
 * Every function that takes a body refuses one over its limit with 413 and a message, before parsing it:
 * by its Content-Length (through the local server, as a browser or curl sends it), and by counting what
 * arrives when no length is declared (a chunked body, called in-process). Nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../functions/_lib/http';
import { loadFunctions, type MountedFunction } from '../../local/functions';
import { startTestShop, type TestShop } from '../helpers/shop';

const STAFF = 'body-limit-staff@example.com';
/** The Stripe webhook takes events up to 256 KB; every other function 64 KB. */
const WEBHOOK_LIMIT = 256 * 1024;

let t: TestShop;
let staffToken = '';
const functions: MountedFunction[] = [];

beforeAll(async () => {
  t = await startTestShop();
  expect((await t.service().from('staff_members').insert({ email: STAFF })).error).toBeNull();
  const session = await (await t.signIn(STAFF)).auth.getSession();
  staffToken = session.data.session?.access_token ?? '';
  // The routed functions: a scheduled one takes no request body from anyone but Netlify.
  functions.push(...(await loadFunctions('functions')).routed);
});
afterAll(() => t.close());

const counts = async () =>
  Object.fromEntries(
    await Promise.all(
      ['orders', 'order_items', 'contact_submissions', 'newsletter_subscriptions', 'payment_events'].map(async (table) => [
        table,
        (await t.service().from(table).select('*', { count: 'exact', head: true })).count,
      ]),
    ),
  );

/** A JSON-looking body of `bytes` bytes: valid up to the point it is cut off, as an attacker would pad one. */
const padded = (bytes: number) => `{"padding":"${'x'.repeat(bytes - 14)}"}`;

/** A body streamed in 16 KB chunks with no Content-Length; counts how much of it the function pulled. */
function chunkedBody(bytes: number) {
  const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

const takesBody = () => functions.filter((f) => f.config.method?.includes('POST'));

describe('the body limit', () => {
  it('covers every function that accepts POST', () => {
    expect(takesBody().map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'address-places',
        'admin-order',
        'courier-rates',
        'create-checkout',
        'order-status',
        'payment-config',
        'send-notification',
        'stripe-webhook',
        'test-payment',
        'verify-payment',
      ]),
    );
  });

  it('a declared Content-Length over the limit: 413 with a message from every function, nothing written', async () => {
    const before = await counts();
    for (const { name, config } of takesBody()) {
      const limit = name === 'stripe-webhook' ? WEBHOOK_LIMIT : MAX_BODY_BYTES;
      const body = padded(limit + 1);
      const response = await fetch(`${t.url}${config.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}`, 'stripe-signature': 't=1,v1=x' },
        body,
      });
      expect(response.status, name).toBe(413);
      const answer = (await response.json()) as { error?: string };
      expect(answer.error, name).toBe(`The request is too large (at most ${limit / 1024} KB). Please shorten what you entered and try again.`);
      // One byte less is read (and refused, if at all, for what it says).
      const atLimit = await fetch(`${t.url}${config.path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, body: padded(limit) });
      expect(atLimit.status, name).not.toBe(413);
    }
    expect(await counts()).toEqual(before);
  });

  it('a chunked body with no length: 413 once the limit is passed, read no further, from every function that reads one', async () => {
    const before = await counts();
    // These accept POST but never read the body (the unsubscribe's is RFC 8058's fixed form; its token is in
    // the address): a declared one over the limit is refused above, and a chunked one is never pulled.
    const neverRead = ['payment-config', 'newsletter-unsubscribe'];
    for (const { name, config, handler } of takesBody().filter((f) => !neverRead.includes(f.name))) {
      const limit = name === 'stripe-webhook' ? WEBHOOK_LIMIT : MAX_BODY_BYTES;
      const body = chunkedBody(10 * 1024 * 1024);
      const request = new Request(`${t.url}${config.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}`, 'stripe-signature': 't=1,v1=x' },
        body: body.stream,
        duplex: 'half',
      } as RequestInit);
      expect(request.headers.get('content-length'), name).toBeNull();
      const response = await handler(request);
      expect(response.status, name).toBe(413);
      expect(((await response.json()) as { error?: string }).error, name).toMatch(/^The request is too large/);
      expect(body.pulled(), name).toBeLessThanOrEqual(limit + 64 * 1024);
    }
    expect(await counts()).toEqual(before);
  });

  it('a chunked body through the local server is answered 413 too (read no further, no connection reset)', async () => {
    const before = await counts();
    for (const path of ['/api/create-checkout', '/api/send-notification']) {
      const body = chunkedBody(4 * 1024 * 1024);
      const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body.stream, duplex: 'half' } as RequestInit);
      expect(response.status, path).toBe(413);
      expect(((await response.json()) as { error?: string }).error, path).toMatch(/^The request is too large/);
    }
    expect(await counts()).toEqual(before);
  });

  it('create-checkout writes no order for an oversized body that is otherwise a valid checkout', async () => {
    const before = await counts();
    const checkout = {
      cartItems: [{ id: 'book-10-reasons', quantity: 1 }],
      shippingDetails: { fullName: 'Guest', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } },
      customerEmail: 'big@example.com',
    };
    const response = await fetch(`${t.url}/api/create-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...checkout, padding: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(await counts()).toEqual(before);
    // The same checkout at a normal size goes through.
    expect((await fetch(`${t.url}/api/create-checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(checkout) })).status).toBe(200);
  });

  it('a webhook event under its own limit but over the default is read, and judged by its signature', async () => {
    const response = await fetch(`${t.url}/api/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': 't=1,v1=x' }, body: padded(MAX_BODY_BYTES * 2) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Webhook signature verification failed.' });
  });
});
