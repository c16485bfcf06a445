/**
 * Quantity prices: a book's price per copy from a number of copies up (for a classroom or a parish). The one
 * pricing rule the cart, the drawer, the checkout preview and the server's checkout all use; the server reads
 * the tiers from the database, the browser from the book file, so what the shopper sees is only a preview.
 */
import { QUANTITY_PRICING } from '@/config/constants';
import { formatPrice } from '@/lib/format';
import { fromCents, toCents } from '@/lib/money';

export interface QuantityPrice {
  minQuantity: number;
  /** AUD per copy. */
  price: number;
}

export interface LinePrice {
  /** The price per copy at this quantity. */
  unitPrice: number;
  lineTotal: number;
  /** The tier reached, or null at the book's own price. */
  tier: QuantityPrice | null;
  /** What the tier takes off the line, against the book's own price (0 without a tier). */
  saving: number;
}

/** The tiers as a rule: sorted by quantity, each lower than the one before and than the book's own price. */
export function quantityPricesProblem(basePrice: number, tiers: readonly QuantityPrice[]): string | null {
  const sorted = [...tiers].sort((a, b) => a.minQuantity - b.minQuantity);
  let previous = toCents(basePrice);
  for (const [i, tier] of sorted.entries()) {
    if (i > 0 && tier.minQuantity === sorted[i - 1]!.minQuantity) return `two quantity prices start at ${tier.minQuantity} copies`;
    if (toCents(tier.price) >= previous) return `${tier.minQuantity} or more copies at ${tier.price} must cost less per copy than ${i === 0 ? 'the book itself' : 'fewer copies'}`;
    previous = toCents(tier.price);
  }
  return null;
}

/** The tier this many copies reach: the one with the largest minimum at or below the quantity. */
function tierFor(tiers: readonly QuantityPrice[] | undefined, quantity: number): QuantityPrice | null {
  let reached: QuantityPrice | null = null;
  for (const tier of tiers ?? []) if (quantity >= tier.minQuantity && (!reached || tier.minQuantity > reached.minQuantity)) reached = tier;
  return reached;
}

/** The price of a line: the tier reached, or the book's own price; added in cents. */
export function priceLine(basePrice: number, tiers: readonly QuantityPrice[] | undefined, quantity: number): LinePrice {
  const tier = tierFor(tiers, quantity);
  const unitPrice = tier ? tier.price : basePrice;
  return {
    unitPrice,
    lineTotal: fromCents(toCents(unitPrice) * quantity),
    tier,
    saving: tier ? fromCents((toCents(basePrice) - toCents(tier.price)) * quantity) : 0,
  };
}

/** The next tier up from this quantity, to tell the shopper how many more copies lower the price. */
export function nextTier(tiers: readonly QuantityPrice[] | undefined, quantity: number): QuantityPrice | null {
  return [...(tiers ?? [])].sort((a, b) => a.minQuantity - b.minQuantity).find((tier) => tier.minQuantity > quantity) ?? null;
}

/** Where a buyer of more copies than one order takes asks for a quote: the contact form, with subject and quantity filled in. */
export function quoteRequestPath(title: string, quantity: number = QUANTITY_PRICING.quoteAbove + 1): string {
  const query = new URLSearchParams({ subject: `Quote for ${quantity} copies of ${title}`, quantity: String(quantity) });
  return `/contact?${query}`;
}

/** True when a line has reached the most copies one order takes: more than that is quoted. */
export const needsQuote = (quantity: number) => quantity >= QUANTITY_PRICING.quoteAbove;

/** "10 or more copies $20.00 each", as the book pages list the tiers. */
export const tierText = (tier: QuantityPrice) => `${tier.minQuantity} or more copies ${formatPrice(tier.price)} each`;

/** What a line's quantity price says in the cart, the drawer and the checkout: the tier reached and what it saves. */
export function tierNote(price: LinePrice): string | null {
  if (!price.tier) return null;
  return `${price.tier.minQuantity}+ copies price: ${formatPrice(price.unitPrice)} each, you save ${formatPrice(price.saving)}`;
}

/**
 * What this many copies cost on the book and product pages, beside the quantity: the price each (the tier reached,
 * else the book's own), the total and what the tier saves; null for one copy, whose price the page shows already.
 */
export function quantityLineText(basePrice: number, tiers: readonly QuantityPrice[] | undefined, quantity: number): string | null {
  if (quantity <= 1) return null;
  const price = priceLine(basePrice, tiers, quantity);
  return `${quantity} × ${formatPrice(price.unitPrice)} each = ${formatPrice(price.lineTotal)}${price.saving > 0 ? `, you save ${formatPrice(price.saving)}` : ''}`;
}

/** More copies typed than one order takes (and the stock allows that many): the number to ask a quote for, else null. */
export const quoteQuantity = (typed: number, limit: number) => (typed > QUANTITY_PRICING.quoteAbove && limit >= QUANTITY_PRICING.quoteAbove ? typed : null);
