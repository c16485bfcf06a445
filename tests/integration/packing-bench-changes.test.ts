/**
 * The packing bench after the order changed: a new delivery address reaches the shipping platform (or the publisher
 * is told it did not), and a cancelled order leaves it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOrderAction } from '../../functions/_lib/back-office';
import { fulfilOrder, type FulfilmentServices } from '../../functions/_lib/fulfilment';
import type { EmailMessage } from '../../functions/_lib/providers/email';
import { createLocalShipping, LOCAL_WEBHOOK_SECRET, localShipments } from '../../functions/_lib/providers/local-shipping';
import type { ShippingPlatform } from '../../functions/_lib/providers/shipping-platform';
import { signStarshipitBody } from '../../functions/_lib/providers/starshipit';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';
import { insertOrder } from '../helpers/insert-order';
import { orderRow } from '../helpers/order-row';

let t: BackOfficeShop;
let staff: SupabaseClient;
const file = join(mkdtempSync(join(tmpdir(), 'packing-bench-changes-')), 'shipping.jsonl');
beforeAll(async () => {
  process.env.LOCAL_SHIPPING_FILE = file;
  t = await startBackOfficeShop('packing-bench-changes', { staff: 'packer@example.com', shopper: 'mary@example.com' });
  staff = t.staff;
});
afterAll(async () => {
  await t.close();
  delete process.env.LOCAL_SHIPPING_FILE;
});

const standIn = () => createLocalShipping({ file, log: () => {} });
/** The stand-in, but the platform refuses `call` with `message`. */
const refusing = (call: 'updateOrder' | 'deleteOrder', message: string): ShippingPlatform => ({
  ...standIn(),
  [call]: async () => {
    throw new Error(message);
  },
});

function services(shipping: ShippingPlatform | null): FulfilmentServices & { sent: EmailMessage[] } {
  const sent: EmailMessage[] = [];
  return {
    email: { name: 'recording', send: async (message: EmailMessage) => void sent.push(message), sendBatch: async () => {} },
    payments: { refundSession: async () => ({ id: 're_test_1', status: 'succeeded' }) } as unknown as FulfilmentServices['payments'],
    siteOrigin: t.url,
    shipping,
    sent,
  };
}

async function sentOrder(): Promise<{ id: string; number: string }> {
  const service = t.service();
  const id = await insertOrder(
    service,
    orderRow('mary@example.com', {
      shipping: 0,
      customer_name: 'Mary Smith',
      shipping_address: { addressLine1: '1 Old St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU' },
      shipping_method: { id: 'standard', name: 'Standard' },
      checkout_session_id: `cs_test_${Math.random().toString(36).slice(2)}`,
    }),
    [{ product_id: 'book-10-reasons', title: '10 Reasons', quantity: 1, price_at_time: 22 }],
  );
  await fulfilOrder(service, services(standIn()), id);
  return { id, number: await t.orderNumber(id) };
}

const newAddress = { addressLine1: '9 New Rd', addressLine2: '', city: 'Katoomba', state: 'NSW', postalCode: '2780', phone: '' };
const changeAddress = (platform: ShippingPlatform, orderId: string) =>
  runOrderAction({ db: t.service(), services: services(platform), actor: 'packer@example.com', asCaller: staff }, { action: 'change_address', orderId, address: newAddress });
const atPlatform = async (number: string) => (await localShipments(file)).find((s) => s.order.orderNumber === number);
const historyOf = async (id: string) => (await t.service().from('order_events').select('action, detail').eq('order_id', id).order('id')).data ?? [];
/** A time the platform could send an event at: recent, by the event's own clock. */
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

