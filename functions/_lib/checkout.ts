/**
 * Checkout rules on the server: the cart's request shape, and pricing a cart from the database. The browser's
 * prices are never read; quantities and stock are checked here, then again by fulfilment. The fields the shopper
 * types (email, address, gift) are parsed with the page's own schemas (`src/features/checkout/order-fields.ts`).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { type ALLOWED_COUNTRIES, LIMITS, SHIPPING } from '../../src/config/constants';
import { CHECKOUT_MESSAGES } from '../../src/features/checkout/contract';
import { copiesAvailable, isPreorder, productFromRow, type Product } from '../../src/features/catalog/product';
import { priceLine, type QuantityPrice } from '../../src/features/catalog/quantity-prices';
import { fromCents, toCents } from '../../src/lib/money';
import { readLiveCatalog } from './live-catalog';
import { parcelForCart, quoteShipping } from './shipping';
import type { ShippingQuote, ShippingRatesProvider } from './providers/shipping-rates';

const cartItemsSchema = z
  .array(
    z.looseObject({
      id: z.string().trim().min(1).max(100),
      quantity: z.number({ error: 'Quantity must be a whole number.' }).int('Quantity must be a whole number.').min(1, 'Quantity must be at least 1.').max(LIMITS.maxLineQuantity),
    }),
  )
  .min(1, CHECKOUT_MESSAGES.emptyCart)
  .max(LIMITS.maxCartLines)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, 'Each product may appear only once in the cart.');

/** Accepts the cart as the browser keeps it ({ product: { id }, quantity }) or flat ({ id, quantity }). */
export const cartInput = z.preprocess(
  (value) =>
    Array.isArray(value)
      ? value.map((item) => (item && typeof item === 'object' && 'product' in item && item.product && typeof item.product === 'object' ? { ...item, id: (item.product as { id?: unknown }).id } : item))
      : value,
  cartItemsSchema,
);

export interface PricedLine {
  productId: string;
  title: string;
  quantity: number;
  /** The price per copy charged: the quantity price reached, else the product's own. */
  unitPrice: number;
  /** The product's own price, for what the quantity price saves. */
  basePrice: number;
  /** The quantity price reached, or null. */
  tier: QuantityPrice | null;
  weight: number;
  dimensions: { length: number; width: number; height: number };
}

export class CheckoutRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The cart line the refusal is about (too few copies left), so the page can say it beside that line only. */
    readonly line?: { productId: string; available: number },
  ) {
    super(message);
  }

  /** The answer: the message, and the line it is about. */
  get body(): { error: string; line?: { productId: string; available: number } } {
    return this.line ? { error: this.message, line: this.line } : { error: this.message };
  }
}

/** Why a line cannot be bought in this quantity: too few copies left in stock, or left to pre-order. */
function shortLine(product: Product, quantity: number): CheckoutRejection | null {
  const available = copiesAvailable(product);
  if (available >= quantity) return null;
  const line = { productId: product.id, available: Math.max(0, available) };
  if (isPreorder(product)) {
    return new CheckoutRejection(409, available > 0 ? `Only ${available} left to pre-order of ${product.title}. Please lower the quantity.` : `${product.title}: All pre-order copies are taken`, line);
  }
  return new CheckoutRejection(409, available > 0 ? `Only ${available} left of ${product.title}. Please lower the quantity.` : `${product.title}: This product is out of stock`, line);
}

/**
 * Reads every product from the database: unknown ids and too few copies (in stock, or left to pre-order for a
 * title on pre-order, as payment will count them) are refused with a clear message.
 */
export async function priceCart(db: SupabaseClient, items: Array<{ id: string; quantity: number }>): Promise<{ lines: PricedLine[]; subtotal: number }> {
  const ids = items.map((i) => i.id);
  // Books for sale only: a book taken off sale (its file removed) is refused like an unknown one.
  const rows = await readLiveCatalog(db, ids);
  const tiers = await quantityPricesOf(db, ids);
  const byId = new Map(rows.map((row) => productFromRow(row)).map((product) => [product.id, product]));
  const lines = items.map((item) => {
    const product = byId.get(item.id);
    if (!product) throw new CheckoutRejection(400, `We couldn't find one of the products in your cart (${item.id}). Please remove it and try again.`);
    const short = shortLine(product, item.quantity);
    if (short) throw short;
    const priced = priceLine(product.price, tiers.get(product.id), item.quantity);
    return {
      productId: product.id,
      title: product.title,
      quantity: item.quantity,
      unitPrice: priced.unitPrice,
      basePrice: product.price,
      tier: priced.tier,
      weight: product.weight,
      dimensions: product.dimensions,
    };
  });
  const subtotal = fromCents(lines.reduce((sum, l) => sum + toCents(l.unitPrice) * l.quantity, 0));
  return { lines, subtotal };
}

const tierRows = z.array(z.object({ product_id: z.string(), min_quantity: z.number().int(), price: z.coerce.number() }));

/** The quantity prices of these products, from the database (the book files' tiers, as the catalog sync wrote them). */
export async function quantityPricesOf(db: SupabaseClient, ids: string[]): Promise<Map<string, QuantityPrice[]>> {
  const { data, error } = await db.from('product_quantity_prices').select('product_id, min_quantity, price').in('product_id', ids).order('min_quantity');
  if (error) throw error;
  const byProduct = new Map<string, QuantityPrice[]>();
  for (const row of tierRows.parse(data)) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), { minQuantity: row.min_quantity, price: row.price }]);
  return byProduct;
}

/** A line's name on the payment page: the title, and the quantity price when one was reached. */
export const lineName = (line: PricedLine) => (line.tier ? `${line.title} (${line.tier.minQuantity}+ copies price)` : line.title);

/** Quotes for the destination, computed here whatever the browser showed. */
export async function quotesFor(
  rates: ShippingRatesProvider,
  lines: PricedLine[],
  subtotal: number,
  address: { postalCode: string; city?: string; state?: string; country: (typeof ALLOWED_COUNTRIES)[number] },
) {
  const parcel = parcelForCart(lines.map((l) => ({ weight: l.weight, dimensions: l.dimensions, quantity: l.quantity })));
  return quoteShipping(rates, { fromPostcode: SHIPPING.pickupPostcode, toPostcode: address.postalCode, toSuburb: address.city, toState: address.state, country: address.country, ...parcel }, subtotal);
}

/**
 * Business days from an estimate like "3-7 business days" or "1 business day", for the payment page; null when
 * the estimate names no days (international parcels are confirmed by the seller), so none is invented.
 */
export function deliveryDays(quote: ShippingQuote): { min: number; max: number } | null {
  const match = quote.eta.days_range.match(/(\d+)\s*[-–]\s*(\d+)/) ?? quote.eta.days_range.match(/(\d+)/);
  if (!match) return null;
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  return min > 0 ? { min, max: Math.max(min, max) } : null;
}
