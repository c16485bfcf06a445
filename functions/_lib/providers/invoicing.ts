/**
 * Invoicing: the shape the shop needs from a provider that emails an invoice with a page to pay it (bank transfer
 * or card) within its terms. The real adapter is Stripe Invoicing (stripe-invoicing.ts); locally, the TEST invoice
 * page (local-invoicing.ts).
 */

export interface ProviderInvoiceInput {
  /** The shop's invoice id and number, and its order's id: carried in the provider's metadata. */
  shopInvoiceId: string;
  number: string;
  orderId: string;
  customer: {
    email: string;
    /** The school or parish: the name on the invoice. */
    organisation: string;
    contactName: string;
    phone: string | null;
    address: { line1: string; line2?: string | null; city: string; state: string; postcode: string; country: string };
  };
  /** Each book's line, priced by the shop (GST included, as every price of the shop is). */
  lines: Array<{ description: string; amountCents: number }>;
  shipping: { name: string; amountCents: number };
  /** What the invoice must total: the provider's total is checked against it. */
  totalCents: number;
  daysUntilDue: number;
  /** The Sydney day it is issued (yyyy-mm-dd): the tax invoice's date. */
  issuedOn: string;
  poNumber: string | null;
  /** The seller's legal name, ABN and the GST included, printed at the foot of the invoice. */
  footer: string;
}

export type ProviderInvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface ProviderInvoice {
  id: string;
  status: ProviderInvoiceStatus;
  /** What the invoice totals, in cents, and in which currency (ISO code, lower case as the provider sends it). */
  totalCents: number;
  currency: string;
  /** The page where the school pays (and downloads the PDF); null until the invoice is finalised. */
  hostedUrl: string | null;
  /** metadata.shop_invoice_id: the shop's own invoice, as the shop made it. */
  shopInvoiceId: string | null;
}

export interface CreditNoteInput {
  amountCents: number;
  reason: string;
  /** The shop's id of the credit (its part refund), kept with the credit note so it can be found again. */
  creditId: string;
  idempotencyKey: string;
}

/** A provider's invoice event, as what the shop does about it. */
export type InvoiceEvent = { id: string; type: string; action: 'paid' | 'payment_failed' | 'void' | 'uncollectible'; invoice: ProviderInvoice };

export interface InvoiceProvider {
  name: 'stripe' | 'local-test';
  /**
   * Makes the invoice at the provider (its customer found by email or made, its lines, terms, PO number and
   * footer), not yet sent. The same shopInvoiceId never makes a second invoice.
   */
  createInvoice(input: ProviderInvoiceInput): Promise<ProviderInvoice>;
  /** Finalises a draft and emails it; an open invoice is emailed again (a reminder). */
  sendInvoice(id: string): Promise<ProviderInvoice>;
  /** An open invoice can no longer be paid. A paid one is refused (ProviderError 400). */
  voidInvoice(id: string): Promise<ProviderInvoice>;
  markUncollectible(id: string): Promise<ProviderInvoice>;
  /** A credit note on a paid invoice, refunding `amountCents`. */
  createCreditNote(id: string, input: CreditNoteInput): Promise<{ id: string }>;
  /**
   * The event in a verified webhook body when it is an invoice event the shop acts on, else null. Throws
   * WebhookSignatureError when the signature does not match.
   */
  parseWebhook(rawBody: string, signature: string | null): Promise<InvoiceEvent | null>;
}
