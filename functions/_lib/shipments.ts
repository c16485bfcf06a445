/**
 * The packing bench's server side: each order to pack is sent once to the shipping platform, its label printed from
 * /admin ships it with the platform's tracking number, and the platform's tracking events move it on. The database
 * functions (claim_shipment_send and the rest) decide under the order's locks; this module talks to the platform.
 * Nothing here throws into the payment path: a platform failure is recorded on the shipment and tried again.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { PDFDocument } from 'pdf-lib';
import { z } from 'zod';
import { DB_OUTCOMES } from '../../src/lib/db-outcomes';
import { fromCents, toCents } from '../../src/lib/money';
import { splitCustomsValue } from '../../src/features/customs/declaration';
import { orderCustomsLines } from './customs';
import { getOrderNumber, getOrderWithItems, type OrderWithItems } from './orders';
import type { PlatformItem, PlatformOrder, ShippingPlatform, TrackingEvent } from './providers/shipping-platform';
import { outcomeAnswer, rpc } from './supabase-admin';

/** Who the order's history names for the platform's steps. */
export function platformActor(platform: ShippingPlatform): string {
  return platform.name === 'starshipit' ? 'Starshipit' : 'Shipping platform (TEST stand-in)';
}

const productSchema = z.object({
  id: z.string(),
  weight: z.coerce.number(),
  dimensions: z
    .object({ length: z.coerce.number().default(0), width: z.coerce.number().default(0), height: z.coerce.number().default(0) })
    .partial()
    .nullish(),
});

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The order as the platform takes it: destination, lines with what customs asks abroad, and one parcel. */
async function platformOrderOf(db: SupabaseClient, order: OrderWithItems): Promise<PlatformOrder> {
  const ids = order.items.map((i) => i.productId);
  const { data, error } = await db.from('products').select('id, weight, dimensions').in('id', ids);
  if (error) throw error;
  const products = new Map(
    z
      .array(productSchema)
      .parse(data)
      .map((p) => [p.id, p]),
  );
  const a = order.shippingAddress;
  const country = (text(a.country) || 'AU').toUpperCase();
  // Abroad, each line is what customs reads (the CN23): the book's customs description, tariff code and origin, and
  // what was paid per copy. A book without customs data stops the send with a message naming it (retried later).
  const items: PlatformItem[] =
    country === 'AU'
      ? order.items.map((item) => ({
          description: item.title.slice(0, 100),
          sku: item.productId,
          quantity: item.quantity,
          weight: Math.round(products.get(item.productId)?.weight ?? 0) / 1000,
          value: item.unitPrice,
        }))
      : // The platform takes a value per copy: a line whose value does not divide by its copies goes as two items.
        (await orderCustomsLines(db, order.id)).flatMap((line) =>
          splitCustomsValue(line.quantity, toCents(line.valueAud)).map((part) => ({
            description: line.description.slice(0, 100),
            sku: '',
            quantity: part.quantity,
            weight: Math.round(line.unitWeightGrams) / 1000,
            value: fromCents(part.unitCents),
            tariffCode: line.hsCode,
            countryOfOrigin: line.originCountry,
          })),
        );
  const totalKg = items.reduce((sum, i) => sum + i.weight * i.quantity, 0);
  // The parcel's size: the largest book's footprint, the copies stacked (metres, as Starshipit takes them).
  const dims = order.items.map((i) => products.get(i.productId)?.dimensions ?? {});
  const cm = (pick: (d: { length?: number; width?: number; height?: number }) => number | undefined) => Math.max(1, ...dims.map((d) => pick(d) ?? 0));
  const stacked = Math.max(
    1,
    order.items.reduce((sum, i, n) => sum + (dims[n]?.height ?? 1) * i.quantity, 0),
  );
  const street = [text(a.addressLine1) || text(a.line1), text(a.addressLine2) || text(a.line2)].filter(Boolean).join(', ');
  return {
    orderNumber: order.number,
    reference: order.id,
    shippingMethod: order.shippingMethod.name ?? 'Standard',
    destination: {
      name: order.customerName,
      // An order on account goes to the school or parish: the label names it above the contact.
      ...(order.account ? { company: order.account.organisation } : {}),
      email: order.customerEmail,
      phone: text(a.phone) || undefined,
      street,
      suburb: text(a.city),
      city: text(a.city),
      state: text(a.state),
      postCode: text(a.postalCode) || text(a.postal_code),
      country,
    },
    items,
    packages: [{ weight: Math.max(0.05, Math.round(totalKg * 1000) / 1000), length: cm((d) => d.length) / 100, width: cm((d) => d.width) / 100, height: stacked / 100 }],
  };
}

