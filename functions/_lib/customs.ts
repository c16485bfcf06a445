/**
 * An order's customs lines: the one place they are made, for the printed declaration and for the shipping
 * platform. Each line is one book: what customs read it as, its tariff code and origin (the product's customs
 * columns, from its book file) and what the buyer paid for it, after the quantity price (already in the line's
 * price) and the order's promotion code (shared over the lines by their value, to the cent). Never the list price.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { fromCents, toCents } from '../../src/lib/money';

export interface CustomsLine {
  description: string;
  quantity: number;
  /** Dollars, 2 dp: what the buyer paid for the line's copies after discounts; the lines add up to what was paid for the goods. */
  valueAud: number;
  /** Dollars, 2 dp: the line's value per copy, rounded to the cent (see splitCustomsValue for copies that add up exactly). */
  unitValueAud: number;
  hsCode: string;
  originCountry: string;
  unitWeightGrams: number;
}

/** The order is not there, or a book in it has no customs data: the parcel cannot be declared. */
export class CustomsDataError extends Error {
  constructor(
    message: string,
    /** The books lacking customs data, by id. */
    readonly productIds: readonly string[] = [],
  ) {
    super(message);
    this.name = 'CustomsDataError';
  }
}

interface ItemRow {
  product_id: string;
  title: string;
  quantity: number;
  price_at_time: number | string;
}

interface ProductRow {
  id: string;
  customs_description: string | null;
  hs_code: string | null;
  origin_country: string | null;
  weight: number | string;
}

/**
 * A copy's share of what was paid for the goods: its price × (goods − discount) / goods, in whole cents. The
 * lines' sum can differ from the goods paid by a cent or two of rounding, never more than a cent a line.
 */
export function paidUnitValue(unitPrice: number, goods: number, discount: number): number {
  const goodsCents = toCents(goods);
  const discountCents = Math.min(Math.max(toCents(discount), 0), goodsCents);
  if (goodsCents <= 0 || discountCents === 0) return fromCents(toCents(unitPrice));
  return fromCents(Math.round((toCents(unitPrice) * (goodsCents - discountCents)) / goodsCents));
}

/**
 * What was paid for each line, in cents: its price less its share of the discount, shared by the lines' value with
 * the leftover cents going to the largest remainders, so the lines add up to exactly what was paid for the goods.
 */
export function paidLineCents(lines: ReadonlyArray<{ unitPrice: number; quantity: number }>, discount: number): number[] {
  const gross = lines.map((line) => toCents(line.unitPrice) * line.quantity);
  const goodsCents = gross.reduce((sum, cents) => sum + cents, 0);
  const discountCents = Math.min(Math.max(toCents(discount), 0), goodsCents);
  if (goodsCents <= 0 || discountCents === 0) return gross;
  const exact = gross.map((cents) => (cents * discountCents) / goodsCents);
  const shares = exact.map(Math.floor);
  let left = discountCents - shares.reduce((sum, cents) => sum + cents, 0);
  const byRemainder = exact.map((value, i) => ({ i, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return gross.map((cents, i) => cents - shares[i]!);
}

/** The order's customs lines (service-role client), in the order's item order by title. */
export async function orderCustomsLines(db: SupabaseClient, orderId: string): Promise<CustomsLine[]> {
  const order = await db.from('orders').select('id, subtotal_amount, discount_amount').eq('id', orderId).maybeSingle();
  if (order.error) throw new Error(`Could not read order ${orderId}: ${order.error.message}`);
  if (!order.data) throw new CustomsDataError(`No order ${orderId}.`);

  const items = await db.from('order_items').select('product_id, title, quantity, price_at_time').eq('order_id', orderId).order('title');
  if (items.error) throw new Error(`Could not read the items of order ${orderId}: ${items.error.message}`);
  const rows = (items.data ?? []) as ItemRow[];
  if (rows.length === 0) return [];

  const ids = [...new Set(rows.map((row) => row.product_id))];
  const products = await db.from('products').select('id, customs_description, hs_code, origin_country, weight').in('id', ids);
  if (products.error) throw new Error(`Could not read the books of order ${orderId}: ${products.error.message}`);
  const byId = new Map(((products.data ?? []) as ProductRow[]).map((product) => [product.id, product]));

  const lacking = ids.filter((id) => {
    const product = byId.get(id);
    return !product?.customs_description || !product.hs_code || !product.origin_country;
  });
  if (lacking.length) {
    throw new CustomsDataError(`Customs data (customsDescription, hsCode, originCountry) is missing for ${lacking.join(', ')}: add it to the book file and sync the catalog.`, lacking);
  }

  const discount = Number(order.data.discount_amount ?? 0);
  const paid = paidLineCents(
    rows.map((row) => ({ unitPrice: Number(row.price_at_time), quantity: row.quantity })),
    discount,
  );
  return rows.map((row, i) => {
    const product = byId.get(row.product_id)!;
    return {
      description: product.customs_description!,
      quantity: row.quantity,
      valueAud: fromCents(paid[i]!),
      unitValueAud: fromCents(Math.round(paid[i]! / row.quantity)),
      hsCode: product.hs_code!,
      originCountry: product.origin_country!,
      unitWeightGrams: Number(product.weight),
    };
  });
}
