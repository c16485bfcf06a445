/**
 * The Starshipit adapter against a local server answering as Starshipit's API reference shows: both keys in
 * headers, { order: { order_id } } for a new order, { labels: [base64 PDF], tracking_numbers } for a label,
 * { success: false, errors: [{ message, details }] } when it refuses, 429 with Retry-After past the rate limit.
 * And the webhook's signature: X-Starshipit-Signature, the HMAC-SHA256 of the raw body under the secret.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProviderError, WebhookSignatureError } from '../../../functions/_lib/providers/errors';
import type { PlatformOrder } from '../../../functions/_lib/providers/shipping-platform';
import { createStarshipit, signStarshipitBody } from '../../../functions/_lib/providers/starshipit';
import { ConfigurationError } from '../../../functions/_lib/runtime';
import { sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';

const API_KEY = 'ssi-api-key';
const SUBSCRIPTION_KEY = 'ssi-subscription-key';
const SECRET = 'webhook-secret';

const fake = useFakeProvider();

/** Starshipit's gateway first: a missing or wrong key is a 401 before the handler sees the request. */
async function fakeStarshipit(handler: Handler): Promise<string> {
  const { url } = await fake.start((seen, response) => {
    if (seen.headers['starshipit-api-key'] !== API_KEY || seen.headers['ocp-apim-subscription-key'] !== SUBSCRIPTION_KEY) {
      return sendJson(response, 401, { statusCode: 401, message: 'Access denied due to invalid subscription key.' });
    }
    handler(seen, response);
  });
  return url;
}

const platform = (baseUrl: string, options: { timeoutMs?: number; apiKey?: string } = {}) =>
  createStarshipit({ apiKey: options.apiKey ?? API_KEY, subscriptionKey: SUBSCRIPTION_KEY, webhookSecret: SECRET, baseUrl, timeoutMs: options.timeoutMs });

const ORDER: PlatformOrder = {
  orderNumber: '1042',
  reference: 'ab12cd34-0000-4000-8000-000000000001',
  shippingMethod: 'AU Standard',
  destination: { name: 'Mary Smith', email: 'mary@example.com', phone: '0400000000', street: '1 Test St', suburb: 'Parramatta', city: 'Parramatta', state: 'NSW', postCode: '2150', country: 'NZ' },
  items: [{ description: 'The Rosary Book', sku: 'rosary-book', quantity: 2, weight: 0.3, value: 22, tariffCode: '4901.99', countryOfOrigin: 'AU' }],
  packages: [{ weight: 0.6, length: 0.25, width: 0.2, height: 0.04 }],
};

