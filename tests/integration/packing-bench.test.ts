/**
 * The packing bench end to end on the embedded backend: a paid order goes to the platform once however many
 * fulfilment calls arrive at once, a platform failure never touches the payment and is retried, labels ship the
 * order, and the tracking webhook refuses forged events and changes nothing for a replayed or unknown one.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it, vi } from 'vitest';
import { fulfilOrder, type FulfilmentServices } from '../../functions/_lib/fulfilment';
import type { EmailMessage } from '../../functions/_lib/providers/email';
import { ProviderError } from '../../functions/_lib/providers/errors';
import { createLocalShipping, LOCAL_WEBHOOK_SECRET, localShipments } from '../../functions/_lib/providers/local-shipping';
import type { ShippingPlatform } from '../../functions/_lib/providers/shipping-platform';
import { signStarshipitBody } from '../../functions/_lib/providers/starshipit';
import { joinLabels, printLabel } from '../../functions/_lib/shipments';
import { TRACKING_EVENT_MAX_AGE_DAYS } from '../../functions/shipping-webhook';
import { isAuspostTrackingNumber } from '../../src/features/shipping/shipment';
import { shopDay } from '../../src/lib/format';
import { useTestShop } from '../helpers/shop';
import { insertOrder } from '../helpers/insert-order';

const file = join(mkdtempSync(join(tmpdir(), 'packing-bench-')), 'shipping.jsonl');
// The shop's own functions use the same stand-in file as this test's platform.
const t = useTestShop({ env: { LOCAL_SHIPPING_FILE: file } });

/** The local stand-in (in a file of this test's own), with every call to it counted. */
function countingPlatform(fail?: () => Error): ShippingPlatform & { created: ReturnType<typeof vi.fn> } {
  const inner = createLocalShipping({ file, log: () => {} });
  const created = vi.fn();
  return {
    ...inner,
    created,
    async createOrder(order) {
      created(order.orderNumber);
      if (fail) throw fail();
      // As slow as a real platform, so concurrent callers overlap.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return inner.createOrder(order);
    },
  };
}

function services(shipping: ShippingPlatform | null): FulfilmentServices & { sent: EmailMessage[] } {
  const sent: EmailMessage[] = [];
  return {
    email: { name: 'recording', send: async (message: EmailMessage) => void sent.push(message), sendBatch: async () => {} },
    payments: {} as FulfilmentServices['payments'],
    siteOrigin: t.url,
    shipping,
    sent,
  };
}

async function paidOrder(country = 'AU'): Promise<{ id: string; number: string }> {
  const id = await insertOrder(
    t.service(),
    {
      customer_email: 'mary@example.com',
      customer_name: 'Mary Smith',
      subtotal_amount: 22,
      shipping_amount: 0,
      total_amount: 22,
      shipping_address: {
        addressLine1: '1 Test St',
        city: country === 'AU' ? 'Parramatta' : 'Auckland',
        state: country === 'AU' ? 'NSW' : '',
        postalCode: country === 'AU' ? '2150' : '1010',
        country,
      },
      shipping_method: { id: 'standard', name: 'Standard' },
    },
    [{ product_id: 'book-10-reasons', title: '10 Reasons', quantity: 1, price_at_time: 22 }],
  );
  return { id, number: await t.orderNumber(id) };
}

const shipment = async (id: string) => (await t.service().from('shipments').select('state, attempts, last_error, platform_order_id').eq('order_id', id).single()).data;
const orderRow = async (id: string) => (await t.service().from('orders').select('status, payment_status, tracking_number, tracking_status').eq('id', id).single()).data;
const historyOf = async (id: string) => ((await t.service().from('order_events').select('action').eq('order_id', id).order('id')).data ?? []).map((e) => e.action);

describe('sending paid orders to the platform', () => {
  it('three fulfilment calls at once send one platform order', async () => {
    const order = await paidOrder();
    const platform = countingPlatform();
    const answers = await Promise.all([1, 2, 3].map(() => fulfilOrder(t.service(), services(platform), order.id)));
    expect(answers.sort()).toEqual(['already_fulfilled', 'already_fulfilled', 'fulfilled']);
    expect(platform.created).toHaveBeenCalledTimes(1);
    // The platform's order number is the order's own, from the database (1001, 1002 …), not its id's start.
    expect(order.number).toMatch(/^[1-9][0-9]{3,}$/);
    expect(platform.created).toHaveBeenCalledWith(order.number);
    expect(await shipment(order.id)).toMatchObject({ state: 'sent', attempts: 1, platform_order_id: `LOCAL-${order.number}` });
    expect((await localShipments(file)).filter((s) => s.order.orderNumber === order.number)).toHaveLength(1);
  });

  it('a platform failure leaves the payment fulfilled and is retried by the next call, once', async () => {
    const order = await paidOrder();
    const down = countingPlatform(() => new ProviderError('starshipit', 500, 'Starshipit refused order (500).'));
    const outcome = await fulfilOrder(t.service(), services(down), order.id);
    expect(outcome).toBe('fulfilled');
    expect(await orderRow(order.id)).toMatchObject({ payment_status: 'paid', status: 'processing' });
    expect(await shipment(order.id)).toMatchObject({ state: 'failed', last_error: 'Starshipit refused order (500).' });

    const up = countingPlatform();
    await fulfilOrder(t.service(), services(up), order.id);
    await fulfilOrder(t.service(), services(up), order.id);
    expect(up.created).toHaveBeenCalledTimes(1);
    expect(await shipment(order.id)).toMatchObject({ state: 'sent', attempts: 2, last_error: null });
    expect(await historyOf(order.id)).toEqual(['shipment_failed', 'shipment_sent']);
  });

  it('no platform configured: the order is paid and nothing is sent', async () => {
    const order = await paidOrder();
    expect(await fulfilOrder(t.service(), services(null), order.id)).toBe('fulfilled');
    expect((await t.service().from('shipments').select('order_id').eq('order_id', order.id)).data).toEqual([]);
  });
});

