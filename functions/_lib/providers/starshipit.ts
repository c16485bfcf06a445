/**
 * Starshipit: the shop's paid orders become Starshipit orders, their MyPost Business labels (CN23 abroad) are
 * printed through it, and its tracking webhook moves them on.
 *
 * API (https://api-docs.starshipit.com/, Starshipit's Postman reference): base https://api.starshipit.com, every call
 * with the headers `StarShipIT-Api-Key` and `Ocp-Apim-Subscription-Key` (Settings > API); answers carry `success`
 * and `errors: [{ message, details }]`; too many requests answer 429.
 *   POST /api/orders { order: { order_number, reference, shipping_method, destination, items, packages } } → { order: { order_id } }
 *   GET  /api/orders?order_number=…                                                      → { order: { order_id } }
 *   PUT  /api/orders { order: { order_id, destination } }       (only the fields given change; refused once shipped)
 *   DELETE /api/orders/delete?order_id=…                                                  (an order not yet shipped)
 *   POST /api/orders/shipment { order_id, reprint }                   → { labels: [base64 PDF], tracking_numbers, carrier_name }
 *   GET  /api/orders/unshipped?limit=1                                                   (the doctor's cheap check)
 * Webhook (https://support.starshipit.com/hc/en-us/articles/360000376436-Webhook-notifications and
 * https://support.starshipit.com/articles/14700000001008-use-webhooks-and-tracking-updates): a POST of
 * { order_number, carrier_name, carrier_service, shipment_date, tracking_number, tracking_status, last_updated_date }
 * to the URL set in Settings > Tracking & notifications, with an optional secret key whose signature arrives in
 * `X-Starshipit-Signature`. The pages name the header but not its encoding: it is checked as the HMAC-SHA256 of the
 * raw body under the secret, in base64 or hex, compared in constant time. The body carries no event id, so an
 * event's key is the hash of its order, tracking number, status and time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ConfigurationError } from '../runtime';
import { ProviderError, WebhookSignatureError } from './errors';
import type { PlatformDestination, PlatformLabel, PlatformOrder, ShippingPlatform, TrackingEvent } from './shipping-platform';
import { type HttpOptions, type ProviderHttpResponse, requestProvider } from './transport';

/** How errors and logs name it; the platform's own name (`name`) stays 'starshipit'. */
const NAME = 'Starshipit';
export const STARSHIPIT_SIGNATURE_HEADER = 'x-starshipit-signature';

export interface StarshipitOptions extends HttpOptions {
  apiKey: string;
  subscriptionKey: string;
  /** Unset in a deploy without it: tracking events are refused. */
  webhookSecret?: string;
}

const errorsSchema = z.object({ errors: z.array(z.object({ message: z.string().optional(), details: z.string().optional() })).min(1) });

function errorText(body: unknown): string | null {
  const parsed = errorsSchema.safeParse(body);
  if (!parsed.success) return null;
  return parsed.data.errors.map((e) => [e.message, e.details].filter(Boolean).join(': ')).join('; ') || null;
}

/** Any failing answer as a ProviderError: the key refused, too many requests (with its Retry-After), the platform's own words. */
function failure(what: string, response: ProviderHttpResponse): ProviderError {
  const said = errorText(response.body);
  if (response.status === 401 || response.status === 403) {
    return new ProviderError(
      NAME,
      response.status,
      `Starshipit refused the API key or subscription key (${response.status}) while ${what}${said ? `: ${said}` : ''}. Check STARSHIPIT_API_KEY and STARSHIPIT_SUBSCRIPTION_KEY.`,
    );
  }
  if (response.status === 429) {
    const after = response.headers.get('retry-after');
    return new ProviderError(NAME, 429, `Starshipit is limiting requests (429) while ${what}${after ? `; retry after ${after} s` : ''}.`);
  }
  const status = response.ok ? 502 : response.status;
  return new ProviderError(NAME, status, `Starshipit refused ${what} (${response.status})${said ? `: ${said}` : ''}.`);
}

