/**
 * The catalog as known at build time, for pre-rendered pages: copy from content/books, price and
 * facts from the constants module (the same figures supabase/seed.sql loads). Islands then refresh
 * live price and stock from the database.
 */
import { getCollection } from 'astro:content';
import { BOOK, LIMITS } from '@/config/constants';
import type { Product } from './product';

const SEEDED: Record<string, Pick<Product, 'price' | 'category' | 'weight' | 'dimensions' | 'featured'>> = {
  [BOOK.id]: { price: BOOK.price, category: BOOK.category, weight: BOOK.weightGrams, dimensions: { ...BOOK.dimensionsCm }, featured: true },
};

export async function getBuildCatalog(): Promise<Product[]> {
  const books = await getCollection('books');
  return books
    .filter((entry) => entry.id in SEEDED)
    .map((entry) => ({
      id: entry.id,
      title: entry.data.title,
      description: entry.data.summary,
      imageUrl: entry.data.image,
      // Assumed in stock at build; the page's island corrects it from the database on load.
      stock: 1,
      ...SEEDED[entry.id]!,
    }));
}

/** The build-time 'You May Also Like' for a product: the same rule as getRelatedProducts in catalog.ts. */
export function relatedAtBuild(catalog: readonly Product[], product: Pick<Product, 'id' | 'category'>): Product[] {
  return catalog.filter((p) => p.category === product.category && p.id !== product.id).slice(0, LIMITS.relatedProducts);
}