describe('labels', () => {
  it('a label ships the order with a valid tracking number; abroad it is an S10 number; three labels join into three pages', async () => {
    const platform = countingPlatform();
    const home = await paidOrder('AU');
    const abroad = await paidOrder('NZ');
    const third = await paidOrder('AU');
    for (const o of [home, abroad, third]) await fulfilOrder(t.service(), services(platform), o.id);
    // Abroad the platform gets the customs lines from the book file (the CN23's), at home the book's own line.
    const sent = await localShipments(file);
    const abroadItems = sent.find((s) => s.order.orderNumber === abroad.number)!.order.items;
    expect(abroadItems).toEqual([expect.objectContaining({ quantity: 1, value: 22, tariffCode: expect.stringMatching(/^\d{4}\.\d{2}/), countryOfOrigin: expect.stringMatching(/^[A-Z]{2}$/) })]);
    expect(sent.find((s) => s.order.orderNumber === home.number)!.order.items).toEqual([expect.objectContaining({ sku: 'book-10-reasons', description: '10 Reasons' })]);
    expect(sent.find((s) => s.order.orderNumber === home.number)!.order.items[0]).not.toHaveProperty('tariffCode');
    const labels = [];
    for (const o of [home, abroad, third]) labels.push(await printLabel(t.service(), platform, o.id, 'publisher@example.com'));
    for (const label of labels) expect(label.ok).toBe(true);
    const [a, b] = labels as Array<Extract<(typeof labels)[number], { ok: true }>>;
    expect(a!.trackingNumber).toMatch(/^33TST\d{7}$/);
    expect(b!.trackingNumber).toMatch(/^LX\d{9}AU$/);
    expect(isAuspostTrackingNumber(b!.trackingNumber)).toBe(true);
    expect(await orderRow(home.id)).toMatchObject({ status: 'shipped', tracking_number: a!.trackingNumber });
    const joined = await PDFDocument.load(await joinLabels(labels.flatMap((l) => (l.ok ? l.pdfs : []))));
    expect(joined.getPageCount()).toBe(3);
    // The label is 100 × 150 mm.
    const { width, height } = joined.getPage(0).getSize();
    expect([Math.round((width * 25.4) / 72), Math.round((height * 25.4) / 72)]).toEqual([100, 150]);
    // Printed again: the same number, no second order at the platform.
    const again = await printLabel(t.service(), platform, home.id, 'publisher@example.com');
    expect(again).toMatchObject({ ok: true, trackingNumber: a!.trackingNumber, shipped: 'unchanged' });
  });
});

/** A time the platform could send an event at: recent, by the event's own clock. */
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

