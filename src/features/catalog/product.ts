/**
 * The app's Product and the mapping from a `products` row. Rows come from supabase-js (hosted or embedded);
 * nothing else in the app sees the row shape.
 */
import * as z from 'zod/mini';

export interface Dimensions {
  length: number;
  width: number;
  height: number;
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

export const PLACEHOLDER_IMAGE = '/images/book-10-reasons.svg';

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
