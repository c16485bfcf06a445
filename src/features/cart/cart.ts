/**
 * Cart rules as pure functions over a list of lines. The store (store.ts) applies them; tests call them
 * directly.
 */
// zod's tree-shakable build: the cart ships on every page, so it must stay small.
import * as z from 'zod/mini';
import { LIMITS } from '@/config/constants';
import type { Product } from '@/features/catalog/product';
import { priceLine, type LinePrice } from '@/features/catalog/quantity-prices';
import { fromCents, toCents } from '@/lib/money';

export type CartProduct = Pick<Product, 'id' | 'title' | 'price' | 'imageUrl' | 'stock' | 'weight' | 'dimensions' | 'quantityPrices'>;

export interface CartLine {
  product: CartProduct;
  quantity: number;
}

/** Any input to a quantity field as a quantity: positive integers only, anything else is 1. */
export function toQuantity(input: unknown): number {
  const n = typeof input === 'number' ? input : Number(String(input ?? '').trim());
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, LIMITS.maxLineQuantity);
}

export function cartProductOf(product: CartProduct): CartProduct {
  const { id, title, price, imageUrl, stock, weight, dimensions, quantityPrices } = product;
  return { id, title, price, imageUrl, stock, weight, dimensions, ...(quantityPrices?.length && { quantityPrices }) };
}

/** Adds a product; one already in the cart gets its quantity raised. */
export function addLine(lines: readonly CartLine[], product: CartProduct, quantity: number): CartLine[] {
  const existing = lines.find((line) => line.product.id === product.id);
  if (existing) {
    return lines.map((line) => (line.product.id === product.id ? { product: cartProductOf(product), quantity: Math.min(line.quantity + quantity, LIMITS.maxLineQuantity) } : line));
  }
  return [...lines, { product: cartProductOf(product), quantity: Math.min(quantity, LIMITS.maxLineQuantity) }];
}

/** Sets a line's quantity; zero or less removes it. */
export function setLineQuantity(lines: readonly CartLine[], productId: string, quantity: number): CartLine[] {
  if (!Number.isFinite(quantity) || quantity <= 0) return removeLine(lines, productId);
  return lines.map((line) => (line.product.id === productId ? { ...line, quantity: Math.min(Math.trunc(quantity), LIMITS.maxLineQuantity) } : line));
}

export function removeLine(lines: readonly CartLine[], productId: string): CartLine[] {
  return lines.filter((line) => line.product.id !== productId);
}

/** A line's price at its quantity: the quantity price reached, or the product's own. */
export const linePrice = (line: CartLine): LinePrice => priceLine(line.product.price, line.product.quantityPrices, line.quantity);

export function subtotalOf(lines: readonly CartLine[]): number {
  return fromCents(lines.reduce((sum, line) => sum + toCents(linePrice(line).lineTotal), 0));
}

/** What the quantity prices take off the cart, against each product's own price. */
export function quantitySavingOf(lines: readonly CartLine[]): number {
  return fromCents(lines.reduce((sum, line) => sum + toCents(linePrice(line).saving), 0));
}

export function itemCountOf(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

const dimensions = z.object({ length: z.number(), width: z.number(), height: z.number() });
const savedLine = z.object({
  product: z.object({
    id: z.string().check(z.minLength(1)),
    title: z.string(),
    price: z.number().check(z.nonnegative()),
    imageUrl: z.string(),
    stock: z.number(),
    weight: z._default(z.number(), 0),
    dimensions: z._default(dimensions, { length: 0, width: 0, height: 0 }),
    quantityPrices: z.optional(z.array(z.object({ minQuantity: z.int().check(z.positive()), price: z.number().check(z.positive()) }))),
  }),
  quantity: z.int().check(z.positive()),
});
const savedCart = z.array(savedLine).check(z.maxLength(LIMITS.maxCartLines));

/** Reads a saved cart; anything unreadable is ignored (an empty cart). */
export function decodeCart(raw: string | undefined | null): CartLine[] {
  if (!raw) return [];
  try {
    const parsed = savedCart.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
