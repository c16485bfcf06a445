/**
 * The contract's rules and names the back office's invoice screens need in the browser, copied from
 * `src/features/invoices/contract.ts` (a unit test keeps them equal): importing the contract itself would bring its
 * zod schemas, and with them more of zod, into a chunk the cart and the checkout share.
 */
export type { InvoiceActionInput, InvoiceDetail, InvoiceDraftInput, InvoiceRow, InvoiceStatus, InvoiceView, QuoteRow, QuoteStatus, QuoteView } from '@/features/invoices/contract';

export const INVOICE_RULES = {
  termsDays: [14, 30] as const,
  poNumberMaxLength: 60,
  organisationMaxLength: 200,
  reasonMaxLength: 200,
  noteMaxLength: 2000,
  phoneMaxLength: 40,
  maxLines: 20,
  maxLineQuantity: 5000,
  maxAmountCents: 100_000_00,
} as const;

export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'void', 'uncollectible'] as const;
export const QUOTE_STATUSES = ['new', 'invoiced', 'declined'] as const;

/** "INV-0042", as the contract writes it. */
export const invoiceNumber = (number: number) => `INV-${String(number).padStart(4, '0')}`;
