/** The bounds the quote form holds its fields to: the invoices' own rules, which the contract's schemas check too. */
import { LIMITS } from '@/config/constants';
import { INVOICE_RULES } from './rules';

export type { QuoteRequestData } from './contract';

export const QUOTE_LIMITS = {
  organisationMaxLength: INVOICE_RULES.organisationMaxLength,
  phoneMaxLength: INVOICE_RULES.phoneMaxLength,
  addressLineMaxLength: LIMITS.addressFieldMaxLength,
  poNumberMaxLength: INVOICE_RULES.poNumberMaxLength,
  noteMaxLength: INVOICE_RULES.noteMaxLength,
  /** The most copies of one book a quote asks for. */
  maxCopies: INVOICE_RULES.maxLineQuantity,
} as const;
