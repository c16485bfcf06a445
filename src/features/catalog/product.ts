/**
 * The app's Product and the mapping from a `products` row. Rows come from the live answer in the browser and
 * from supabase-js (hosted or embedded) in the functions; nothing else in the app sees the row shape.
 */
import { isRecord } from '@/lib/is-record';
import type { QuantityPrice } from './quantity-prices';

export interface Dimensions {
  length: number;
  width: number;
  height: number;
}

/** A cover made by the build's image pipeline: modern-format sources and a fallback, with its intrinsic size. */
export interface CoverPicture {
  src: string;
  width: number;
  height: number;
  sources: Array<{ type: string; srcset: string }>;
}

export interface Product {
  id: string;
  title: string;
  description: string;
  price: number;
  imageUrl: string;
  category: string;
  stock: number;
  /** grams */
  weight: number;
  /** centimetres */
  dimensions: Dimensions;
  featured: boolean;
  /** Prices per copy from a number of copies up (none for most products); the server prices orders from its own rows. */
  quantityPrices?: QuantityPrice[];
  /** Only for books built from the catalog folder. */
  cover?: CoverPicture;
  /** 'YYYY-MM-DD' while the title is on pre-order (announced, not yet released); absent otherwise. */
  releaseDate?: string;
  /** Copies left to pre-order (the allocation less the copies pre-ordered); 0 when not on pre-order. */
  preorderLeft?: number;
}

const finite = (value: unknown) => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
};

/** Dimensions arrive as an object or a JSON string; anything unreadable counts as 0. */
export function parseDimensions(raw: unknown): Dimensions {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = {};
    }
  }
  const object = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { length: finite(object.length), width: finite(object.width), height: finite(object.height) };
}

/** For a product row without an image. */
export const PLACEHOLDER_IMAGE = '/images/logo.svg';

/** A column every row has, as text. */
function requiredText(row: Record<string, unknown>, column: 'id' | 'title'): string {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`A product row's ${column} must be text`);
  return value;
}

/** A column that may be null or absent; when present it must be of its type. */
function optional<T>(row: Record<string, unknown>, column: string, accepts: (value: unknown) => value is T): T | undefined {
  const value = row[column];
  if (value === null || value === undefined) return undefined;
  if (!accepts(value)) throw new TypeError(`A product row's ${column} has the wrong type`);
  return value;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isNumeric = (value: unknown): value is number | string => typeof value === 'number' || typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/**
 * A `products` row as the app's Product. Read by hand rather than by a schema library: the shop pages read
 * the live answer's rows at start-up, where a schema library's code costs more than the check. A row without
 * text id and title, a price that is neither number nor text, or a column of the wrong type throws.
 */
export function productFromRow(raw: unknown): Product {
  if (!isRecord(raw)) throw new TypeError('A product row must be an object');
  const price = raw.price;
  if (!isNumeric(price)) throw new TypeError("A product row's price must be a number");
  return {
    id: requiredText(raw, 'id'),
    title: requiredText(raw, 'title'),
    description: optional(raw, 'description', isText) ?? '',
    price: finite(price),
    imageUrl: optional(raw, 'image_url', isText) || PLACEHOLDER_IMAGE,
    category: optional(raw, 'category', isText) ?? '',
    stock: Math.trunc(finite(optional(raw, 'stock', isNumeric))),
    weight: finite(optional(raw, 'weight', isNumeric)),
    dimensions: parseDimensions(raw.dimensions),
    featured: optional(raw, 'featured', isBoolean) ?? false,
    ...preorderFields(raw),
  };
}

const RELEASE_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isReleaseDate = (value: unknown): value is string => typeof value === 'string' && RELEASE_DATE.test(value);

/** The live answer's pre-order columns: present only on a title on pre-order, so other products keep their shape. */
function preorderFields(row: Record<string, unknown>): Pick<Product, 'releaseDate' | 'preorderLeft'> {
  const releaseDate = optional(row, 'release_date', isReleaseDate);
  if (!releaseDate) return {};
  return { releaseDate, preorderLeft: Math.max(0, Math.trunc(finite(optional(row, 'preorder_left', isNumeric)))) };
}

/** On pre-order: announced with a release date and not yet released (the live answer drops the date at release). */
export const isPreorder = (product: Pick<Product, 'releaseDate'>) => product.releaseDate !== undefined;

/**
 * How many copies can be bought now: the copies left to pre-order for a title on pre-order, else the stock.
 * Every quantity limit, button and cart check reads this, as checkout does on the server.
 */
export const copiesAvailable = (product: Pick<Product, 'releaseDate' | 'preorderLeft' | 'stock'>) => (isPreorder(product) ? (product.preorderLeft ?? 0) : product.stock);

/** Case-insensitive substring search on title, description and category. */
export function matchesSearch(product: Product, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return [product.title, product.description, product.category].some((field) => field.toLowerCase().includes(needle));
}

/**
 * The build's products with live price, stock and pre-order state laid over them: the live list decides which
 * products are for sale; a product the build knows keeps its copy and cover, one it does not comes from its row.
 * A title released since the build loses its release date.
 */
export function withLivePriceAndStock(built: readonly Product[], live: readonly Product[]): Product[] {
  const byId = new Map(built.map((p) => [p.id, p]));
  return live.map((row) => {
    const book = byId.get(row.id);
    if (!book) return row;
    const { releaseDate: _builtDate, preorderLeft: _builtLeft, ...rest } = book;
    return { ...rest, price: row.price, stock: row.stock, ...(row.releaseDate === undefined ? {} : { releaseDate: row.releaseDate, preorderLeft: row.preorderLeft ?? 0 }) };
  });
}
