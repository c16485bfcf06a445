/**
 * LOCAL STAND-IN for the shipping platform (Starshipit in a deploy), used only on the local server when no
 * Starshipit keys are set. It answers as Starshipit does: it keeps the orders it was sent, prints each one a TEST
 * label (a real 100 × 150 mm PDF, marked "TEST LABEL — NOT FOR POSTAGE") with a tracking number Australia Post
 * could have issued, and its TEST page (/api/test-shipping) posts tracking events to the shop's webhook, signed
 * as Starshipit signs them. What it keeps is one JSON line per step in LOCAL_SHIPPING_FILE
 * (default local/.data/shipping-platform.jsonl).
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { s10CheckDigit } from '../../../src/features/shipping/shipment';
import { SITE } from '../../../src/config/site';
import { countryName } from '../../../src/lib/format';
import { WebhookSignatureError } from './errors';
import { appendJsonLines, readJsonLines } from './json-lines';
import type { PlatformDestination, PlatformLabel, PlatformOrder, ShippingPlatform } from './shipping-platform';
import { readTrackingEvent, STARSHIPIT_SIGNATURE_HEADER, starshipitSignatureMatches } from './starshipit';

const DEFAULT_SHIPPING_FILE = 'local/.data/shipping-platform.jsonl';
/** The stand-in signs its tracking events with this unless STARSHIPIT_WEBHOOK_SECRET is set. */
export const LOCAL_WEBHOOK_SECRET = 'local-shipping-stand-in-secret';
const LOCAL_SENDER = { name: SITE.name, lines: ['PO Box 0000 (TEST)', 'PARRAMATTA NSW 2124', 'Australia'] };

type LocalShippingLine =
  | { type: 'order'; at: string; platformOrderId: string; order: PlatformOrder }
  | { type: 'label'; at: string; platformOrderId: string; trackingNumber: string; carrier: string; service: string }
  | { type: 'event'; at: string; platformOrderId: string; status: string; sent?: SentEvent }
  | { type: 'destination'; at: string; platformOrderId: string; destination: PlatformDestination }
  | { type: 'deleted'; at: string; platformOrderId: string };

/** The webhook body the TEST page posted and its signature, kept so a repeat of the very same delivery can be tried. */
export interface SentEvent {
  body: string;
  signature: string;
}

function shippingFileFromEnv(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.LOCAL_SHIPPING_FILE?.trim() || DEFAULT_SHIPPING_FILE);
}

function readShippingFile(file: string = shippingFileFromEnv()): Promise<LocalShippingLine[]> {
  return readJsonLines<LocalShippingLine>(file);
}

function append(file: string, line: LocalShippingLine): Promise<void> {
  return appendJsonLines(file, [line]);
}

/** One order as the stand-in's page shows it: the order, its label once printed, its events. */
export interface LocalShipment {
  platformOrderId: string;
  order: PlatformOrder;
  receivedAt: string;
  label: { trackingNumber: string; carrier: string; service: string } | null;
  events: Array<{ status: string; at: string; sent?: SentEvent }>;
}

export async function localShipments(file: string = shippingFileFromEnv()): Promise<LocalShipment[]> {
  const byId = new Map<string, LocalShipment>();
  for (const line of await readShippingFile(file)) {
    if (line.type === 'order') byId.set(line.platformOrderId, { platformOrderId: line.platformOrderId, order: line.order, receivedAt: line.at, label: null, events: [] });
    const shipment = byId.get(line.platformOrderId);
    if (!shipment) continue;
    if (line.type === 'label') shipment.label ??= { trackingNumber: line.trackingNumber, carrier: line.carrier, service: line.service };
    if (line.type === 'event') shipment.events.push({ status: line.status, at: line.at, ...(line.sent && { sent: line.sent }) });
    if (line.type === 'destination') shipment.order = { ...shipment.order, destination: line.destination };
    if (line.type === 'deleted') byId.delete(line.platformOrderId);
  }
  return [...byId.values()];
}

/** Digits drawn from the order number, so one order always gets one number. */
function digitsOf(seed: string, count: number): string {
  const hash = createHash('sha256').update(seed).digest();
  return Array.from({ length: count }, (_, i) => String(hash[i]! % 10)).join('');
}

/**
 * A tracking number Australia Post could have issued: at home a MyPost Business article number (33 then letters and
 * digits), abroad an S10 number (two letters, eight digits, its check digit, AU) as on a CN23 label.
 */