describe('Starshipit orders and labels', () => {
  it('a new address is a PUT of the order id and the destination; a delete names the order id; a refusal is a ProviderError', async () => {
    const url = await fakeStarshipit((seen, res) =>
      seen.method === 'PUT' && seen.path === '/api/orders'
        ? sendJson(res, 200, { order: { order_id: 123456 }, success: true, errors: [] })
        : seen.path.startsWith('/api/orders/delete')
          ? sendJson(res, 200, { success: true, errors: [] })
          : sendJson(res, 409, { success: false, errors: [{ message: 'Order already shipped' }] }),
    );
    await platform(url).updateOrder('123456', { destination: { ...ORDER.destination, street: '9 New Rd', postCode: '2780' } });
    expect(fake.seen[0]!.method).toBe('PUT');
    expect(JSON.parse(fake.seen[0]!.body)).toEqual({
      order: { order_id: 123456, destination: expect.objectContaining({ street: '9 New Rd', post_code: '2780', country: 'NZ' }) },
    });
    await platform(url).deleteOrder('123456');
    expect(fake.seen[1]).toMatchObject({ method: 'DELETE', path: '/api/orders/delete?order_id=123456' });
    await expect(platform(url).printLabel('1', { reprint: false })).rejects.toMatchObject({ status: 409, message: expect.stringContaining('Order already shipped') });
  });

  it('creates the order with both keys, the shop number as order_number and the customs lines in the items', async () => {
    const url = await fakeStarshipit((_seen, res) => sendJson(res, 200, { order: { order_id: 123456, order_number: '1042' }, success: true, errors: [] }));
    expect(await platform(url).createOrder(ORDER)).toEqual({ platformOrderId: '123456' });
    const request = fake.seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/orders');
    const body = JSON.parse(request.body);
    expect(body.order).toMatchObject({
      order_number: '1042',
      reference: ORDER.reference,
      shipping_method: 'AU Standard',
      destination: { name: 'Mary Smith', street: '1 Test St', suburb: 'Parramatta', post_code: '2150', country: 'NZ' },
      items: [{ description: 'The Rosary Book', sku: 'rosary-book', quantity: 2, weight: 0.3, value: 22, tariff_code: '4901.99', country_of_origin: 'AU' }],
      packages: [{ weight: 0.6 }],
    });
  });

  it("an organisation's order names it in the destination's company, above the contact's name", async () => {
    const url = await fakeStarshipit((_seen, res) => sendJson(res, 200, { order: { order_id: 7 }, success: true, errors: [] }));
    const school = { ...ORDER, destination: { ...ORDER.destination, name: 'Jane Office', company: "St Mary's Catholic Primary School", country: 'AU' } };
    await platform(url).createOrder(school);
    expect(JSON.parse(fake.seen[0]!.body).order.destination).toMatchObject({ name: 'Jane Office', company: "St Mary's Catholic Primary School" });
    await platform(url).updateOrder('7', { destination: school.destination });
    expect(JSON.parse(fake.seen[1]!.body).order.destination).toMatchObject({ company: "St Mary's Catholic Primary School" });
    // A shopper's own order has no company at all.
    await platform(url).createOrder(ORDER);
    expect(JSON.parse(fake.seen[2]!.body).order.destination).not.toHaveProperty('company');
  });

  it('finds an order already sent by its number, and answers null when Starshipit has none', async () => {
    const url = await fakeStarshipit((seen, res) =>
      seen.url.searchParams.get('order_number') === '1042'
        ? sendJson(res, 200, { order: { order_id: 99 }, success: true })
        : sendJson(res, 200, { success: false, errors: [{ message: 'Order not found' }] }),
    );
    expect(await platform(url).findOrder('1042')).toEqual({ platformOrderId: '99' });
    expect(await platform(url).findOrder('FFFFFFFF')).toBeNull();
    expect(fake.seen[0]!.path).toBe('/api/orders?order_number=1042');
  });

  it('prints the label: the base64 PDF as bytes, the tracking number and the carrier', async () => {
    const pdf = Buffer.from('%PDF-1.7 test label');
    const url = await fakeStarshipit((_seen, res) =>
      sendJson(res, 200, { order_id: 123456, carrier_name: 'Australia Post', tracking_numbers: ['LX123456785AU'], labels: [pdf.toString('base64')], label_types: ['Label'], success: true }),
    );
    const label = await platform(url).printLabel('123456', { reprint: false });
    expect(label).toMatchObject({ platformOrderId: '123456', carrier: 'Australia Post', trackingNumbers: ['LX123456785AU'] });
    expect(Buffer.from(label.labels[0]!).toString()).toBe('%PDF-1.7 test label');
    expect(JSON.parse(fake.seen[0]!.body)).toEqual({ order_id: 123456, reprint: false });
  });

  it('401: the keys refused, named so the deployer knows which variables to check', async () => {
    const url = await fakeStarshipit(() => {});
    const error = await platform(url, { apiKey: 'wrong' })
      .createOrder(ORDER)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 401, code: 'rejected' });
    expect((error as Error).message).toMatch(/STARSHIPIT_API_KEY/);
  });

  it('429: too many requests, with the Retry-After Starshipit sent', async () => {
    const url = await fakeStarshipit((_seen, res) => sendJson(res, 429, { statusCode: 429, message: 'Rate limit is exceeded.' }, { 'retry-after': '3' }));
    const error = await platform(url)
      .printLabel('1', { reprint: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429 });
    expect((error as Error).message).toMatch(/retry after 3 s/);
  });

  it('500 and an unsuccessful 200 are refusals with Starshipit’s own words', async () => {
    const url = await fakeStarshipit((seen, res) =>
      seen.path === '/api/orders'
        ? sendJson(res, 500, { success: false, errors: [{ message: 'Internal error', details: 'try later' }] })
        : sendJson(res, 200, { success: false, errors: [{ message: 'Address invalid', details: 'post_code' }] }),
    );
    await expect(platform(url).createOrder(ORDER)).rejects.toMatchObject({ status: 500, message: expect.stringContaining('Internal error: try later') });
    await expect(platform(url).printLabel('1', { reprint: true })).rejects.toMatchObject({ status: 502, message: expect.stringContaining('Address invalid') });
  });

  it('a platform that does not answer in time is a timeout, never a hung function', async () => {
    const url = await fakeStarshipit(() => {
      // Never answers.
    });
    await expect(platform(url, { timeoutMs: 200 }).createOrder(ORDER)).rejects.toMatchObject({ code: 'timeout', status: 504 });
  });

  it('the doctor’s check is a GET of the unshipped orders', async () => {
    const url = await fakeStarshipit((_seen, res) => sendJson(res, 200, { orders: [], success: true }));
    await platform(url).checkAccess();
    expect(fake.seen[0]).toMatchObject({ method: 'GET', path: '/api/orders/unshipped?limit=1' });
  });
});

describe('Starshipit tracking webhook', () => {
  const body = JSON.stringify({
    order_number: '1042',
    carrier_name: 'Australia Post',
    carrier_service: '7B05',
    shipment_date: '2026-11-20T02:55:37.1446912Z',
    tracking_number: 'LX123456785AU',
    tracking_status: 'InTransit',
    last_updated_date: '2026-11-21T02:56:07.3453198Z',
  });
  const headers = (signature: string) => new Headers({ 'x-starshipit-signature': signature });
  const starshipit = createStarshipit({ apiKey: API_KEY, subscriptionKey: SUBSCRIPTION_KEY, webhookSecret: SECRET });

  it('reads a signed event (the signature in base64 or hex) with a key that is the same for the same event', async () => {
    const event = await starshipit.readWebhook(body, headers(signStarshipitBody(SECRET, body)));
    expect(event).toMatchObject({ orderNumber: '1042', trackingNumber: 'LX123456785AU', carrier: 'Australia Post', status: 'InTransit', occurredAt: '2026-11-21T02:56:07.345Z' });
    const hex = createHmac('sha256', SECRET).update(body).digest('hex');
    expect((await starshipit.readWebhook(body, headers(hex))).eventKey).toBe(event.eventKey);
    expect(event.eventKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a forged signature, a missing one and a body changed after signing', async () => {
    await expect(starshipit.readWebhook(body, headers(signStarshipitBody('guessed', body)))).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(starshipit.readWebhook(body, new Headers())).rejects.toBeInstanceOf(WebhookSignatureError);
    const changed = body.replace('InTransit', 'Delivered');
    await expect(starshipit.readWebhook(changed, headers(signStarshipitBody(SECRET, body)))).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('without a webhook secret every event is refused as not configured', async () => {
    const unsigned = createStarshipit({ apiKey: API_KEY, subscriptionKey: SUBSCRIPTION_KEY });
    await expect(unsigned.readWebhook(body, headers(signStarshipitBody(SECRET, body)))).rejects.toBeInstanceOf(ConfigurationError);
  });
});