const orderAnswer = z.object({ order: z.object({ order_id: z.union([z.number(), z.string()]) }) });
const labelAnswer = z.object({
  order_id: z.union([z.number(), z.string()]).optional(),
  carrier_name: z.string().optional(),
  tracking_numbers: z.array(z.string()).default([]),
  labels: z.array(z.string()).default([]),
});

/** Starshipit's webhook body. order_number arrives as a string (sometimes a number in its older examples). */
const webhookSchema = z.object({
  order_number: z.union([z.string(), z.number()]).transform(String),
  carrier_name: z.string().nullish(),
  tracking_number: z.string().nullish(),
  tracking_status: z.string().min(1).max(40),
  last_updated_date: z.string().nullish(),
  shipment_date: z.string().nullish(),
});

/** The signature Starshipit sends: HMAC-SHA256 of the raw body under the webhook secret (base64). */
export function signStarshipitBody(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('base64');
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the header is the body's HMAC under the secret, written in base64 or hex (compared in constant time). */
export function starshipitSignatureMatches(secret: string, rawBody: string, header: string | null): boolean {
  if (!header) return false;
  const digest = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const given = header.trim().replace(/^sha256=/i, '');
  const asHex = /^[0-9a-f]{64}$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
  const asBase64 = Buffer.from(given, 'base64');
  return sameBytes(digest, asBase64) || sameBytes(digest, asHex);
}

/** A signed body that is not a tracking event the shop can read. */
export class UnreadableTrackingEvent extends Error {
  override name = 'UnreadableTrackingEvent';
}

/** Reads a webhook body the platform signed: the event, with its key. Throws UnreadableTrackingEvent on anything else. */
export function readTrackingEvent(rawBody: string): TrackingEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(rawBody);
  } catch (cause) {
    throw new UnreadableTrackingEvent('The tracking event is not JSON.', { cause });
  }
  const parsed = webhookSchema.safeParse(raw);
  if (!parsed.success) throw new UnreadableTrackingEvent(`The tracking event is not one Starshipit sends: ${parsed.error.issues[0]?.message ?? 'unreadable'}.`);
  const e = parsed.data;
  const when = new Date(e.last_updated_date ?? e.shipment_date ?? '');
  const occurredAt = Number.isNaN(when.getTime()) ? new Date().toISOString() : when.toISOString();
  const trackingNumber = e.tracking_number?.trim() || null;
  const key = createHash('sha256')
    .update(JSON.stringify([e.order_number.trim().toUpperCase(), trackingNumber, e.tracking_status, e.last_updated_date ?? e.shipment_date ?? '']))
    .digest('hex');
  return { orderNumber: e.order_number.trim(), trackingNumber, carrier: e.carrier_name?.trim() || null, status: e.tracking_status, occurredAt, eventKey: key };
}

function destinationBody(d: PlatformDestination) {
  return {
    name: d.name,
    ...(d.company ? { company: d.company } : {}),
    email: d.email,
    phone: d.phone ?? '',
    street: d.street,
    suburb: d.suburb,
    city: d.city,
    state: d.state,
    post_code: d.postCode,
    country: d.country,
  };
}

/** Starshipit's order ids are numbers; an id that is not one is passed as it is. */
const orderIdOf = (platformOrderId: string) => (/^\d+$/.test(platformOrderId) ? Number(platformOrderId) : platformOrderId);

