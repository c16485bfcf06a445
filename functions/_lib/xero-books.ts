/**
 * What the shop posts to Xero, as documents: a paid card order's invoice, a school's invoice, a refund's credit note
 * and their payments through the Stripe clearing account. Pure: the ledger's documents (xero_document in SQL) in,
 * Xero's shapes out. The account codes and tax types are settings with Xero's Australian defaults.
 */
import { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { fromCents, toCents } from '../../src/lib/money';
import type { AccountingDocument, AccountingLine, AccountingPayment, AccountingSpend, AccountingTransfer } from './providers/accounting';

export interface XeroSettings {
  salesAccount: string;
  shippingAccount: string;
  /** The bank account in Xero that stands for the Stripe balance: sales are paid into it, refunds out of it. */
  clearingAccount: string;
  /** GST on Income, and GST Free Exports for a buyer abroad. */
  taxType: string;
  exportTaxType: string;
  /** The one contact card orders are invoiced to (schools and parishes are each their own). */
  contact: string;
  /** The bank account Stripe's payouts arrive in, and where Stripe's fees are spent: a payout empties the clearing account. */
  bankAccount: string;
  feesAccount: string;
  /** Stripe charges GST on its fees in Australia: GST on Expenses. */
  feesTaxType: string;
}

/**
 * Xero's Australian chart of accounts and tax types: 200 Sales, 090 Business Bank Account, 404 Bank Fees, OUTPUT
 * (GST on Income), EXEMPTEXPORT (GST Free Exports), INPUT (GST on Expenses).
 */
export const XERO_DEFAULTS: XeroSettings = {
  salesAccount: '200',
  shippingAccount: '200',
  clearingAccount: 'STRIPE',
  taxType: 'OUTPUT',
  exportTaxType: 'EXEMPTEXPORT',
  contact: 'Online shop customers',
  bankAccount: '090',
  feesAccount: '404',
  feesTaxType: 'INPUT',
};

export function xeroSettings(env: ServerEnv): XeroSettings {
  return {
    salesAccount: env.XERO_SALES_ACCOUNT ?? XERO_DEFAULTS.salesAccount,
    shippingAccount: env.XERO_SHIPPING_ACCOUNT ?? XERO_DEFAULTS.shippingAccount,
    clearingAccount: env.XERO_CLEARING_ACCOUNT ?? XERO_DEFAULTS.clearingAccount,
    taxType: env.XERO_TAX_TYPE ?? XERO_DEFAULTS.taxType,
    exportTaxType: env.XERO_EXPORT_TAX_TYPE ?? XERO_DEFAULTS.exportTaxType,
    contact: env.XERO_CONTACT ?? XERO_DEFAULTS.contact,
    bankAccount: env.XERO_BANK_ACCOUNT ?? XERO_DEFAULTS.bankAccount,
    feesAccount: env.XERO_FEES_ACCOUNT ?? XERO_DEFAULTS.feesAccount,
    feesTaxType: env.XERO_FEES_TAX_TYPE ?? XERO_DEFAULTS.feesTaxType,
  };
}

const money = z.coerce.number();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One ledger document as xero_claim answers it. */
export const ledgerDocumentSchema = z.object({
  key: z.string(),
  kind: z.enum(['sale', 'school', 'school_paid', 'school_void', 'credit']),
  order_id: z.string(),
  number: z.number(),
  country: z.string(),
  gst_applies: z.boolean(),
  buyer: z.string().nullable(),
  email: z.string(),
  paid_on: day.nullable(),
  total: money,
  shipping: money,
  shipping_name: z.string(),
  discount: money,
  promotion_code: z.string().nullable(),
  lines: z.array(z.object({ title: z.string(), quantity: z.number(), unit_price: money })),
  invoice: z
    .object({
      number: z.string(),
      po_number: z.string().nullable(),
      organisation: z.string(),
      email: z.string(),
      issued_on: day,
      due_on: day.nullable(),
      paid_on: day.nullable(),
      total: money,
    })
    .nullable(),
  refund: z.object({ amount: money, reason: z.string(), on: day }).nullable(),
  made: z.object({ xero_id: z.string(), xero_number: z.string().nullable(), total: money.nullable(), gst: money.nullable() }).nullable(),
  xero_invoice_id: z.string().nullable(),
  xero_invoice_number: z.string().nullable(),
});
export type LedgerDocument = z.infer<typeof ledgerDocumentSchema>;

/** One eleventh of an Australian amount, to the cent: the GST the shop's tax invoice states. */
export const gstOf = (cents: number) => Math.round(cents / 11);

/**
 * Each line's GST, so that the lines add up to the document's GST (one eleventh of its total, as the tax invoice
 * says): each line's own eleventh, the rounding left over on the largest line. None abroad.
 */
function withTax(lines: Array<Omit<AccountingLine, 'taxAmount' | 'taxType'>>, taxable: boolean, settings: XeroSettings): AccountingLine[] {
  const taxType = taxable ? settings.taxType : settings.exportTaxType;
  if (!taxable) return lines.map((l) => ({ ...l, taxType, taxAmount: 0 }));
  const cents = lines.map((l) => Math.round(l.quantity * toCents(l.unitAmount)));
  const tax = cents.map(gstOf);
  const largest = cents.indexOf(Math.max(...cents));
  tax[largest] = (tax[largest] ?? 0) + gstOf(cents.reduce((a, b) => a + b, 0)) - tax.reduce((a, b) => a + b, 0);
  return lines.map((l, i) => ({ ...l, taxType, taxAmount: fromCents(tax[i] ?? 0) }));
}

/** A card order's or a school's invoice: a line per book at the price paid, the code's discount and the shipping. */
function invoiceLines(d: LedgerDocument, settings: XeroSettings): AccountingLine[] {
  const lines = d.lines.map((l) => ({ description: l.title, quantity: l.quantity, unitAmount: l.unit_price, accountCode: settings.salesAccount }));
  if (d.discount > 0) {
    lines.push({ description: `Discount${d.promotion_code ? ` (code ${d.promotion_code})` : ''}`, quantity: 1, unitAmount: -d.discount, accountCode: settings.salesAccount });
  }
  if (d.shipping > 0) lines.push({ description: `Shipping: ${d.shipping_name}`, quantity: 1, unitAmount: d.shipping, accountCode: settings.shippingAccount });
  return withTax(lines, d.gst_applies, settings);
}

/** The contact a document is for: the school or parish, else the one contact of the card orders. */
const contactOf = (d: LedgerDocument, settings: XeroSettings) => (d.invoice ? { name: d.invoice.organisation, email: d.invoice.email } : { name: settings.contact });

/** The invoice of a paid card order (its number WEB-1001, the order number as reference) or of a sent school invoice. */
export function invoiceDocument(d: LedgerDocument, settings: XeroSettings): AccountingDocument {
  if (d.invoice) {
    return {
      key: d.key,
      number: d.invoice.number,
      reference: d.invoice.po_number ? `PO ${d.invoice.po_number} · order ${d.number}` : `Order ${d.number}`,
      contact: contactOf(d, settings),
      date: d.invoice.issued_on,
      dueDate: d.invoice.due_on ?? d.invoice.issued_on,
      lines: invoiceLines(d, settings),
    };
  }
  const paidOn = d.paid_on ?? new Date().toISOString().slice(0, 10);
  return { key: d.key, number: `WEB-${d.number}`, reference: String(d.number), contact: contactOf(d, settings), date: paidOn, dueDate: paidOn, lines: invoiceLines(d, settings) };
}

/**
 * A refund as a credit note: one line of what was given back, GST on Income at home, GST-free abroad. Its reference
 * is the number of the invoice it credits, as Xero has it: the invoice is paid in full before any refund, and Xero
 * allocates no credit to a paid invoice, so the reference is what ties the two together.
 */
export function creditNoteDocument(d: LedgerDocument, settings: XeroSettings): AccountingDocument {
  if (!d.refund) throw new Error(`${d.key} is not a refund`);
  const reason = d.refund.reason.length > 200 ? `${d.refund.reason.slice(0, 199)}…` : d.refund.reason;
  const invoiceNumber = d.xero_invoice_number ?? d.invoice?.number ?? `WEB-${d.number}`;
  return {
    key: d.key,
    number: null,
    reference: `${invoiceNumber} · order ${d.number}`,
    contact: contactOf(d, settings),
    date: d.refund.on,
    lines: withTax([{ description: `Refund of order ${d.number}: ${reason}`, quantity: 1, unitAmount: d.refund.amount, accountCode: settings.salesAccount }], d.gst_applies, settings),
  };
}

/** Money into the clearing account for an invoice (a card order's at once, a school's when Stripe says it is paid). */
export function invoicePayment(d: LedgerDocument, invoiceId: string, settings: XeroSettings): AccountingPayment {
  const date = d.invoice?.paid_on ?? d.paid_on ?? new Date().toISOString().slice(0, 10);
  return { key: d.key, target: { invoiceId }, accountCode: settings.clearingAccount, date, amount: d.invoice?.total ?? d.total, reference: `Stripe · order ${d.number}` };
}

/** A credit note's refund, out of the clearing account. */
export function refundPayment(d: LedgerDocument, creditNoteId: string, settings: XeroSettings): AccountingPayment {
  if (!d.refund) throw new Error(`${d.key} is not a refund`);
  return { key: d.key, target: { creditNoteId }, accountCode: settings.clearingAccount, date: d.refund.on, amount: d.refund.amount, reference: `Stripe refund · order ${d.number}` };
}

/** One Stripe payout as xero_claim answers it: the payout as Stripe listed it, and its transfer if an earlier try made it. */
export const payoutDocumentSchema = z.object({
  key: z.string(),
  kind: z.literal('payout'),
  payout: z.object({ id: z.string(), amount: money, arrival_on: day }),
  made: z.object({ xero_id: z.string() }).nullable(),
});
export type PayoutDocument = z.infer<typeof payoutDocumentSchema>;

/** A payout: the money leaves the clearing account for the bank on the day it arrives. */
export function payoutTransfer(d: PayoutDocument, settings: XeroSettings): AccountingTransfer {
  return { key: d.key, fromAccountCode: settings.clearingAccount, toAccountCode: settings.bankAccount, date: d.payout.arrival_on, amount: d.payout.amount, reference: `Stripe payout ${d.payout.id}` };
}

/** Stripe's fees kept out of a payout (GST included), spent from the clearing account so it returns to zero. */
export function payoutFees(d: PayoutDocument, feesCents: number, settings: XeroSettings): AccountingSpend {
  return {
    key: d.key,
    bankAccountCode: settings.clearingAccount,
    contact: 'Stripe',
    date: d.payout.arrival_on,
    reference: `Stripe fees · payout ${d.payout.id}`,
    lines: [{ description: `Stripe fees for payout ${d.payout.id}`, amount: fromCents(feesCents), accountCode: settings.feesAccount, taxType: settings.feesTaxType }],
  };
}
