/**
 * Buying on account: the states, limits and invoice numbers the functions, the contract's schemas and the back
 * office's screens share. Free of zod, so the screens take these without the schemas (whose zod would otherwise
 * join a chunk the cart and the checkout share).
 */

export const QUOTE_STATUSES = ['new', 'invoiced', 'declined'] as const;

/** draft → sent → paid | void | uncollectible. A draft may be changed; a sent invoice only voided, reminded or credited. */
export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'void', 'uncollectible'] as const;

/** The lists of the invoices panel. 'overdue' is computed: sent, and past its due date (Sydney days). */
export type InvoiceView = 'draft' | 'open' | 'overdue' | 'paid' | 'closed' | 'all';
export type QuoteView = 'new' | 'invoiced' | 'declined' | 'all';

export const INVOICE_RULES = {
  /** Days the school has to pay, from the day the invoice is sent. */
  termsDays: [14, 30] as const,
  poNumberMaxLength: 60,
  organisationMaxLength: 200,
  /** A changed unit price, a typed shipping price and a credit note each say why, in at most this many characters. */
  reasonMaxLength: 200,
  noteMaxLength: 2000,
  phoneMaxLength: 40,
  /** Lines of one invoice or quote (each a different book). */
  maxLines: 20,
  /** Copies of one book on an invoice: a class set or a parish's order, well past a cart's 99. */
  maxLineQuantity: 5000,
  /** The most any single price or credit can be, in cents. */
  maxAmountCents: 100_000_00,
} as const;

/** A phone number as the quote form takes it: digits (six or more), spaces, +, - and brackets; no letters. */
export const isPhoneNumber = (phone: string) => /^[+()\d\s-]{6,}$/.test(phone) && (phone.match(/\d/g)?.length ?? 0) >= 6;

/** "INV-0042": the shop's invoice number, as Stripe's invoice and the stock history show it. */
export const invoiceNumber = (number: number) => `INV-${String(number).padStart(4, '0')}`;
