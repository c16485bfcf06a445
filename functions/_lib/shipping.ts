/**
 * Shipping quotes: the shop's rules around whatever the carrier answers.
 * Duplicates go, the cheapest comes first, a failed carrier falls back to the flat table, and AU orders
 * from 75 AUD ship free. Pure apart from the one provider call in quoteShipping.
 */
import { z } from 'zod';
import { SHIPPING } from '../../src/config/constants';
import { carrierPrice, type ParcelRequest, type SatchelSize, type ShippingQuote, type ShippingRatesProvider, type ShippingService } from './providers/shipping-rates';
import { toCents } from '../../src/lib/money';
import { applyFreeShipping, CHECKOUT_MESSAGES } from '../../src/features/checkout/contract';
import { fallbackQuotes } from '../../src/features/checkout/fallback-quotes';
import { deliveryEstimate } from '../../src/features/checkout/delivery-estimates';

export { applyFreeShipping, fallbackQuotes };
export const SHIPPING_RATES_FAILURE_MESSAGE = CHECKOUT_MESSAGES.ratesFailed;

const satchelSizeSchema = z.enum(SHIPPING.satchelSizes);

/**
 * Both quote forms carriers send: `plan_name` or `plan`, and `eta { days_range, date_range }` or
 * `eta_days_range` / `eta_date_range`. Prices may arrive as numeric strings (carriers send "15.05").
 */
const quoteInputSchema = z.object({
  id: z.string().trim().min(1).optional(),
  plan_name: z.string().trim().min(1).optional(),
  plan: z.string().trim().min(1).optional(),
  carrier: z.string().trim().min(1).optional(),
  is_satchel: z.boolean().optional(),
  satchel_size: satchelSizeSchema.nullable().optional(),
  service: z.enum(['standard', 'express']).optional(),
  price: carrierPrice,
  eta: z.object({ days_range: z.string().optional(), date_range: z.string().optional() }).partial().nullable().optional(),
  eta_days_range: z.string().optional(),
  eta_date_range: z.string().optional(),
});

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A quote that does not say its service is express when its name says so (Express Post, priority, next day). */
function serviceOf(planName: string): ShippingService {
  return /express|priority|overnight|next[\s-]?day/i.test(planName) ? 'express' : 'standard';
}

/** One quote in the canonical shape, or undefined when it has no name or no usable price. */
function canonical(input: unknown, country: string): ShippingQuote | undefined {
  const parsed = quoteInputSchema.safeParse(input);
  if (!parsed.success) return undefined;
  const q = parsed.data;
  const planName = q.plan_name ?? q.plan;
  if (!planName) return undefined;
  const satchelSize: SatchelSize | null = q.satchel_size ?? null;
  const service = q.service ?? serviceOf(planName);
  return {
    id: q.id ?? slug(planName),
    plan_name: planName,
    carrier: q.carrier ?? SHIPPING.defaultCarrier,
    // A quote with a satchel size is a satchel even if the flag was left out.
    is_satchel: q.is_satchel ?? satchelSize !== null,
    satchel_size: satchelSize,
    service,
    price: toCents(q.price) / 100,
    eta: {
      // A carrier that states no time: the publisher's own range for the service.
      days_range: (q.eta?.days_range ?? q.eta_days_range ?? '').trim() || deliveryEstimate(country, service),
      date_range: (q.eta?.date_range ?? q.eta_date_range ?? '').trim(),
    },
  };
}

/**
 * Canonical quotes (a quote stating no time takes the publisher's range for `country`), duplicates removed (same plan, price and satchel: carriers list one service under several
 * codes), sorted by ascending price. Entries without a name or a price are dropped rather than shown as $NaN.
 */
export function normaliseQuotes(quotes: readonly unknown[], country = 'AU'): ShippingQuote[] {
  const seen = new Set<string>();
  const result: ShippingQuote[] = [];
  for (const input of quotes) {
    const quote = canonical(input, country);
    if (!quote) continue;
    const key = [quote.plan_name.trim().toLowerCase(), toCents(quote.price), quote.is_satchel ? (quote.satchel_size ?? 'satchel') : 'parcel'].join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(quote);
  }
  return result.sort(byPrice);
}

/** Ascending price; Array.prototype.sort is stable, so equal prices keep the carrier's order. */
const byPrice = (a: ShippingQuote, b: ShippingQuote) => toCents(a.price) - toCents(b.price);

export interface ShippingQuoteResult {
  quotes: ShippingQuote[];
  /** True when live rates failed and the flat table stands in. */
  fallback: boolean;
  /** What to tell the shopper when `fallback` is true. */
  message?: string;
}

/**
 * Quotes for a parcel, never failing: the shopper always gets something to choose.
 * - In Australia and abroad alike, the provider's prices for the parcel's weight (Australia Post's domestic or
 *   international services).
 * - Provider error or an empty answer: the rate card (abroad by weight), with the provider's shopper-safe message
 *   or the shop's own text.
 * Free shipping is applied last, so it covers live and fallback quotes alike.
 */
export async function quoteShipping(provider: ShippingRatesProvider, request: ParcelRequest, subtotal: number): Promise<ShippingQuoteResult> {
  // Free services move to the front: the list stays in ascending price after the rule is applied.
  const finish = (quotes: ShippingQuote[], extra: Omit<ShippingQuoteResult, 'quotes'>): ShippingQuoteResult => ({
    quotes: applyFreeShipping(quotes, { country: request.country, subtotal }).sort(byPrice),
    ...extra,
  });

  const card = () => fallbackQuotes(request.country, request.weightGrams);
  try {
    const quotes = normaliseQuotes(await provider.quote(request), request.country);
    if (quotes.length === 0) return finish(card(), { fallback: true, message: SHIPPING_RATES_FAILURE_MESSAGE });
    return finish(quotes, { fallback: false });
  } catch (error) {
    const userMessage = error instanceof Error && 'userMessage' in error && typeof error.userMessage === 'string' ? error.userMessage : undefined;
    return finish(card(), { fallback: true, message: userMessage || SHIPPING_RATES_FAILURE_MESSAGE });
  }
}

export interface CartParcelItem {
  /** Grams, per unit. */
  weight: number;
  /** Centimetres, per unit. */
  dimensions: { length: number; width: number; height: number };
  quantity: number;
}

export type CartParcel = Pick<ParcelRequest, 'weightGrams' | 'lengthCm' | 'widthCm' | 'heightCm'>;

/** A number we can add, or 0: product dimensions default to 0 when they cannot be read. */
function measure(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Rounds away float noise (3 × 0.6 = 1.7999999999999998) without losing real precision. */
function tidy(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The cart as one parcel: books stacked on each other, so weights and heights add up and the footprint is
 * the largest item's length and width.
 */
export function parcelForCart(items: readonly CartParcelItem[]): CartParcel {
  let weightGrams = 0;
  let heightCm = 0;
  let lengthCm = 0;
  let widthCm = 0;
  for (const item of items) {
    const quantity = Number.isInteger(item.quantity) && item.quantity > 0 ? item.quantity : 0;
    if (quantity === 0) continue;
    weightGrams += measure(item.weight) * quantity;
    heightCm += measure(item.dimensions?.height) * quantity;
    lengthCm = Math.max(lengthCm, measure(item.dimensions?.length));
    widthCm = Math.max(widthCm, measure(item.dimensions?.width));
  }
  return { weightGrams: tidy(weightGrams), lengthCm: tidy(lengthCm), widthCm: tidy(widthCm), heightCm: tidy(heightCm) };
}
