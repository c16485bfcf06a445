/**
 * Buying on account in the back office: quote requests and invoices read with the staff member's own token
 * (`admin_list_quotes`, `admin_list_invoices`, `admin_get_invoice`) and changed through /api/admin-invoice, one action
 * a call. The shapes are the contract's (`src/features/invoices/contract.ts`), which the functions share.
 */
import type { z } from 'zod';
import { type InvoiceActionInput, invoiceActionAnswerSchema, invoiceDetailSchema, invoiceRowSchema, type InvoiceView, pageSchema, quoteRowSchema, type QuoteView } from '@/features/invoices/contract';
import { getSupabase } from '@/lib/supabase/client';
import { BackOfficeError, type Page, postAsStaff } from './api';

export type { InvoiceDetail, InvoiceRow, QuoteRow } from '@/features/invoices/contract';

async function rpc<S extends z.ZodType>(schema: S, fn: string, args: Record<string, unknown>, what: string): Promise<z.infer<S>> {
  const { data, error } = await (await getSupabase()).rpc(fn, args);
  if (error) {
    if (error.code === '42501') throw new BackOfficeError("You don't have access to the back office.");
    throw new BackOfficeError(`Could not ${what}: ${error.message ?? 'unknown error'}`);
  }
  return schema.parse(data);
}

const quotePage = pageSchema(quoteRowSchema);
const invoicePage = pageSchema(invoiceRowSchema);

export const QUOTE_VIEW_LABELS: { id: QuoteView; label: string }[] = [
  { id: 'new', label: 'New' },
  { id: 'invoiced', label: 'Invoiced' },
  { id: 'declined', label: 'Declined' },
  { id: 'all', label: 'All' },
];

export const INVOICE_VIEW_LABELS: { id: InvoiceView; label: string }[] = [
  { id: 'open', label: 'Open' },
  { id: 'overdue', label: 'Overdue' },
  { id: 'draft', label: 'Drafts' },
  { id: 'paid', label: 'Paid' },
  { id: 'closed', label: 'Void' },
  { id: 'all', label: 'All' },
];

/** One page of a view's quote requests, newest first. */
export const listQuotes = (view: QuoteView, cursor: string | null = null, limit = 50): Promise<Page<z.infer<typeof quoteRowSchema>>> =>
  rpc(quotePage, 'admin_list_quotes', { p_view: view, p_cursor: cursor, p_limit: limit }, 'load the quote requests');

/** How many quote requests wait for an answer, up to `cap` (the tab says "99+" past it). */
export async function countNewQuotes(cap = 99): Promise<number> {
  const page = await listQuotes('new', null, cap + 1);
  return page.rows.length;
}

/** One quote request, found among every page of All (the list holds everything the detail shows). */
export async function getQuote(quoteId: string): Promise<z.infer<typeof quoteRowSchema> | null> {
  let cursor: string | null = null;
  do {
    const page: Page<z.infer<typeof quoteRowSchema>> = await listQuotes('all', cursor, 200);
    const found = page.rows.find((q) => q.id === quoteId);
    if (found) return found;
    cursor = page.next;
  } while (cursor);
  return null;
}

/** One page of a view's invoices, newest first; `search` matches organisation, PO number, email or number. */
export const listInvoices = (view: InvoiceView, search: string, cursor: string | null = null, limit = 50): Promise<Page<z.infer<typeof invoiceRowSchema>>> =>
  rpc(invoicePage, 'admin_list_invoices', { p_view: view, p_search: search, p_cursor: cursor, p_limit: limit }, 'load the invoices');

export const getInvoice = (invoiceId: string) => rpc(invoiceDetailSchema.nullable(), 'admin_get_invoice', { p_invoice_id: invoiceId }, 'load the invoice');

/** Runs an invoice action on the server: its sentence, and the invoice it made or changed. */
export async function runInvoiceAction(request: InvoiceActionInput): Promise<{ message: string; invoiceId?: string | undefined }> {
  const answer = invoiceActionAnswerSchema.safeParse(await postAsStaff('/api/admin-invoice', request));
  return answer.success ? answer.data : { message: 'Done.' };
}

export interface InvoiceBook {
  id: string;
  title: string;
  /** AUD per copy before any quantity price. */
  price: number;
  quantityPrices: { minQuantity: number; price: number }[];
}

/** The books for sale with their prices and quantity prices, as the cart prices them (what a new line costs). */
export async function listInvoiceBooks(): Promise<InvoiceBook[]> {
  const supabase = await getSupabase();
  const [products, tiers] = await Promise.all([
    supabase.from('products').select('id, title, price').eq('for_sale', true).order('title'),
    supabase.from('product_quantity_prices').select('product_id, min_quantity, price'),
  ]);
  if (products.error) throw new BackOfficeError(`Could not load the books: ${products.error.message}`);
  if (tiers.error) throw new BackOfficeError(`Could not load the quantity prices: ${tiers.error.message}`);
  const tierRows = (tiers.data ?? []) as { product_id: string; min_quantity: number; price: number | string }[];
  return ((products.data ?? []) as { id: string; title: string; price: number | string }[]).map((p) => ({
    id: p.id,
    title: p.title,
    price: Number(p.price),
    quantityPrices: tierRows.filter((t) => t.product_id === p.id).map((t) => ({ minQuantity: Number(t.min_quantity), price: Number(t.price) })),
  }));
}
