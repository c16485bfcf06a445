/**
 * Buying on account in the back office: quote requests and invoices read with the staff member's own token
 * (`admin_list_quotes`, `admin_list_invoices`, `admin_get_invoice`) and changed through /api/admin-invoice, one action
 * a call. The shapes are the contract's (`src/features/on-account/contract.ts`), which the functions share.
 */
import * as z from 'zod/mini';
import { getSupabase } from '@/lib/supabase/client';
import { BackOfficeError, maybeText, money, type Page, postAsStaff, rpc, text } from '@/features/admin/api';
import type { InvoiceActionInput, InvoiceDetail, InvoiceRow, QuoteRow } from './contract';
import { INVOICE_STATUSES, type InvoiceView, QUOTE_STATUSES, type QuoteView } from './rules';

export type { InvoiceDetail, InvoiceRow, QuoteRow } from './contract';

// The database's answers as the contract describes them (quoteRowSchema, invoiceRowSchema, invoiceDetailSchema),
// checked with zod/mini (and its field types) as the rest of the back office's reads are.
const address = z.looseObject({ line1: z.optional(text), line2: z.optional(maybeText), city: z.optional(text), state: z.optional(text), postcode: z.optional(text), country: z.optional(text) });

const quoteRow = z.object({
  id: text,
  created_at: text,
  status: z.enum(QUOTE_STATUSES),
  organisation: text,
  contact_name: text,
  email: text,
  phone: text,
  address,
  lines: z.array(z.object({ product_id: text, title: text, quantity: z.number() })),
  needed_by: maybeText,
  po_number: maybeText,
  note: maybeText,
  invoice_id: maybeText,
});
const invoiceRowShape = {
  id: text,
  number: z.number(),
  created_at: text,
  status: z.enum(INVOICE_STATUSES),
  overdue: z.boolean(),
  organisation: text,
  contact_name: text,
  email: text,
  po_number: maybeText,
  total: money,
  gst: money,
  credited: money,
  terms_days: z.number(),
  sent_at: maybeText,
  due_on: maybeText,
  paid_at: maybeText,
  ship_before_payment: z.boolean(),
  order_id: maybeText,
  order_status: maybeText,
  quote_id: maybeText,
};
const invoiceRow = z.object(invoiceRowShape);
const invoiceDetail = z.object({
  ...invoiceRowShape,
  phone: maybeText,
  address,
  lines: z.array(z.object({ product_id: text, title: text, quantity: z.number(), list_unit_price: money, unit_price: money, price_reason: maybeText, amount: money })),
  subtotal: money,
  shipping_name: text,
  shipping_amount: money,
  shipping_kind: text,
  shipping_reason: maybeText,
  gst_applies: z.boolean(),
  note: maybeText,
  hosted_url: maybeText,
  provider_invoice_id: maybeText,
  reminded_at: maybeText,
  voided_at: maybeText,
  created_by: text,
  credit_notes: z.array(z.object({ id: text, amount: money, reason: text, status: z.enum(['pending', 'succeeded', 'failed']), provider_credit_note_id: maybeText, created_at: text, actor: text })),
});
const pageOf = <T>(row: z.ZodMiniType<T>) => z.object({ rows: z.array(row), next: z.nullable(z.string()) });
const quotePage = pageOf(quoteRow) as z.ZodMiniType<Page<QuoteRow>>;
const invoicePage = pageOf(invoiceRow) as z.ZodMiniType<Page<InvoiceRow>>;

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
export const listQuotes = (view: QuoteView, cursor: string | null = null, limit = 50): Promise<Page<QuoteRow>> =>
  rpc(quotePage, 'admin_list_quotes', { p_view: view, p_cursor: cursor, p_limit: limit }, 'load the quote requests');

/** How many quote requests wait for an answer, up to `cap` (the tab says "99+" past it). */
export async function countNewQuotes(cap = 99): Promise<number> {
  const page = await listQuotes('new', null, cap + 1);
  return page.rows.length;
}

/** One quote request, found among every page of All (the list holds everything the detail shows). */
export async function getQuote(quoteId: string): Promise<QuoteRow | null> {
  let cursor: string | null = null;
  do {
    const page: Page<QuoteRow> = await listQuotes('all', cursor, 200);
    const found = page.rows.find((q) => q.id === quoteId);
    if (found) return found;
    cursor = page.next;
  } while (cursor);
  return null;
}

/** One page of a view's invoices, newest first; `search` matches organisation, PO number, email or number. */
export const listInvoices = (view: InvoiceView, search: string, cursor: string | null = null, limit = 50): Promise<Page<InvoiceRow>> =>
  rpc(invoicePage, 'admin_list_invoices', { p_view: view, p_search: search, p_cursor: cursor, p_limit: limit }, 'load the invoices');

export const getInvoice = (invoiceId: string) => rpc(z.nullable(invoiceDetail) as z.ZodMiniType<InvoiceDetail | null>, 'admin_get_invoice', { p_invoice_id: invoiceId }, 'load the invoice');

/** Runs an invoice action on the server: its sentence, and the invoice it made or changed. */
export async function runInvoiceAction(request: InvoiceActionInput): Promise<{ message: string; invoiceId?: string | undefined }> {
  const answer = z.safeParse(z.object({ message: text, invoiceId: z.optional(text) }), await postAsStaff('/api/admin-invoice', request));
  return answer.success ? answer.data : { message: 'Done.' };
}

/** Runs an invoice action on the server and answers its sentence: a back-office action's toast. */
export const invoiceActionMessage = async (request: InvoiceActionInput): Promise<string> => (await runInvoiceAction(request)).message;

export interface InvoiceBook {
  id: string;
  title: string;
}

/** The books for sale, by title: what a line can be (the server prices each as the cart would). */
export async function listInvoiceBooks(): Promise<InvoiceBook[]> {
  const supabase = await getSupabase();
  const products = await supabase.from('products').select('id, title').eq('for_sale', true).order('title');
  if (products.error) throw new BackOfficeError(`Could not load the books: ${products.error.message}`);
  return ((products.data ?? []) as { id: string; title: string }[]).map((p) => ({ id: p.id, title: p.title }));
}