const postEvent = (orderNumber: string, status: string, at: string, trackingNumber = '33TST0000001') => {
  const body = JSON.stringify({ order_number: orderNumber, carrier_name: 'Australia Post', tracking_number: trackingNumber, tracking_status: status, last_updated_date: at });
  return fetch(`${t.url}/api/shipping-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-starshipit-signature': signStarshipitBody(LOCAL_WEBHOOK_SECRET, body) }, body });
};

describe('a changed delivery address', () => {
  it('reaches the order at the platform before its label is printed', async () => {
    const order = await sentOrder();
    expect((await atPlatform(order.number))!.order.destination.street).toBe('1 Old St');
    const outcome = await changeAddress(standIn(), order.id);
    expect(outcome).toEqual({ status: 200, message: 'Delivery address changed; the old one is in the history.' });
    expect((await atPlatform(order.number))!.order.destination).toMatchObject({ street: '9 New Rd', city: 'Katoomba', postCode: '2780' });
    expect((await historyOf(order.id)).at(-1)).toEqual({ action: 'address_changed', detail: 'The shipping platform has the new address.' });
  });

  it('a label already printed at the platform: the publisher is told to print a new one there', async () => {
    const order = await sentOrder();
    expect((await postEvent(order.number, 'Printed', hoursAgo(30))).status).toBe(200);
    const outcome = await changeAddress(standIn(), order.id);
    expect(outcome.status).toBe(200);
    expect(outcome.message).toMatch(/label already printed .* carries the old address: print a new label there/);
    expect((await historyOf(order.id)).at(-1)?.detail).toMatch(/carries the old address/);
  });

  it('the platform refuses: the address change stands and the publisher is told the platform has the old one', async () => {
    const order = await sentOrder();
    const outcome = await changeAddress(refusing('updateOrder', 'Starshipit refused the new address of order 1 (500).'), order.id);
    expect(outcome.status).toBe(200);
    expect(outcome.message).toMatch(/still has the old address/);
    const { data } = await t.service().from('orders').select('shipping_address').eq('id', order.id).single();
    expect(data!.shipping_address).toMatchObject({ addressLine1: '9 New Rd' });
    expect((await historyOf(order.id)).at(-1)?.detail).toMatch(/still has the old address/);
  });
});

describe('a cancelled order', () => {
  const cancel = (platform: ShippingPlatform, orderId: string) =>
    runOrderAction({ db: t.service(), services: services(platform), actor: 'packer@example.com', asCaller: staff }, { action: 'cancel', orderId });
  const shipmentState = async (id: string) => (await t.service().from('shipments').select('state').eq('order_id', id).single()).data?.state;

  it('leaves the platform; a tracking event that comes later keeps it cancelled, is in its history and emails the publisher once', async () => {
    const order = await sentOrder();
    expect(await atPlatform(order.number)).toBeDefined();
    const outcome = await cancel(standIn(), order.id);
    expect(outcome.status).toBe(200);
    expect(outcome.message).toMatch(new RegExp(`^Order ${order.number} cancelled and its copies put back`));
    expect(await atPlatform(order.number)).toBeUndefined();
    expect(await shipmentState(order.id)).toBe('cancelled');
    expect(await historyOf(order.id)).toContainEqual({ action: 'cancelled', detail: 'Deleted at the shipping platform.' });

    // Labelled at the platform itself all the same: the carrier reports it lodged, then in transit.
    const lodged = await postEvent(order.number, 'Dispatched', hoursAgo(30));
    expect(await lodged.json()).toEqual({ received: true, outcome: 'cancelled_order' });
    expect((await postEvent(order.number, 'InTransit', hoursAgo(26))).status).toBe(200);
    const { data } = await t.service().from('orders').select('status, tracking_number').eq('id', order.id).single();
    expect(data).toMatchObject({ status: 'cancelled', tracking_number: null });
    expect((await historyOf(order.id)).filter((e) => e.detail?.startsWith('After cancellation: '))).toHaveLength(2);
    const notices = (await readOutbox(t.outbox)).filter((m) => m.subject.includes(`Order ${order.number} was cancelled`));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(`Order ${order.number} was cancelled and refunded, but the carrier reports it Lodged with the carrier`);
  });

  it('the platform refuses the deletion: the order is cancelled and refunded all the same, and the publisher is told it is still there', async () => {
    const order = await sentOrder();
    const outcome = await cancel(refusing('deleteOrder', 'Starshipit refused the deletion of order 1 (500).'), order.id);
    expect(outcome.status).toBe(200);
    expect(outcome.message).toMatch(/still at the shipping platform .*delete it there/);
    expect(await atPlatform(order.number)).toBeDefined();
    expect(await shipmentState(order.id)).toBe('sent');
  });
});
