/**
 * The app's Product and the mapping from a `products` row. Rows come from supabase-js (hosted or embedded);
 * nothing else in the app sees the row shape.
 */
import * as z from 'zod/mini';
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
}

export const PRODUCT_COLUMNS = 'id, title, description, price, image_url, category, stock, weight, dimensions, featured';

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

const numeric = z.union([z.number(), z.string()]);
const productRow = z.object({
  id: z.string(),
  title: z.string(),
  description: z.nullish(z.string()),
  price: numeric,
  image_url: z.nullish(z.string()),
  category: z.nullish(z.string()),
  stock: z.nullish(numeric),
  weight: z.nullish(numeric),
  dimensions: z.unknown(),
  featured: z.nullish(z.boolean()),
});

export type ProductRow = z.input<typeof productRow>;

/** For a product row without an image. */
export const PLACEHOLDER_IMAGE = '/images/logo.svg';

export function productFromRow(raw: unknown): Product {
  const row = productRow.parse(raw);
  return {
    id: row.id,
    title: row.title,
    description: row.description ?? '',
    price: finite(row.price),
    imageUrl: row.image_url || PLACEHOLDER_IMAGE,
    category: row.category ?? '',
    stock: Math.trunc(finite(row.stock)),
    weight: finite(row.weight),
    dimensions: parseDimensions(row.dimensions),
    featured: row.featured ?? false,
  };
}

export const isInStock = (product: Pick<Product, 'stock'>) => product.stock > 0;

/** Case-insensitive substring search on title, description and category. */
export function matchesSearch(product: Product, term: string): boolean {
  const needle = term.trim().toLowerCase();
  if (!needle) return true;
  return [product.title, product.description, product.category].some((field) => field.toLowerCase().includes(needle));
}

/**
 * The build's products with live price and stock laid over them: the live list decides which products are
 * for sale; a product the build knows keeps its copy and cover, one it does not comes from its row.
 */
export function withLivePriceAndStock(built: readonly Product[], live: readonly Product[]): Product[] {
  const byId = new Map(built.map((p) => [p.id, p]));
  return live.map((row) => {
    const book = byId.get(row.id);
    return book ? { ...book, price: row.price, stock: row.stock } : row;
  });
}