const claimSchema = outcomeAnswer('claim_shipment_send', {
  claimed: { attempts: z.number(), order_number: z.string(), lost_answer: z.boolean() },
  busy: {},
  done: { platform_order_id: z.string().nullable() },
  not_to_pack: {},
});

export type SendOutcome = 'sent' | 'already' | 'busy' | 'not_to_pack' | 'failed';

/**
 * Sends an order to pack (paid, or an invoice's packed before payment: public.order_to_pack) to the platform, once: the database claims the send (two callers at once: one sends, the other
 * is told 'busy'), a send whose answer was lost is looked up at the platform by the order's number first, and a
 * failure is recorded for the next call to retry. Never throws.
 */
export async function sendToPlatformOnce(db: SupabaseClient, platform: ShippingPlatform, orderId: string): Promise<{ outcome: SendOutcome; error?: string }> {
  const actor = platformActor(platform);
  let claim: z.infer<typeof claimSchema>;
  try {
    claim = await rpc(db, 'claim_shipment_send', { p_order_id: orderId, p_platform: platform.name }, claimSchema);
  } catch (error) {
    console.error(`[shipments] could not claim the send of ${orderId}`, error);
    return { outcome: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
  if (claim.outcome === 'done') return { outcome: 'already' };
  if (claim.outcome !== 'claimed') return { outcome: claim.outcome };
  try {
    const found = claim.lost_answer ? await platform.findOrder(claim.order_number) : null;
    const { platformOrderId } = found ?? (await platform.createOrder(await platformOrderOf(db, await getOrderWithItems(db, orderId))));
    await rpc(db, 'record_shipment_sent', { p_order_id: orderId, p_platform_order_id: platformOrderId, p_actor: actor }, z.unknown());
    return { outcome: 'sent' };
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    console.error(`[shipments] sending order ${orderId} to ${platform.name} failed; it will be tried again`, cause);
    const { error } = await db.rpc('record_shipment_failed', { p_order_id: orderId, p_error: message, p_actor: actor });
    if (error) console.error(`[shipments] could not record the failed send of ${orderId}`, error);
    return { outcome: 'failed', error: message };
  }
}

/** Sends again the orders whose send failed or was interrupted, a few at a time, oldest first. Never throws. */
export async function retryShipments(db: SupabaseClient, platform: ShippingPlatform, limit = 3): Promise<void> {
  const { data, error } = await db.rpc('shipments_to_retry', { p_limit: limit });
  if (error) {
    console.error('[shipments] could not list the shipments to retry', error);
    return;
  }
  for (const id of z.array(z.string()).catch([]).parse(data)) await sendToPlatformOnce(db, platform, id);
}

const shipmentRowSchema = z.object({ state: z.string(), platform_order_id: z.string().nullable(), last_error: z.string().nullable() });

/** Why an order has no label: it is not to pack (unpaid and not packed before payment, or cancelled). */
const NOT_TO_PACK = (number: string) => `Order ${number} is not to pack (it is unpaid, or cancelled), so it has no label.`;

/** One order's label: printed, or why not (a sentence for the publisher). */
export type LabelOutcome =
  | { ok: true; orderId: string; number: string; trackingNumber: string; carrier: string; shipped: 'shipped' | 'corrected' | 'unchanged'; pdfs: Uint8Array[] }
  | { ok: false; orderId: string; number: string; message: string };

/**
 * Prints an order's label at the platform (sending the order first if it has not gone yet) and ships the order
 * with the label's tracking number, through record_shipment_label (ship_order), so the shopper's tracking email
 * follows as when a number is typed. A label printed before is printed again, never bought twice.
 */
export async function printLabel(db: SupabaseClient, platform: ShippingPlatform, orderId: string, actor: string): Promise<LabelOutcome> {
  const number = await getOrderNumber(db, orderId);
  const sent = await sendToPlatformOnce(db, platform, orderId);
  if (sent.outcome === 'not_to_pack') return { ok: false, orderId, number, message: NOT_TO_PACK(number) };
  if (sent.outcome === 'busy') return { ok: false, orderId, number, message: `Order ${number} is being sent to the shipping platform just now. Try again in a minute.` };
  if (sent.outcome === 'failed') return { ok: false, orderId, number, message: `Order ${number} could not be sent to the shipping platform: ${sent.error ?? 'no answer'}. Try again.` };
  const { data, error } = await db.from('shipments').select('state, platform_order_id, last_error').eq('order_id', orderId).single();
  if (error) throw error;
  const shipment = shipmentRowSchema.parse(data);
  if (!shipment.platform_order_id) return { ok: false, orderId, number, message: `Order ${number} has not reached the shipping platform yet.` };
  let label: Awaited<ReturnType<ShippingPlatform['printLabel']>>;
  try {
    label = await platform.printLabel(shipment.platform_order_id, { reprint: shipment.state !== 'sent' });
  } catch (cause) {
    console.error(`[shipments] label of ${orderId} failed`, cause);
    return { ok: false, orderId, number, message: `The shipping platform did not print the label of order ${number}: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  const trackingNumber = label.trackingNumbers[0];
  if (!trackingNumber) return { ok: false, orderId, number, message: `The shipping platform printed order ${number}'s label without a tracking number.` };
  const result = await rpc(
    db,
    'record_shipment_label',
    { p_order_id: orderId, p_tracking_number: trackingNumber, p_carrier: label.carrier, p_actor: actor },
    z.enum(DB_OUTCOMES.record_shipment_label),
  );
  if (result === 'not_shippable' || result === 'not_sent') {
    return { ok: false, orderId, number, message: `Order ${number} can no longer be shipped (it was cancelled or delivered), so its label was not printed.` };
  }
  return { ok: true, orderId, number, trackingNumber, carrier: label.carrier, shipped: result, pdfs: label.labels };
}

/** Every label as one PDF to print: one label a page, in the order given; `subject` names what is in it. */
export async function joinLabels(pdfs: Uint8Array[], subject?: string): Promise<Uint8Array> {
  const joined = await PDFDocument.create();
  joined.setTitle('Shipping labels');
  if (subject) joined.setSubject(subject);
  for (const bytes of pdfs) {
    const source = await PDFDocument.load(bytes);
    for (const page of await joined.copyPages(source, source.getPageIndices())) joined.addPage(page);
  }
  return joined.save();
}

const trackingOutcomeSchema = z.object({
  outcome: z.enum(DB_OUTCOMES.record_tracking_event),
  order_id: z.string().optional(),
  /** For a cancelled order: the event in words, and whether it is the first since the cancellation (the publisher is told once). */
  status: z.string().optional(),
  notify: z.boolean().optional(),
});
export type TrackingOutcome = z.infer<typeof trackingOutcomeSchema>;

/** Records one tracking event: the database binds it to an order the shop sent and moves the order on. */
export async function recordTrackingEvent(db: SupabaseClient, platform: ShippingPlatform, event: TrackingEvent): Promise<TrackingOutcome> {
  const { data, error } = await db.rpc('record_tracking_event', {
    p_order_number: event.orderNumber,
    p_event_key: event.eventKey,
    p_status: event.status,
    p_tracking_number: event.trackingNumber,
    p_carrier: event.carrier,
    p_occurred_at: event.occurredAt,
    p_actor: platformActor(platform),
  });
  if (error) throw error;
  return trackingOutcomeSchema.parse(data);
}

/**
 * After the publisher changed an order's delivery address: the order at the platform goes to the new one. Answers a
 * sentence for the publisher when the platform still has (or printed) the old address, else null; the order's
 * history says the same. Never throws: the address change stands whatever the platform answers.
 */
export async function updatePlatformAddress(db: SupabaseClient, platform: ShippingPlatform, orderId: string): Promise<string | null> {
  const actor = platformActor(platform);
  const note = async (detail: string) => {
    const { error } = await db.from('order_events').insert({ order_id: orderId, action: 'address_changed', detail: detail.slice(0, 500), actor });
    if (error) console.error(`[shipments] could not record the platform's address note on ${orderId}`, error);
  };
  try {
    const { data, error } = await db.from('shipments').select('state, platform_order_id, labelled_at').eq('order_id', orderId).maybeSingle();
    if (error) throw error;
    // Not at the platform yet: it will be sent with the new address.
    if (!data?.platform_order_id || data.state === 'pending' || data.state === 'failed') return null;
    // A label printed at the platform itself shows as its 'Printed' tracking event.
    const printed = await db.from('shipment_tracking_events').select('id').eq('order_id', orderId).eq('status', 'Printed').limit(1);
    if (printed.error) throw printed.error;
    if (data.labelled_at || data.state !== 'sent' || (printed.data ?? []).length > 0) {
      const message = `The label already printed at ${platform.name === 'starshipit' ? 'Starshipit' : 'the shipping platform'} carries the old address: print a new label there before the parcel goes.`;
      await note(message);
      return message;
    }
    const order = await platformOrderOf(db, await getOrderWithItems(db, orderId));
    await platform.updateOrder(String(data.platform_order_id), { destination: order.destination });
    await note('The shipping platform has the new address.');
    return null;
  } catch (cause) {
    console.error(`[shipments] the new address of ${orderId} did not reach ${platform.name}`, cause);
    const message = `The shipping platform still has the old address (${cause instanceof Error ? cause.message : String(cause)}): change it there before printing the label.`;
    await note(message);
    return message;
  }
}

/**
 * After the publisher cancelled an order: its order at the platform is deleted, so it is never labelled there, and
 * its shipment is cancelled. Answers a sentence for the publisher when the platform still has it, else null. Never throws.
 */
export async function cancelAtPlatform(db: SupabaseClient, platform: ShippingPlatform, orderId: string): Promise<string | null> {
  const actor = platformActor(platform);
  const where = platform.name === 'starshipit' ? 'Starshipit' : 'the shipping platform';
  const cancelled = async (detail: string) => {
    const { error } = await db.rpc('record_shipment_cancelled', { p_order_id: orderId, p_detail: detail, p_actor: actor });
    if (error) console.error(`[shipments] could not record the cancelled shipment of ${orderId}`, error);
  };
  try {
    const { data, error } = await db.from('shipments').select('state, platform_order_id').eq('order_id', orderId).maybeSingle();
    if (error) throw error;
    if (!data) return null;
    if (data.state === 'pending' || data.state === 'failed') {
      await cancelled(`Not sent to ${where}: the order was cancelled first.`);
      return null;
    }
    if (data.state !== 'sent' || !data.platform_order_id) return null;
    const printed = await db.from('shipment_tracking_events').select('id').eq('order_id', orderId).eq('status', 'Printed').limit(1);
    if (printed.error) throw printed.error;
    if ((printed.data ?? []).length > 0) return `Its label was already printed at ${where}: cancel the label there so the parcel does not go.`;
    await platform.deleteOrder(String(data.platform_order_id));
    await cancelled(`Deleted at ${where}.`);
    return null;
  } catch (cause) {
    console.error(`[shipments] the cancelled order ${orderId} is still at ${platform.name}`, cause);
    return `It is still at ${where} (${cause instanceof Error ? cause.message : String(cause)}): delete it there so it is not labelled.`;
  }
}
