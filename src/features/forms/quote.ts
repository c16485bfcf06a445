/**
 * The bounds the quote form holds its fields to: the contract's (`INVOICE_RULES`), copied here so the form's island
 * does not carry the contract's schemas; a unit test keeps the two equal.
 */
export type { QuoteRequestData } from '@/features/invoices/contract';

export const QUOTE_LIMITS = {
  organisationMaxLength: 200,
  phoneMaxLength: 40,
  addressLineMaxLength: 200,
  poNumberMaxLength: 60,
  noteMaxLength: 2000,
  /** The most copies of one book a quote asks for. */
  maxCopies: 5000,
} as const;
