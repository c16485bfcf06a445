/**
 * What a book file in the catalog folder states: every fact about one book, in its frontmatter (the
 * description is the file's body). The content collection and the catalog sync both validate with this
 * schema, so the pages and the database rows cannot disagree about a book.
 */
import { z } from 'astro/zod';
import { BACK_OFFICE, LIMITS } from '../../config/constants';
import { quantityPricesProblem } from './quantity-prices';
import { customsRequired, HS_CODE, ISO_COUNTRIES, MISSING_CUSTOMS, missingCustomsFields } from '../customs/customs-data';

/** Also the database's rule for product ids (the slug in /store/product/{id} and the SKU). */
const BOOK_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;

const money = z.number().positive().max(99_999_999);
const text = z.string().trim().min(1);
const ageBand = z.object({ min: z.number().int().min(0).max(18), max: z.number().int().min(0).max(18) }).refine((band) => band.min <= band.max, 'ages: min must not be above max');
/**
 * An ISBN-13 whose last digit is its check digit: the digits weighted 1, 3, 1, 3, … add up to a multiple of
 * ten. Hyphens and spaces are allowed in the file and dropped.
 */
export function isIsbn13(value: string): boolean {
  if (!/^97[89]\d{10}$/.test(value)) return false;
  const sum = [...value].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0;
}

const isbn = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().refine(isIsbn13, 'an ISBN-13 with a correct check digit (13 digits starting 978 or 979, as printed above the barcode)'));

/** `cover` is the image helper of the content collection, or a plain path where the sync reads the file. */
export function bookFrontmatter<Cover extends z.ZodType>(cover: Cover) {
  return z
    .object({
      /** The slug of its page and its SKU. */
      id: z.string().regex(BOOK_ID, 'lowercase letters, digits and hyphens'),
      title: text.max(200),
      tagline: text,
      /** One or two sentences for cards, search results and meta descriptions. */
      summary: text.max(500),
      author: text,
      publisher: text,
      /** What checkout charges, in AUD. */
      price: money,
      /**
       * Copies for a class or a parish: from `minQuantity` copies up, each copy costs `price` (AUD). Each tier
       * must cost less per copy than the one before and than the book itself.
       */
      quantityPrices: z
        .array(z.object({ minQuantity: z.number().int().min(2).max(99), price: money }))
        .default([])
        .transform((tiers) => [...tiers].sort((a, b) => a.minQuantity - b.minQuantity)),
      /** Its net weight, on the scale: postage abroad and the customs declaration use it. */
      weightGrams: z.number().positive(),
      /**
       * What customs read on the declaration (e.g. "Printed children's picture book"), its tariff code (4903.00
       * for picture books) and the two-letter country it was printed in (e.g. CN, AU). A book for sale must have
       * all three; one not yet released may wait.
       */
      customsDescription: text.max(200).optional(),
      hsCode: z.string().trim().regex(HS_CODE, 'a tariff code like 4903.00: four digits, a dot, two digits').optional(),
      originCountry: z
        .string()
        .trim()
        .toUpperCase()
        .refine((code) => ISO_COUNTRIES.has(code), 'a two-letter country code (ISO 3166), e.g. AU, CN, US')
        .optional(),
      dimensionsCm: z.object({ length: z.number().positive(), width: z.number().positive(), height: z.number().positive() }),
      pages: z.number().int().positive(),
      format: text,
      language: text.default('English'),
      /** The age range the book page states. */
      ages: ageBand,
      /** The audience band in structured data, where it is wider than `ages`. */
      audienceAges: ageBand.optional(),
      /** The ISBN-13 printed above the barcode; Google Shopping matches the book by it (its GTIN). */
      isbn: isbn.optional(),
      /** A book not yet published: the day it comes out. Until then, with stock, it is sold as a pre-order. */
      releaseDate: z.coerce.date().optional(),
      category: text.max(100),
      /** Fewer copies than this after a sale: the publisher is emailed (once, until the stock is back at it). */
      lowStockLevel: z.number().int().min(0).max(LIMITS.stockMax).default(BACK_OFFICE.lowStockBelow),
      /** The featured book is the one /book and the home page show; exactly one book is featured. */
      featured: z.boolean().default(false),
      cover,
      coverAlt: text,
      insideTheBook: z.array(text).min(3),
      /** Ids of other books for 'You May Also Like'; without them, books of the same category. */
      related: z.array(z.string().regex(BOOK_ID)).default([]),
      reviews: z.array(z.object({ author: text, body: text, rating: z.number().int().min(1).max(5) })).default([]),
      /**
       * Copy in this file that stands in for the publisher's own (the sample site's reviews, author): listed by
       * every build and refused by a production build until replaced, or confirmed by removing this line.
       */
      sample: z.boolean().optional(),
    })
    .superRefine((book, context) => {
      const problem = quantityPricesProblem(book.price, book.quantityPrices);
      if (problem) context.addIssue({ code: 'custom', path: ['quantityPrices'], message: problem });
      if (customsRequired(book)) {
        for (const field of missingCustomsFields(book)) context.addIssue({ code: 'custom', path: [field], message: MISSING_CUSTOMS });
      }
    });
}

/** A cover's stable address: the original file, for the database, emails, payment pages and social previews. */
export const coverUrl = (id: string, format: string) => `/covers/${id}.${format === 'jpeg' ? 'jpg' : format}`;

/** A cover is a JPEG or PNG file; the image pipeline makes the AVIF and WebP versions. */
export const COVER_FILE = /\.(png|jpe?g)$/i;
