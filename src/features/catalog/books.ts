/**
 * The catalog as built: every page that shows a book reads it here, from the book files. Islands then lay
 * live price and stock from the database over these products.
 */
import { getCollection, type CollectionEntry } from 'astro:content';
import { LIMITS } from '@/config/constants';
import { coverUrl } from './book-schema';
import { coverPicture } from './cover';
import type { Product } from './product';
import type { QuantityPrice } from './quantity-prices';
import { COPIES_UNKNOWN_AT_BUILD, releaseDateAhead } from './stock-at-build';

export type Book = CollectionEntry<'books'>;

/** Featured first, then by title: the order the store lists live products in. */
export async function getBooks(): Promise<Book[]> {
  const books = await getCollection('books');
  return books.sort((a, b) => Number(b.data.featured) - Number(a.data.featured) || a.data.title.localeCompare(b.data.title));
}

/** The one featured book, shown on /book, the home page and the landing pages. */
export async function getFeaturedBook(): Promise<Book> {
  const featured = (await getBooks()).filter((book) => book.data.featured);
  if (featured.length !== 1) throw new Error(`Exactly one book must be featured (featured: true); found ${featured.length}.`);
  return featured[0]!;
}

/** The stable address of a book's original cover file (JPEG or PNG), for social previews and the database. */
export const bookCoverUrl = (book: Book) => coverUrl(book.data.id, book.data.cover.format);

/**
 * The book's quantity prices. A content cache written before the field existed holds entries without it (Astro
 * keeps parsed entries of unchanged files), so a missing list is none.
 */
export const bookQuantityPrices = (book: Book): QuantityPrice[] => (book.data.quantityPrices ?? []).map((tier) => ({ ...tier }));

/**
 * A book as the shop's Product, assumed in stock (or, while its release date is ahead, on pre-order with copies
 * left) until the page reads the live stock.
 */
export async function bookProduct(book: Book): Promise<Product> {
  const { data } = book;
  const cover = await coverPicture(data.cover);
  const releaseDate = releaseDateAhead(data.releaseDate);
  return {
    id: data.id,
    title: data.title,
    description: data.summary,
    price: data.price,
    imageUrl: cover.src,
    cover,
    category: data.category,
    stock: COPIES_UNKNOWN_AT_BUILD,
    weight: data.weightGrams,
    dimensions: { ...data.dimensionsCm },
    featured: data.featured,
    quantityPrices: bookQuantityPrices(book),
    ...(releaseDate && { releaseDate, preorderLeft: COPIES_UNKNOWN_AT_BUILD }),
  };
}

export async function getBuildCatalog(): Promise<Product[]> {
  return Promise.all((await getBooks()).map(bookProduct));
}

/** 'You May Also Like' at build: the book's own related ids, else others of its category; at most three. */
export function relatedAtBuild(catalog: readonly Product[], book: Book): Product[] {
  const { id, related, category } = book.data;
  const picked = related.length ? related.flatMap((rid) => catalog.filter((p) => p.id === rid)) : catalog.filter((p) => p.category === category);
  return picked.filter((p) => p.id !== id).slice(0, LIMITS.relatedProducts);
}