describe('the tracking webhook', () => {
  const post = (body: string, signature: string | null) =>
    fetch(`${t.url}/api/shipping-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-starshipit-signature': signature } : {}) }, body });
  const event = (orderNumber: string, trackingNumber: string, status: string, at: string) =>
    JSON.stringify({
      order_number: orderNumber,
      carrier_name: 'Australia Post',
      carrier_service: 'Parcel Post',
      shipment_date: at,
      tracking_number: trackingNumber,
      tracking_status: status,
      last_updated_date: at,
    });

  /** A paid order sent to the platform and labelled, with its history so far. */
  async function labelledOrder() {
    const platform = countingPlatform();
    const order = await paidOrder();
    await fulfilOrder(t.service(), services(platform), order.id);
    const label = await printLabel(t.service(), platform, order.id, 'publisher@example.com');
    if (!label.ok) throw new Error(label.message);
    return { order, label, before: await historyOf(order.id) };
  }

  it('a forged, a replayed and an unknown-order event change nothing; delivered completes the order', async () => {
    const { order, label, before } = await labelledOrder();

    const inTransit = event(order.number, label.trackingNumber, 'InTransit', hoursAgo(30));
    const forged = await post(inTransit, signStarshipitBody('not-the-secret', inTransit));
    expect(forged.status).toBe(401);
    expect((await post(inTransit, null)).status).toBe(401);
    expect(await historyOf(order.id)).toEqual(before);

    const first = await post(inTransit, signStarshipitBody(LOCAL_WEBHOOK_SECRET, inTransit));
    expect(await first.json()).toEqual({ received: true, outcome: 'recorded' });
    const afterFirst = await historyOf(order.id);
    const replay = await post(inTransit, signStarshipitBody(LOCAL_WEBHOOK_SECRET, inTransit));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await historyOf(order.id)).toEqual(afterFirst);

    const unknown = event('FFFFFFFF', label.trackingNumber, 'Delivered', hoursAgo(6));
    const ignored = await post(unknown, signStarshipitBody(LOCAL_WEBHOOK_SECRET, unknown));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, outcome: 'unknown_order' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'shipped', tracking_status: 'In transit' });

    const delivered = event(order.number, label.trackingNumber, 'Delivered', hoursAgo(6));
    expect(await (await post(delivered, signStarshipitBody(LOCAL_WEBHOOK_SECRET, delivered))).json()).toEqual({ received: true, outcome: 'delivered' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'completed', tracking_status: 'Delivered' });
  });

  it('a signed event older than a few days by its own time is logged and ignored; the order is unchanged', async () => {
    const { order, label, before } = await labelledOrder();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const captured = event(order.number, label.trackingNumber, 'Delivered', hoursAgo(24 * TRACKING_EVENT_MAX_AGE_DAYS + 1));
    const answer = await post(captured, signStarshipitBody(LOCAL_WEBHOOK_SECRET, captured));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, outcome: 'too_old' });
    expect(warn.mock.calls.flat().join(' ')).toMatch(new RegExp(`ignored Delivered for order ${order.number}: the event is from .*, over 3 days ago`));
    warn.mockRestore();
    expect(await historyOf(order.id)).toEqual(before);
    expect(await orderRow(order.id)).toMatchObject({ status: 'shipped' });
    const recent = event(order.number, label.trackingNumber, 'Delivered', hoursAgo(24 * TRACKING_EVENT_MAX_AGE_DAYS - 1));
    expect(await (await post(recent, signStarshipitBody(LOCAL_WEBHOOK_SECRET, recent))).json()).toEqual({ received: true, outcome: 'delivered' });
  });

  it('a signed body that is not a tracking event is refused with a 400 that says what is missing, never a 500', async () => {
    const body = JSON.stringify({ hello: 'world' });
    const answer = await post(body, signStarshipitBody(LOCAL_WEBHOOK_SECRET, body));
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toMatch(/order_number, tracking_status and last_updated_date/);
  });
});

describe('/api/admin-labels', () => {
  it('staff only; a body that names no orders is refused with what to do', async () => {
    const anonymous = await fetch(`${t.url}/api/admin-labels`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ toPack: true }) });
    expect(anonymous.status).toBe(401);
    await t.service().from('staff_members').insert({ email: 'packer@example.com' });
    const staff = await t.signIn('packer@example.com');
    const token = (await staff.auth.getSession()).data.session!.access_token;
    const ask = (body: unknown) =>
      fetch(`${t.url}/api/admin-labels`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    const empty = await ask({ orderIds: [] });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe('orderIds: Choose at least one order.');

    // Every order to pack, as one PDF: each one shipped, the customer emailed by the shop's outbox.
    const waiting = await paidOrder();
    await fulfilOrder(t.service(), services(countingPlatform()), waiting.id);
    const { data: toPack } = await t.service().from('orders').select('id').eq('status', 'processing').eq('payment_status', 'paid');
    const answer = await ask({ toPack: true });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { pdf: string; fileName: string; printed: Array<{ orderId: string }>; failed: unknown[]; message: string };
    expect(body.failed).toEqual([]);
    // Named by the shop's day in Sydney, as the orders' dates are (a morning's file is not yesterday's).
    expect(body.fileName).toBe(`labels-${shopDay()}.pdf`);
    expect(body.printed.map((p) => p.orderId).sort()).toEqual(toPack!.map((o) => o.id).sort());
    expect((await PDFDocument.load(Buffer.from(body.pdf, 'base64'))).getPageCount()).toBe(toPack!.length);
    expect((await t.service().from('orders').select('id').eq('status', 'processing').eq('payment_status', 'paid')).data).toEqual([]);
    expect(await historyOf(waiting.id)).toEqual(['shipment_sent', 'shipped', 'label_printed', 'shipping_emailed']);
    const nothingLeft = await ask({ toPack: true });
    expect(nothingLeft.status).toBe(409);
    expect((await nothingLeft.json()).error).toBe('There is no order to pack, so no label to print.');
  });
});
