/**
 * Stripe Invoicing through the official `stripe` package: a customer per email address, an invoice sent for
 * payment within its terms (collection_method send_invoice) with the PO number as a custom field and the seller's
 * name and ABN in the footer, voided, written off, emailed again, and credited. Prices are the shop's, GST
 * included, as the checkout sessions charge them: no Stripe tax rates, the GST stated in the footer.
 */
import { z } from 'zod';
import { dayInWords } from '../../../src/features/on-account/paperwork';
import { ProviderError } from './errors';
import type { CreditNoteInput, InvoiceEvent, InvoiceProvider, ProviderInvoice, ProviderInvoiceInput } from './invoicing';
import { askStripe, createStripeClient, invalid, NAME, type StripeOptions, verifiedStripeEvent } from './stripe-client';

/** The webhook events the shop acts on for invoices: the Stripe webhook endpoint must send these too. */
export const STRIPE_INVOICE_WEBHOOK_EVENTS = ['invoice.paid', 'invoice.payment_failed', 'invoice.voided', 'invoice.marked_uncollectible'] as const;

const ACTIONS: Record<(typeof STRIPE_INVOICE_WEBHOOK_EVENTS)[number], InvoiceEvent['action']> = {
  'invoice.paid': 'paid',
  'invoice.payment_failed': 'payment_failed',
  'invoice.voided': 'void',
  'invoice.marked_uncollectible': 'uncollectible',
};

const invoiceSchema = z
  .object({
    id: z.string().min(1),
    status: z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']),
    total: z.number().int(),
    currency: z.string().min(3),
    hosted_invoice_url: z.string().nullable().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
  })
  .transform(
    (i): ProviderInvoice => ({
      id: i.id,
      status: i.status,
      totalCents: i.total,
      currency: i.currency,
      hostedUrl: i.hosted_invoice_url ?? null,
      shopInvoiceId: i.metadata?.shop_invoice_id ?? null,
    }),
  );
const idSchema = z.object({ id: z.string().min(1) });
const customerListSchema = z.object({ data: z.array(idSchema) });

export function createStripeInvoicing(options: StripeOptions): InvoiceProvider {
  const stripe = createStripeClient(options);

  /** The school's customer: the one with this email address, else a new one (named for the organisation). */
  async function customerFor(input: ProviderInvoiceInput): Promise<string> {
    const { customer } = input;
    const found = await askStripe('look up the customer', customerListSchema, 'a list of customers', () => stripe.customers.list({ email: customer.email, limit: 1 }));
    if (found.data[0]) return found.data[0].id;
    const made = await askStripe('create the customer', idSchema, 'a customer', () =>
      stripe.customers.create(
        {
          email: customer.email,
          name: customer.organisation,
          ...(customer.phone && { phone: customer.phone }),
          address: {
            line1: customer.address.line1,
            ...(customer.address.line2 && { line2: customer.address.line2 }),
            city: customer.address.city,
            state: customer.address.state,
            postal_code: customer.address.postcode,
            country: customer.address.country,
          },
          metadata: { contact_name: customer.contactName },
        },
        { idempotencyKey: `invoice-${input.shopInvoiceId}-customer` },
      ),
    );
    return made.id;
  }

  const read = (id: string, action: string) => askStripe(action, invoiceSchema, 'an invoice', () => stripe.invoices.retrieve(id));

  return {
    name: 'stripe',

    async createInvoice(input) {
      const customer = await customerFor(input);
      const key = `invoice-${input.shopInvoiceId}`;
      const created = await askStripe('create the invoice', invoiceSchema, 'an invoice', () =>
        stripe.invoices.create(
          {
            customer,
            currency: 'aud',
            collection_method: 'send_invoice',
            days_until_due: input.daysUntilDue,
            // Only the items made below, never another pending item of the same customer.
            pending_invoice_items_behavior: 'exclude',
            auto_advance: false,
            // The shop's own words at the top of Stripe's page and PDF: a tax invoice, and the day it was issued.
            description: `Tax invoice ${input.number} for ${input.customer.organisation}, issued ${dayInWords(input.issuedOn)}`,
            ...(input.poNumber && { custom_fields: [{ name: 'PO number', value: input.poNumber }] }),
            footer: input.footer,
            metadata: { shop_invoice_id: input.shopInvoiceId, order_id: input.orderId, shop_invoice_number: input.number },
          },
          { idempotencyKey: `${key}-create` },
        ),
      );
      const items = [...input.lines, ...(input.shipping.amountCents > 0 ? [{ description: `Shipping: ${input.shipping.name}`, amountCents: input.shipping.amountCents }] : [])];
      for (const [n, item] of items.entries()) {
        await askStripe('add a line to the invoice', idSchema, 'an invoice item', () =>
          stripe.invoiceItems.create(
            { customer, invoice: created.id, currency: 'aud', amount: item.amountCents, description: item.description, metadata: { shop_invoice_id: input.shopInvoiceId } },
            { idempotencyKey: `${key}-item-${n + 1}` },
          ),
        );
      }
      const made = await read(created.id, 'read the invoice');
      if (made.totalCents !== input.totalCents) {
        throw new ProviderError(NAME, 502, `Stripe's invoice ${made.id} totals ${made.totalCents} cents, the shop's ${input.totalCents}.`, { code: 'invalid-response' });
      }
      return made;
    },

    async sendInvoice(id) {
      let invoice = await read(id, 'read the invoice');
      if (invoice.status === 'draft') invoice = await askStripe('finalise the invoice', invoiceSchema, 'an invoice', () => stripe.invoices.finalizeInvoice(id, { auto_advance: false }));
      return askStripe('email the invoice', invoiceSchema, 'an invoice', () => stripe.invoices.sendInvoice(id));
    },

    async voidInvoice(id) {
      return askStripe('void the invoice', invoiceSchema, 'an invoice', () => stripe.invoices.voidInvoice(id));
    },

    async markUncollectible(id) {
      return askStripe('write the invoice off', invoiceSchema, 'an invoice', () => stripe.invoices.markUncollectible(id));
    },

    async createCreditNote(id, input: CreditNoteInput) {
      if (!Number.isInteger(input.amountCents) || input.amountCents < 1) throw new TypeError('A credit is a whole number of cents, at least 1.');
      return askStripe('create the credit note', idSchema, 'a credit note', () =>
        stripe.creditNotes.create(
          {
            invoice: id,
            lines: [{ type: 'custom_line_item', description: input.reason.slice(0, 200), quantity: 1, unit_amount: input.amountCents }],
            refund_amount: input.amountCents,
            reason: 'order_change',
            memo: input.reason.slice(0, 200),
            metadata: { credit_id: input.creditId },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
    },

    async parseWebhook(rawBody, signature) {
      const { id, type, data } = await verifiedStripeEvent(stripe, options.webhookSecret, rawBody, signature);
      if (!(type in ACTIONS)) return null;
      const invoice = invoiceSchema.safeParse(data.object);
      if (!invoice.success) throw invalid(`a ${type} event`, invoice.error);
      return { id, type, action: ACTIONS[type as keyof typeof ACTIONS], invoice: invoice.data };
    },
  };
}
