/**
 * Buying on account in the back office: quote requests and invoices read with the staff member's own token
 * (`admin_list_quotes`, `admin_list_invoices`, `admin_get_invoice`) and changed through /api/admin-invoice, one action
 * a call. The shapes are the contract's (`src/features/on-account/contract.ts`), which the functions share.
 */
import { getSupabase } from '@/lib/supabase/client';
import { BackOfficeError, type Page, postAsStaff, postForMessage, rpc } from '@/features/admin/api';
import { type InvoiceActionInput, invoiceActionAnswerSchema, invoiceDetailSchema, invoiceRowSchema, pageSchema, quoteRowSchema, type QuoteRow, type InvoiceRow } from './contract';
import type { InvoiceView, QuoteView } from './rules';

export type { InvoiceDetail, InvoiceRow, QuoteRow } from './contract';

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
export const listQuotes = (view: QuoteView, cursor: string | null = null, limit = 50): Promise<Page<QuoteRow>> =>
  rpc(quotePage, 'admin_list_quotes', { p_view: view, p_cursor: cursor, p_limit: limit }, 'load the quote requests');

/** How many quote requests wait for an answer, up to `cap` (the tab says "99+" past it). */
export const countNewQuotes = async (cap = 99): Promise<number> => (await listQuotes('new', null, cap + 1)).rows.length;

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

export const getInvoice = (invoiceId: string) => rpc(invoiceDetailSchema.nullable(), 'admin_get_invoice', { p_invoice_id: invoiceId }, 'load the invoice');

/** Runs an invoice action on the server: its sentence, and the invoice it made or changed. */
export const runInvoiceAction = async (request: InvoiceActionInput) => invoiceActionAnswerSchema.catch({ message: 'Done.' }).parse(await postAsStaff('/api/admin-invoice', request));

/** Runs an invoice action on the server and answers its sentence: a back-office action's toast. */
export const invoiceActionMessage = (request: InvoiceActionInput) => postForMessage('/api/admin-invoice', request);

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