function testTrackingNumber(orderNumber: string, country: string): string {
  if (country.toUpperCase() === 'AU') return `33TST${digitsOf(orderNumber, 7)}`;
  const serial = digitsOf(orderNumber, 8);
  return `LX${serial}${s10CheckDigit(serial)}AU`;
}

const MM = 72 / 25.4;

/** The TEST label: 100 × 150 mm, sender, recipient, service, tracking number, and the mark that it is not postage. */
async function drawTestLabel(order: PlatformOrder, trackingNumber: string, service: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`TEST label ${order.orderNumber}`);
  const page = pdf.addPage([100 * MM, 150 * MM]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const { width, height } = page.getSize();
  const left = 6 * MM;
  const red = rgb(0.73, 0.11, 0.11);
  // Standard fonts speak WinAnsi only: anything else in a name or street is written as a question mark.
  const plain = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff\u2014]/g, '?');
  const text = (value: string, y: number, size: number, font = regular, color = rgb(0, 0, 0)) => page.drawText(plain(value), { x: left, y, size, font, color, maxWidth: width - 2 * left });

  page.drawRectangle({ x: 0, y: height - 16 * MM, width, height: 16 * MM, color: red });
  page.drawText('TEST LABEL — NOT FOR POSTAGE', { x: left, y: height - 10 * MM, size: 13, font: bold, color: rgb(1, 1, 1) });
  let y = height - 24 * MM;
  text('FROM', y, 7, bold);
  y -= 11;
  for (const line of [LOCAL_SENDER.name, ...LOCAL_SENDER.lines]) {
    text(line, y, 8);
    y -= 10;
  }
  y -= 10;
  text('DELIVER TO', y, 8, bold);
  y -= 16;
  const d = order.destination;
  const locality = (d.country === 'AU' ? [d.suburb || d.city, d.state, d.postCode].join(' ').toUpperCase() : [d.city, d.state, d.postCode].filter(Boolean).join(' ')).trim();
  // An organisation's parcel names it first, then the contact there, as the packing slip does.
  const addressee = d.company ? [d.company, `Attn: ${d.name}`] : [d.name];
  // A long school name or street wraps onto lines of its own, each moving the next line down.
  const wrap = (value: string, size: number, font: typeof regular) =>
    plain(value)
      .split(' ')
      .reduce<string[]>((lines, word) => {
        const last = lines.at(-1);
        if (last !== undefined && font.widthOfTextAtSize(`${last} ${word}`, size) <= width - 2 * left) lines[lines.length - 1] = `${last} ${word}`;
        else lines.push(word);
        return lines;
      }, []);
  for (const [i, line] of [...addressee, d.street, locality, d.country === 'AU' ? '' : countryName(d.country).toUpperCase()].filter(Boolean).entries()) {
    for (const part of wrap(line, i === 0 ? 14 : 12, i === 0 ? bold : regular)) {
      text(part, y, i === 0 ? 14 : 12, i === 0 ? bold : regular);
      y -= i === 0 ? 18 : 15;
    }
  }
  y -= 8;
  page.drawLine({ start: { x: left, y }, end: { x: width - left, y }, thickness: 1 });
  y -= 16;
  text(`Service: ${service}`, y, 10, bold);
  y -= 14;
  text(`Order ${order.orderNumber}`, y, 9);
  if (d.country !== 'AU') {
    y -= 14;
    text('CN23 customs declaration: see the items below', y, 8);
    for (const item of order.items.slice(0, 4)) {
      y -= 11;
      text(`${item.quantity} x ${item.description} ${item.tariffCode ?? ''} ${item.countryOfOrigin ?? ''} $${item.value.toFixed(2)}`, y, 7);
    }
  }
  // A plain stand-in for the barcode: bars drawn from the number, then the number itself.
  const barY = 22 * MM;
  let x = left;
  for (const ch of trackingNumber) {
    const code = ch.charCodeAt(0);
    for (let bit = 0; bit < 6; bit++) {
      const w = (code >> bit) & 1 ? 1.6 : 0.8;
      page.drawRectangle({ x, y: barY, width: w, height: 14 * MM, color: rgb(0, 0, 0) });
      x += w + 0.9;
    }
  }
  page.drawText(trackingNumber, { x: left, y: barY - 6 * MM, size: 14, font: bold });
  page.drawText('TEST LABEL — NOT FOR POSTAGE', { x: left, y: 6 * MM, size: 10, font: bold, color: red });
  return pdf.save();
}

