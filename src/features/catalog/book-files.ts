/**
 * The catalog folder's book files, read and checked with the schema the site's build uses: what the build's
 * tools (social cards, sitemap dates) and the catalog sync (local/catalog.ts) share. Node only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'astro/zod';
import { parse as parseYaml } from 'yaml';
import { bookFrontmatter, COVER_FILE, coverUrl } from './book-schema';
import { catalogDir } from './catalog-dir';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The catalog folder the build reads too: content/books, or CATALOG_DIR. */
export const catalogFolder = (env: NodeJS.ProcessEnv = process.env) => resolve(projectRoot, catalogDir(env));

/** A book's row in `products`, without stock. */
export interface CatalogRow {
  id: string;
  title: string;
  description: string;
  price: number;
  image_url: string;
  category: string;
  weight: number;
  dimensions: { length: number; width: number; height: number };
  featured: boolean;
  /** Written by sync_low_stock_levels (sync_catalog leaves it alone). */
  low_stock_level: number;
  /** Price per copy from a number of copies up; the sync replaces the book's rows in product_quantity_prices. */
  quantity_prices: Array<{ min_quantity: number; price: number }>;
  /** What a parcel abroad declares per copy; written by sync_customs (null on a book not yet released). */
  customs_description: string | null;
  hs_code: string | null;
  origin_country: string | null;
  /** 'YYYY-MM-DD', the day a book not yet out is released; sync_catalog writes it while it is ahead. */
  release_date: string | null;
}

class CatalogFileError extends Error {}

const bookFile = bookFrontmatter(z.string().regex(COVER_FILE, 'a .png, .jpg or .jpeg file beside the book file'));
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

export type BookFile = z.infer<typeof bookFile>;

function readBook(dir: string, file: string): BookFile {
  const match = FRONTMATTER.exec(readFileSync(join(dir, file), 'utf8'));
  if (!match) throw new CatalogFileError(`${file}: no frontmatter (the book's facts between --- lines)`);
  const parsed = bookFile.safeParse(parseYaml(match[1] ?? ''));
  if (!parsed.success) throw new CatalogFileError(`${file}:\n${z.prettifyError(parsed.error)}`);
  const book = parsed.data;
  if (!existsSync(resolve(dir, book.cover))) throw new CatalogFileError(`${file}: cover ${book.cover} is not in ${dir}`);
  return book;
}

function catalogRow(book: BookFile): CatalogRow {
  const format = book.cover.split('.').pop()!.toLowerCase();
  return {
    id: book.id,
    title: book.title,
    description: book.summary,
    price: book.price,
    image_url: coverUrl(book.id, format),
    category: book.category,
    weight: book.weightGrams,
    dimensions: book.dimensionsCm,
    featured: book.featured,
    low_stock_level: book.lowStockLevel,
    quantity_prices: book.quantityPrices.map((tier) => ({ min_quantity: tier.minQuantity, price: tier.price })),
    customs_description: book.customsDescription ?? null,
    hs_code: book.hsCode ?? null,
    origin_country: book.originCountry ?? null,
    // The file's date is a calendar day: z.coerce.date reads '2027-06-01' as that day's midnight UTC.
    release_date: book.releaseDate ? book.releaseDate.toISOString().slice(0, 10) : null,
  };
}

/** Every book in the folder, checked; a bad file stops the sync with its name and what is wrong. */
export function readBooks(dir: string = catalogFolder()): BookFile[] {
  if (!existsSync(dir)) throw new CatalogFileError(`The catalog folder ${dir} does not exist`);
  const books = readdirSync(dir)
    .filter((file) => file.endsWith('.mdx'))
    .sort()
    .map((file) => readBook(dir, file));
  if (books.length === 0) throw new CatalogFileError(`No book files (*.mdx) in ${dir}`);
  const ids = books.map((book) => book.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length) throw new CatalogFileError(`Two book files share the id ${repeated.join(', ')}`);
  return books;
}

/** The database rows of every book in the folder. */
export const readCatalog = (dir?: string): CatalogRow[] => readBooks(dir).map(catalogRow);
