/**
 * Cart rules as pure functions over a list of lines. The store (store.ts) applies them; tests call them
 * directly.
 */
import { LIMITS } from '@/config/constants';
import { copiesAvailable, type Product } from '@/features/catalog/product';
import { priceLine, type LinePrice } from '@/features/catalog/quantity-prices';
import { isRecord } from '@/lib/is-record';
import { fromCents, toCents } from '@/lib/money';

export type CartProduct = Pick<Product, 'id' | 'title' | 'price' | 'imageUrl' | 'stock' | 'weight' | 'dimensions' | 'quantityPrices' | 'releaseDate' | 'preorderLeft'>;

export interface CartLine {
  product: CartProduct;
  quantity: number;
}

/**
 * The most copies one line may take: the cart's own limit, or the stock when fewer are left. A product with no
 * stock known (0 or less: sold out, refused when added) keeps the cart's limit, so a field never stops at 0.
 */
export function quantityLimit(stock: number | undefined): number {
  return stock !== undefined && Number.isFinite(stock) && stock >= 1 ? Math.min(Math.floor(stock), LIMITS.maxLineQuantity) : LIMITS.maxLineQuantity;
}

/** What a quantity field says at its stock limit ("Only 5 left"), or null below it or when the cart's own limit binds. */
export function stockLimitNote(quantity: number, stock: number | undefined): string | null {
  const limit = quantityLimit(stock);
  return limit < LIMITS.maxLineQuantity && quantity >= limit ? `Only ${limit} left` : null;
}

/** Any input to a quantity field as a quantity: positive integers only, anything else is 1; at most `max`. */
export function toQuantity(input: unknown, max: number = LIMITS.maxLineQuantity): number {
  const n = typeof input === 'number' ? input : Number(String(input ?? '').trim());
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, max);
}

/**
 * A quantity field's text as the shopper types it, the one rule for every quantity field: the whole number at the
 * start (an emptied field stays empty while they type), taken as it is typed, one above `max` as `max`. A decimal
 * point and what follows it stay in sight but count for nothing, so "1.5" is 1 copy, never 15. `quantity` is null
 * while the field holds no quantity (leaving the field then makes it `toQuantity`'s 1); `asked` is the whole
 * number as typed, before the limit, for offering a quote.
 */
export function typedQuantity(text: string, max: number): { shown: string; quantity: number | null; asked: number | null } {
  const [, whole = '', fraction = ''] = /^(\d*)([.,]\d*)?/.exec(text) ?? [];
  const asked = whole === '' ? null : Number(whole);
  if (asked === null || asked < 1) return { shown: whole, quantity: null, asked };
  const quantity = toQuantity(whole, max);
  return { shown: String(quantity) === whole ? whole + fraction : String(quantity), quantity, asked };
}

export function cartProductOf(product: CartProduct): CartProduct {
  const { id, title, price, imageUrl, stock, weight, dimensions, quantityPrices, releaseDate, preorderLeft } = product;
  return {
    id,
    title,
    price,
    imageUrl,
    stock,
    weight,
    dimensions,
    ...(quantityPrices?.length && { quantityPrices }),
    ...(releaseDate !== undefined && { releaseDate, preorderLeft: preorderLeft ?? 0 }),
  };
}

/** The most copies of this product one line may take now (its pre-order copies left, or its stock). */
export const lineLimit = (product: CartProduct) => quantityLimit(copiesAvailable(product));

/** Adds a product; one already in the cart gets its quantity raised. */
export function addLine(lines: readonly CartLine[], product: CartProduct, quantity: number): CartLine[] {
  const existing = lines.find((line) => line.product.id === product.id);
  if (existing) {
    return lines.map((line) => (line.product.id === product.id ? { product: cartProductOf(product), quantity: Math.min(line.quantity + quantity, lineLimit(product)) } : line));
  }
  return [...lines, { product: cartProductOf(product), quantity: Math.min(quantity, lineLimit(product)) }];
}

/** Sets a line's quantity, at most its stock; zero or less removes it. */
export function setLineQuantity(lines: readonly CartLine[], productId: string, quantity: number): CartLine[] {
  if (!Number.isFinite(quantity) || quantity <= 0) return removeLine(lines, productId);
  return lines.map((line) => (line.product.id === productId ? { ...line, quantity: Math.min(Math.trunc(quantity), lineLimit(line.product)) } : line));
}

type LiveFacts = Pick<CartProduct, 'id' | 'price' | 'stock' | 'releaseDate' | 'preorderLeft'>;