export function createLocalShipping(options: { file?: string; webhookSecret?: string; log?: (line: string) => void } = {}): ShippingPlatform {
  const file = () => (options.file ? resolve(options.file) : shippingFileFromEnv());
  const log = options.log ?? ((line: string) => console.log(line));
  const secret = options.webhookSecret ?? LOCAL_WEBHOOK_SECRET;
  const find = async (platformOrderId: string) => (await localShipments(file())).find((s) => s.platformOrderId === platformOrderId);
  return {
    name: 'local-test',
    async createOrder(order) {
      // As the platform does: an order number it has already is not taken twice.
      const existing = (await localShipments(file())).find((s) => s.order.orderNumber === order.orderNumber);
      if (existing?.order.reference === order.reference) return { platformOrderId: existing.platformOrderId };
      const platformOrderId = `LOCAL-${order.orderNumber}`;
      // The same number for another order (its reference is the shop's order id): the stand-in's file outlived a
      // local database started afresh, whose numbers begin again at 1001. The old one is taken off.
      if (existing) await append(file(), { type: 'deleted', at: new Date().toISOString(), platformOrderId: existing.platformOrderId });
      await append(file(), { type: 'order', at: new Date().toISOString(), platformOrderId, order });
      log(`[shipping stand-in] order ${order.orderNumber} received (local stand-in, no label bought; see ${file()})`);
      return { platformOrderId };
    },
    async findOrder(orderNumber) {
      const found = (await localShipments(file())).find((s) => s.order.orderNumber === orderNumber);
      return found ? { platformOrderId: found.platformOrderId } : null;
    },
    async updateOrder(platformOrderId, { destination }) {
      const shipment = await find(platformOrderId);
      if (!shipment) throw new Error(`The shipping stand-in has no order ${platformOrderId}.`);
      // As Starshipit does: a printed label is not changed by a new address.
      if (shipment.label) throw new Error(`The shipping stand-in already printed the label of order ${platformOrderId}.`);
      await append(file(), { type: 'destination', at: new Date().toISOString(), platformOrderId, destination });
    },
    async deleteOrder(platformOrderId) {
      const shipment = await find(platformOrderId);
      if (!shipment) return;
      if (shipment.label) throw new Error(`The shipping stand-in already printed the label of order ${platformOrderId}.`);
      await append(file(), { type: 'deleted', at: new Date().toISOString(), platformOrderId });
    },
    async printLabel(platformOrderId): Promise<PlatformLabel> {
      const shipment = await find(platformOrderId);
      if (!shipment) throw new Error(`The shipping stand-in has no order ${platformOrderId}.`);
      let label = shipment.label;
      if (!label) {
        const abroad = shipment.order.destination.country !== 'AU';
        label = {
          trackingNumber: testTrackingNumber(shipment.order.orderNumber, shipment.order.destination.country),
          carrier: 'Australia Post',
          // Abroad, the parcel's own service (Standard or Express) with the customs form it carries.
          service: abroad ? `${shipment.order.shippingMethod || 'International Standard'} (CN23)` : shipment.order.shippingMethod || 'Parcel Post',
        };
        await append(file(), { type: 'label', at: new Date().toISOString(), platformOrderId, ...label });
      }
      const pdf = await drawTestLabel(shipment.order, label.trackingNumber, label.service);
      return { platformOrderId, carrier: label.carrier, trackingNumbers: [label.trackingNumber], labels: [pdf] };
    },
    async readWebhook(rawBody, headers) {
      if (!starshipitSignatureMatches(secret, rawBody, headers.get(STARSHIPIT_SIGNATURE_HEADER))) {
        throw new WebhookSignatureError('The X-Starshipit-Signature header does not match the body.');
      }
      return readTrackingEvent(rawBody);
    },
    async checkAccess() {},
  };
}

/** Notes an event the TEST page sent, so the page lists it under its order. */
export async function recordLocalEvent(platformOrderId: string, status: string, file: string = shippingFileFromEnv(), sent?: SentEvent): Promise<void> {
  await append(file, { type: 'event', at: new Date().toISOString(), platformOrderId, status, ...(sent && { sent }) });
}
