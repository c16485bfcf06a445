/**
 * The quote form's model: its fields as typed, the request they make, and the check, which is the contract's own
 * schema (`quoteRequestDataSchema`, the one the server parses) through react-hook-form's zod resolver. A count of
 * copies is typed per book; the contract's errors about the books and their quantities belong to the copies.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldError, FieldErrors, Resolver } from 'react-hook-form';
import { z } from '@/lib/zod';
import type { QuantityPrice } from '@/features/catalog/quantity-prices';
import { QUOTE_NO_COPIES, type QuoteRequestData, quoteRequestDataSchema } from './contract';

export interface QuoteBook {
  id: string;
  title: string;
  /** AUD per copy, before any quantity price. */
  price: number;
  quantityPrices: readonly QuantityPrice[];
}

/** Who a school's quote or invoice is for and where its books go, as typed (the quote form's and the editor's). */
export interface SchoolFields {
  organisation: string;
  contactName: string;
  email: string;
  phone: string;
  address: { line1: string; line2: string; city: string; state: string; postcode: string };
}

/** The form's fields, as the browser holds them; `copies` by book id. */
export interface QuoteFields extends SchoolFields {
  copies: Record<string, string>;
  neededBy: string;
  poNumber: string;
  note: string;
}

/** Copies as typed: a whole number, else NaN (which the contract refuses in its words). */
export const countOf = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** A whole number of copies from a field: blank is none; anything else that is not a count is NaN. */
export const copiesOf = (text: string | undefined) => (text?.trim() ? countOf(text) : 0);

/** What the schools' forms send of a field: trimmed, and an empty optional one not at all. */
export const text = (value: string | undefined) => (value ?? '').trim();
export const optional = (value: string | undefined) => text(value) || undefined;

/** A delivery address as typed, as the contract takes it: in Australia. */
export const auAddress = (address: Partial<SchoolFields['address']> | undefined) => ({
  line1: text(address?.line1),
  line2: optional(address?.line2),
  city: text(address?.city),
  state: text(address?.state),
  postcode: text(address?.postcode),
  country: 'AU' as const,
});

/** The request as the server takes it: no empty optional field, and every book with copies (a count that is not one is kept, for its error). */
export function readQuote(fields: Partial<QuoteFields>, books: readonly QuoteBook[]): QuoteRequestData {
  return {
    organisation: text(fields.organisation),
    contactName: text(fields.contactName),
    email: text(fields.email),
    phone: text(fields.phone),
    address: auAddress(fields.address),
    lines: books.map((book) => ({ productId: book.id, quantity: copiesOf(fields.copies?.[book.id]) })).filter((line) => line.quantity !== 0),
    neededBy: optional(fields.neededBy),
    poNumber: optional(fields.poNumber),
    note: optional(fields.note),
  };
}

/** The first message in a branch of errors (an array's own, or its first item's). */
function firstMessage(errors: unknown): string | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const { message } = errors as Partial<FieldError>;
  if (typeof message === 'string' && message) return message;
  for (const value of Object.values(errors)) {
    const found = firstMessage(value);
    if (found) return found;
  }
  return undefined;
}

/**
 * The contract's schema over the form's fields. A count that is not one is its own book's error; the list's error (no
 * copies at all) is the books' one, on the first book's copies.
 */
export function quoteResolver(books: readonly QuoteBook[]): Resolver<QuoteFields, unknown, QuoteRequestData> {
  const resolve = zodResolver(z.preprocess((fields: QuoteFields) => readQuote(fields, books), quoteRequestDataSchema));
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    const { lines, ...errors } = result.errors as FieldErrors<QuoteFields> & { lines?: Record<string, unknown> };
    const first = books[0];
    if (!lines || !first) return result as Awaited<ReturnType<Resolver<QuoteFields, unknown, QuoteRequestData>>>;
    const asked = readQuote(values, books).lines;
    const own = asked.flatMap((line, index) => {
      const message = firstMessage(lines[index]);
      return message ? [[line.productId, { type: 'quantity', message }]] : [];
    });
    const message = firstMessage(lines);
    // A page of one book asks simply how many copies.
    const all = { type: 'copies', message: books.length === 1 && message === QUOTE_NO_COPIES ? 'Please enter how many copies you need.' : message };
    const copies = own.length > 0 ? Object.fromEntries(own) : { [first.id]: all };
    return { values: {}, errors: { ...errors, copies } as FieldErrors<QuoteFields> };
  };
}