const sameFacts = (a: LiveFacts, b: LiveFacts) => a.price === b.price && a.stock === b.stock && a.releaseDate === b.releaseDate && (a.preorderLeft ?? 0) === (b.preorderLeft ?? 0);

/**
 * The lines with each product's live price, stock and pre-order state (what the live catalog answers), quantities
 * left as chosen: a quantity above what is available now is shown at its limit, for the shopper to lower, never
 * changed behind their back. A title released since it was added is no longer a pre-order.
 */
export function withLiveStock(lines: readonly CartLine[], live: readonly LiveFacts[]): CartLine[] {
  const byId = new Map(live.map((p) => [p.id, p]));
  let changed = false;
  const next = lines.map((line) => {
    const now = byId.get(line.product.id);
    if (!now || sameFacts(now, line.product)) return line;
    changed = true;
    const { releaseDate: _was, preorderLeft: _left, ...rest } = line.product;
    return { ...line, product: cartProductOf({ ...rest, price: now.price, stock: now.stock, releaseDate: now.releaseDate, preorderLeft: now.preorderLeft }) };
  });
  return changed ? next : (lines as CartLine[]);
}

/**
 * The pre-order the cart waits for: of its lines on pre-order, the one out last. An order holding a pre-order
 * ships once, when everything in it is out.
 */
export function awaitedPreorder(lines: readonly CartLine[]): { title: string; releaseDate: string } | null {
  let awaited: { title: string; releaseDate: string } | null = null;
  for (const { product } of lines) {
    if (product.releaseDate !== undefined && (!awaited || product.releaseDate > awaited.releaseDate)) awaited = { title: product.title, releaseDate: product.releaseDate };
  }
  return awaited;
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

/*
 * The saved cart is read at start-up on every shop page (the badge shows its count), so it is checked by hand
 * rather than with the schema library: zod's smallest build is 26 KB and 40-60 ms of script on a phone-class
 * CPU, for a value this page wrote itself. Whatever does not fit is dropped, as an unreadable cart is.
 */
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isPositiveInteger = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

function savedDimensions(value: unknown): CartProduct['dimensions'] | undefined {
  if (value === undefined) return { length: 0, width: 0, height: 0 };
  if (!isRecord(value) || !isNumber(value.length) || !isNumber(value.width) || !isNumber(value.height)) return undefined;
  return { length: value.length, width: value.width, height: value.height };
}

function savedQuantityPrices(value: unknown): CartProduct['quantityPrices'] | null {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return null;
  const tiers = value.map((tier) => (isRecord(tier) && isPositiveInteger(tier.minQuantity) && isNumber(tier.price) && tier.price > 0 ? { minQuantity: tier.minQuantity, price: tier.price } : null));
  return tiers.every((tier) => tier !== null) ? tiers : null;
}

function savedLine(value: unknown): CartLine | null {
  if (!isRecord(value) || !isPositiveInteger(value.quantity) || !isRecord(value.product)) return null;
  const { id, title, price, imageUrl, stock, weight = 0 } = value.product;
  const dimensions = savedDimensions(value.product.dimensions);
  const quantityPrices = savedQuantityPrices(value.product.quantityPrices);
  if (typeof id !== 'string' || id === '' || typeof title !== 'string' || typeof imageUrl !== 'string') return null;
  if (!isNumber(price) || price < 0 || !isNumber(stock) || !isNumber(weight) || !dimensions || quantityPrices === null) return null;
  // A pre-order line keeps its release date and copies left; a line without them is a book in stock.
  const { releaseDate, preorderLeft = 0 } = value.product;
  if (releaseDate !== undefined && (typeof releaseDate !== 'string' || !isNumber(preorderLeft))) return null;
  const preorder = typeof releaseDate === 'string' ? { releaseDate, preorderLeft: preorderLeft as number } : {};
  return { product: cartProductOf({ id, title, price, imageUrl, stock, weight, dimensions, quantityPrices, ...preorder }), quantity: value.quantity };
}

/** Reads a saved cart; anything unreadable is ignored (an empty cart). */
export function decodeCart(raw: string | undefined | null): CartLine[] {
  if (!raw) return [];
  try {
    const saved: unknown = JSON.parse(raw);
    if (!Array.isArray(saved) || saved.length > LIMITS.maxCartLines) return [];
    const lines = saved.map(savedLine);
    return lines.every((line) => line !== null) ? lines : [];
  } catch {
    return [];
  }
}
