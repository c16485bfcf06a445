/**
 * An order's tax invoice and the adjustment notes of its refunds: what both sides agree on. The functions build it
 * from the order (the GST from the database's one rule, the sales' own: one eleventh of what an Australian delivery
 * pays, nothing on an export); the confirmation email writes it as text, the status page and its print view draw it.
 */
import * as z from '@/lib/zod-mini';
import { formatAbn } from '@/lib/abn';
import { formatLongDate, formatPrice } from '@/lib/format';

const money = z.number();
const sellerSchema = z.object({ legalName: z.string(), abn: z.string() });
export type Seller = z.infer<typeof sellerSchema>;

export const taxInvoiceSchema = z.object({
  /** "Tax invoice" for a GST-registered seller; "Invoice" otherwise (no GST to state). */
  title: z.enum(['Tax invoice', 'Invoice']),
  seller: sellerSchema,
  orderNumber: z.string(),
  /** When it was paid: the invoice's date. */
  date: z.string(),
  /** The buyer's name when known (a gift's recipient is never the buyer). */
  buyer: z.nullable(z.string()),
  lines: z.array(z.object({ title: z.string(), quantity: z.number(), unitPrice: money, amount: money })),
  discount: z.nullable(z.object({ code: z.string(), amount: money })),
  shipping: z.object({ name: z.string(), amount: money }),
  total: money,
  currency: z.string(),
  /** Australian delivery: the total includes GST; an export is GST-free. */
  gstApplies: z.boolean(),
  gst: money,
  /** One adjustment note per refund that went through: the amount refunded and the GST in it. */
  adjustments: z.array(z.object({ date: z.nullable(z.string()), amount: money, gst: money, reason: z.string(), refundId: z.nullable(z.string()) })),
});
export type TaxInvoice = z.infer<typeof taxInvoiceSchema>;
export type TaxAdjustment = TaxInvoice['adjustments'][number];

/** Where the print-ready invoice opens; the status token rides in the fragment, as on the status page. */
const TAX_INVOICE_PATH = '/order-status/invoice';
export const taxInvoicePath = (token: string) => `${TAX_INVOICE_PATH}#${token}`;

/** "10 Reasons Why… × 30": the title first, so the count cannot be read into it. */
export const quantityLine = (title: string, quantity: number) => `${title} × ${quantity}`;

const sellerLine = (seller: Seller) => `${seller.legalName} · ABN ${formatAbn(seller.abn)}`;

const NO_GST = 'GST: none (an export, GST-free)';

/** The GST line: what the total includes, or why there is none. */
export function gstLine(invoice: Pick<TaxInvoice, 'gstApplies' | 'gst' | 'title'>): string | null {
  if (invoice.title !== 'Tax invoice') return null;
  return invoice.gstApplies ? `GST included: ${formatPrice(invoice.gst)}` : NO_GST;
}

/** An adjustment note's GST line: the GST in the refund, or why there is none. */
export function adjustmentGstLine(invoice: Pick<TaxInvoice, 'gstApplies' | 'title'>, adjustment: Pick<TaxAdjustment, 'gst'>): string | null {
  if (invoice.title !== 'Tax invoice') return null;
  return invoice.gstApplies ? `GST in the refund: ${formatPrice(adjustment.gst)}` : NO_GST;
}

/** The invoice as lines of plain text, for the confirmation email. */
export function taxInvoiceText(invoice: TaxInvoice): string[] {
  const gst = gstLine(invoice);
  return [
    invoice.title.toUpperCase(),
    sellerLine(invoice.seller),
    `Invoice for order ${invoice.orderNumber}, dated ${formatLongDate(invoice.date)}`,
    ...(invoice.buyer ? [`Bought by ${invoice.buyer}`] : []),
    '',
    ...invoice.lines.map((line) => `${quantityLine(line.title, line.quantity)} at ${formatPrice(line.unitPrice)} each: ${formatPrice(line.amount)}`),
    ...(invoice.discount ? [`Code ${invoice.discount.code}: −${formatPrice(invoice.discount.amount)}`] : []),
    `Shipping (${invoice.shipping.name}): ${formatPrice(invoice.shipping.amount)}`,
    `Total: ${formatPrice(invoice.total)} ${invoice.currency}${invoice.gstApplies && gst ? ' (GST included)' : ''}`,
    ...(gst ? [gst] : []),
  ];
}

/** An adjustment note as lines of plain text, for the refund emails. */
export function adjustmentNoteText(invoice: TaxInvoice, adjustment: TaxAdjustment): string[] {
  const gst = adjustmentGstLine(invoice, adjustment);
  return [
    'ADJUSTMENT NOTE',
    sellerLine(invoice.seller),
    `For ${invoice.title.toLowerCase()} of order ${invoice.orderNumber}${adjustment.date ? `, dated ${formatLongDate(adjustment.date)}` : ''}`,
    `Refunded: ${formatPrice(adjustment.amount)} ${invoice.currency} (${adjustment.reason})`,
    ...(gst ? [gst] : []),
  ];
}