export function createStarshipit(options: StarshipitOptions): ShippingPlatform {
  // Five seconds: it runs after a payment is fulfilled, inside the payment webhook's own time.
  const { apiKey, subscriptionKey, webhookSecret, fetch: fetchImpl = globalThis.fetch, timeoutMs = 5000 } = options;
  const base = (options.baseUrl ?? 'https://api.starshipit.com').replace(/\/$/, '');
  const headers = { 'StarShipIT-Api-Key': apiKey, 'Ocp-Apim-Subscription-Key': subscriptionKey, 'content-type': 'application/json', accept: 'application/json' };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    requestProvider(NAME, fetchImpl, `${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, timeoutMs);

  /** A 2xx answer Starshipit marked unsuccessful is a refusal too. */
  const refused = (response: ProviderHttpResponse) => !response.ok || (response.body as { success?: unknown } | undefined)?.success === false;

  return {
    name: 'starshipit',
    async createOrder(order: PlatformOrder) {
      const response = await call('POST', '/api/orders', {
        order: {
          order_number: order.orderNumber,
          reference: order.reference,
          shipping_method: order.shippingMethod,
          destination: destinationBody(order.destination),
          items: order.items.map((i) => ({
            description: i.description,
            ...(i.sku ? { sku: i.sku } : {}),
            quantity: i.quantity,
            weight: i.weight,
            value: i.value,
            ...(i.tariffCode ? { tariff_code: i.tariffCode } : {}),
            ...(i.countryOfOrigin ? { country_of_origin: i.countryOfOrigin } : {}),
          })),
          packages: order.packages,
        },
      });
      if (refused(response)) throw failure(`order ${order.orderNumber}`, response);
      const parsed = orderAnswer.safeParse(response.body);
      if (!parsed.success) throw new ProviderError(NAME, 502, 'Starshipit answered the new order without its order_id.', { code: 'invalid-response', cause: parsed.error });
      return { platformOrderId: String(parsed.data.order.order_id) };
    },
    async findOrder(orderNumber) {
      const response = await call('GET', `/api/orders?${new URLSearchParams({ order_number: orderNumber })}`);
      if (response.status === 404) return null;
      if (refused(response)) {
        // "Order not found" comes back as an unsuccessful answer, not always a 404.
        if (response.ok && /not found/i.test(errorText(response.body) ?? '')) return null;
        throw failure(`the lookup of order ${orderNumber}`, response);
      }
      const parsed = orderAnswer.safeParse(response.body);
      return parsed.success ? { platformOrderId: String(parsed.data.order.order_id) } : null;
    },
    async updateOrder(platformOrderId, { destination }) {
      const response = await call('PUT', '/api/orders', { order: { order_id: orderIdOf(platformOrderId), destination: destinationBody(destination) } });
      if (refused(response)) throw failure(`the new address of order ${platformOrderId}`, response);
    },
    async deleteOrder(platformOrderId) {
      const response = await call('DELETE', `/api/orders/delete?${new URLSearchParams({ order_id: platformOrderId })}`);
      // Already gone is what was asked for.
      if (response.status === 404) return;
      if (refused(response)) throw failure(`the deletion of order ${platformOrderId}`, response);
    },
    async printLabel(platformOrderId, { reprint }): Promise<PlatformLabel> {
      const response = await call('POST', '/api/orders/shipment', { order_id: orderIdOf(platformOrderId), reprint });
      if (refused(response)) throw failure(`the label of order ${platformOrderId}`, response);
      const parsed = labelAnswer.safeParse(response.body);
      if (!parsed.success || parsed.data.labels.length === 0) {
        throw new ProviderError(NAME, 502, 'Starshipit answered the label request without a label.', { code: 'invalid-response' });
      }
      return {
        platformOrderId,
        carrier: parsed.data.carrier_name || 'Australia Post',
        trackingNumbers: parsed.data.tracking_numbers,
        labels: parsed.data.labels.map((b64) => new Uint8Array(Buffer.from(b64, 'base64'))),
      };
    },
    async readWebhook(rawBody, requestHeaders) {
      if (!webhookSecret) throw new ConfigurationError('STARSHIPIT_WEBHOOK_SECRET is not set: tracking events from Starshipit are refused.');
      if (!starshipitSignatureMatches(webhookSecret, rawBody, requestHeaders.get(STARSHIPIT_SIGNATURE_HEADER))) {
        throw new WebhookSignatureError('The X-Starshipit-Signature header does not match the body.');
      }
      return readTrackingEvent(rawBody);
    },
    async checkAccess() {
      const response = await call('GET', '/api/orders/unshipped?limit=1');
      if (refused(response)) throw failure('the check of the keys', response);
    },
  };
}
