/**
 * Buying on account: the publisher's invoice actions (drafts, send, void, write off, pack before payment,
 * reminders, credit notes, declining a quote) and the invoice-paid path the provider's webhook and the TEST invoice
 * page share. The database holds the rules (the copies held under the products' locks, the order made, the totals
 * and GST); this module asks the invoicing provider to make, email, void and credit the invoice around them. Drafts
 * and their pricing are in `invoice-drafts.ts`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { SITE } from '../../src/config/site';
import type { Seller } from '../../src/features/tax-invoice/tax-invoice';
import type { InvoiceAction, InvoiceTotals } from '../../src/features/on-account/contract';
import { invoiceNumber } from '../../src/features/on-account/rules';
import { formatAbn } from '../../src/lib/abn';
import { formatLongDate, formatPrice } from '../../src/lib/format';
import { DB_OUTCOMES } from '../../src/lib/db-outcomes';
import { fromCents, toCents } from '../../src/lib/money';
import { type ActionOutcome, moreThanIsLeft } from './back-office';
import { confirmationEmail, newOrderNotice } from './emails';
import type { OrderWithItems } from './orders';
import type { EmailMessage } from './providers/email';
import { type FulfilmentServices, sendOrderEmailOnce, sendToShippingPlatform } from './fulfilment';
import { purgeLiveCatalog } from './live-catalog';
import { ProviderError } from './providers/errors';
import type { InvoiceProvider, ProviderInvoice, ProviderInvoiceInput } from './providers/invoicing';
import { sendLowStockNoticeOnce } from './stock';
import { rpc } from './supabase-admin';
import { draftFromQuote, priceDraft, saveDraft } from './invoice-drafts';

export interface InvoiceContext {
  db: SupabaseClient;
  services: FulfilmentServices;
  invoicing: InvoiceProvider;
  /** The staff member's email, for the histories. */
  actor: string;
}

export type InvoiceOutcome = ActionOutcome & { invoiceId?: string; totals?: InvoiceTotals };

const money = z.coerce.number();
const invoiceRecord = z.object({
  id: z.uuid(),
  number: z.number(),
  status: z.enum(['draft', 'sent', 'paid', 'void', 'uncollectible']),
  email: z.string(),
  organisation: z.string(),
  po_number: z.string().nullable(),
  total: money,
  due_on: z.string().nullable(),
  order_id: z.uuid().nullable(),
  provider_invoice_id: z.string().nullable(),
  emailed_at: z.string().nullable(),
});
type InvoiceRecord = z.infer<typeof invoiceRecord>;
const RECORD_COLUMNS = Object.keys(invoiceRecord.shape).join(', ');

async function findInvoice(db: SupabaseClient, column: 'id' | 'provider_invoice_id', value: string): Promise<InvoiceRecord | null> {
  const { data, error } = await db.from('invoices').select(RECORD_COLUMNS).eq(column, value).maybeSingle();
  if (error) throw error;
  return data ? invoiceRecord.parse(data) : null;
}

const NOT_FOUND: InvoiceOutcome = { status: 404, message: 'We could not find that invoice.' };

/** Why the provider failed, in words for the publisher. */
const providerFailure = (error: unknown) => (error instanceof ProviderError ? error.message : error instanceof Error ? error.message : String(error));

// ---------------------------------------------------------------------------------------------------------------
// Sending

const providerInput = z.object({
  invoice_id: z.uuid(),
  number: z.string(),
  order_id: z.uuid(),
  email: z.string(),
  contact_name: z.string(),
  organisation: z.string(),
  po_number: z.string().nullable(),
  terms_days: z.number(),
  due_on: z.string(),
  address: z.object({ line1: z.string(), line2: z.string().nullish(), city: z.string(), state: z.string(), postcode: z.string(), country: z.string() }),
  phone: z.string().nullable(),
  shipping_name: z.string(),
  shipping_amount: money,
  total: money,
  gst: money,
  provider_invoice_id: z.string().nullable(),
  hosted_url: z.string().nullable(),
  lines: z.array(z.object({ title: z.string(), quantity: z.number(), unit_price: money, amount: money })),
});
const sendAnswer = z.union([
  providerInput.extend({ outcome: z.enum(['held', 'resume']) }),
  z.object({ outcome: z.literal('short'), product_id: z.string(), title: z.string(), available: z.number() }),
  z.object({ outcome: z.literal('already_sent') }),
  z.object({ outcome: z.literal('not_draft'), status: z.string() }),
]);

/** The foot of the invoice: who sells, their ABN, and the GST the total includes (or that there is none). */
function invoiceFooter(seller: Seller, gst: number): string {
  const tax = SITE.gstRegistered ? (gst > 0 ? `Total includes GST of ${formatPrice(gst)}.` : 'No GST: an export, GST-free.') : '';
  return `${seller.legalName} · ABN ${formatAbn(seller.abn)}${tax ? `. ${tax}` : ''}`;
}

/** "Only 3 copies of X left": the words the send is refused with when another invoice or order took the copies. */
function shortMessage(title: string, available: number): string {
  if (available <= 0) return `No copies of ${title} left: receive stock or take the book off the invoice, then send it again.`;
  return `Only ${available} ${available === 1 ? 'copy' : 'copies'} of ${title} left: lower the quantity or receive stock, then send it again.`;
}

async function send(ctx: InvoiceContext, invoiceId: string): Promise<InvoiceOutcome> {
  const seller = ctx.services.seller;
  if (!seller) return { status: 503, message: 'SHOP_LEGAL_NAME and SHOP_ABN are not set: an invoice must name the seller and its ABN.' };
  const answer = await rpc(ctx.db, 'invoice_send', { p_invoice_id: invoiceId, p_provider: ctx.invoicing.name, p_actor: ctx.actor }, sendAnswer);
  if (answer.outcome === 'short') return { status: 409, message: shortMessage(answer.title, answer.available), invoiceId };
  if (answer.outcome === 'not_draft') return { status: 409, message: `Only a draft can be sent: this invoice is ${answer.status}.`, invoiceId };
  if (answer.outcome === 'already_sent') return { status: 200, message: 'This invoice was already sent.', invoiceId };
  if (answer.outcome === 'held') {
    // The copies left the stock: the cached live stock is out of date, and a title may be below its level now.
    await purgeLiveCatalog(ctx.services.cdn, `holding the copies of invoice ${answer.number}`);
    await sendLowStockNoticeOnce(ctx.db, ctx.services, answer.order_id);
  }
  const input: ProviderInvoiceInput = {
    shopInvoiceId: answer.invoice_id,
    number: answer.number,
    orderId: answer.order_id,
    customer: { email: answer.email, organisation: answer.organisation, contactName: answer.contact_name, phone: answer.phone, address: answer.address },
    lines: answer.lines.map((l) => ({ description: `${l.title} × ${l.quantity} at ${formatPrice(l.unit_price)} each`, amountCents: toCents(l.amount) })),
    shipping: { name: answer.shipping_name, amountCents: toCents(answer.shipping_amount) },
    totalCents: toCents(answer.total),
    daysUntilDue: answer.terms_days,
    // Due is the day it was sent plus its terms, in Sydney days (the table's rule): the issue day is the difference.
    issuedOn: new Date(Date.parse(`${answer.due_on}T00:00:00Z`) - answer.terms_days * 86_400_000).toISOString().slice(0, 10),
    poNumber: answer.po_number,
    footer: invoiceFooter(seller, answer.gst),
  };
  let emailed: ProviderInvoice;
  try {
    let providerId = answer.provider_invoice_id;
    if (!providerId) {
      const made = await ctx.invoicing.createInvoice(input);
      providerId = made.id;
      await rpc(ctx.db, 'invoice_provider_step', { p_invoice_id: invoiceId, p_provider_invoice_id: providerId, p_hosted_url: null, p_actor: ctx.actor }, z.unknown());
    }
    emailed = await ctx.invoicing.sendInvoice(providerId);
  } catch (error) {
    console.error(`[invoices] ${answer.number} is held but could not be sent`, error);
    return {
      status: 502,
      message: `Invoice ${answer.number} is saved and its copies are held, but it could not be sent (${providerFailure(error)}). Press Send again, or void it to give the copies back.`,
      invoiceId,
    };
  }
  await rpc(ctx.db, 'invoice_provider_step', { p_invoice_id: invoiceId, p_provider_invoice_id: emailed.id, p_hosted_url: emailed.hostedUrl ?? '', p_actor: ctx.actor }, z.unknown());
  // Packed before payment, its order is to pack from now: it goes to the shipping platform as a paid one does.
  await sendToShippingPlatform(ctx.db, ctx.services, answer.order_id);
  return {
    status: 200,
    message: `Invoice ${answer.number} sent to ${answer.email}: ${formatPrice(answer.total)} due by ${formatLongDate(answer.due_on)}. Its copies are held.`,
    invoiceId,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Void, write off, pack before payment, remind, credit

async function close(ctx: InvoiceContext, invoice: InvoiceRecord, status: 'void' | 'uncollectible'): Promise<InvoiceOutcome> {
  const number = invoiceNumber(invoice.number);
  const what = status === 'void' ? 'voided' : 'written off';
  if (invoice.status === 'draft') return { status: 409, message: `Invoice ${number} is a draft: it has not been sent, so there is nothing to ${status === 'void' ? 'void' : 'write off'}.` };
  if (invoice.status === 'paid') return { status: 409, message: `Invoice ${number} is paid: give money back with a credit note instead.` };
  if (invoice.status === status) return { status: 200, message: `Invoice ${number} was already ${what}.`, invoiceId: invoice.id };
  if (invoice.provider_invoice_id) {
    try {
      if (status === 'void') await ctx.invoicing.voidInvoice(invoice.provider_invoice_id);
      else if (invoice.status === 'sent') await ctx.invoicing.markUncollectible(invoice.provider_invoice_id);
    } catch (error) {
      console.error(`[invoices] ${number} could not be ${what} at the provider`, error);
      return {
        status: 502,
        message: `Invoice ${number} could not be ${what} (${providerFailure(error)}). It may have been paid meanwhile: check it, and try again.`,
        invoiceId: invoice.id,
      };
    }
  }
  const result = await rpc(ctx.db, 'invoice_close', { p_invoice_id: invoice.id, p_provider_invoice_id: null, p_status: status, p_actor: ctx.actor }, z.enum(DB_OUTCOMES.invoice_close));
  if (result === 'not_open') return { status: 409, message: `Only a sent, unpaid invoice can be ${what}.`, invoiceId: invoice.id };
  await purgeLiveCatalog(ctx.services.cdn, `invoice ${number} ${what}`);
  return { status: 200, message: `Invoice ${number} ${what}; its copies are back in stock unless they had shipped.`, invoiceId: invoice.id };
}

async function remind(ctx: InvoiceContext, invoice: InvoiceRecord): Promise<InvoiceOutcome> {
  const number = invoiceNumber(invoice.number);
  if (invoice.status !== 'sent' || !invoice.provider_invoice_id || !invoice.emailed_at) {
    return { status: 409, message: `Only a sent, unpaid invoice can be emailed again: invoice ${number} is ${invoice.status}.`, invoiceId: invoice.id };
  }
  try {
    await ctx.invoicing.sendInvoice(invoice.provider_invoice_id);
  } catch (error) {
    console.error(`[invoices] the reminder for ${number} failed`, error);
    return { status: 502, message: `The reminder for invoice ${number} did not go (${providerFailure(error)}). Try again in a moment.`, invoiceId: invoice.id };
  }
  await rpc(ctx.db, 'invoice_reminded', { p_invoice_id: invoice.id, p_actor: ctx.actor }, z.enum(DB_OUTCOMES.invoice_reminded));
  return { status: 200, message: `Invoice ${number} emailed again to ${invoice.email}.`, invoiceId: invoice.id };
}

const creditReservation = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('reserved'), refund_id: z.uuid(), remaining: money }),
  z.object({ outcome: z.literal('too_much'), remaining: money }),
  z.object({ outcome: z.literal('not_refundable') }),
]);
const creditSettlement = z.object({ outcome: z.enum(['succeeded', 'failed', 'already']), remaining: money.optional() });

async function credit(ctx: InvoiceContext, invoice: InvoiceRecord, amountCents: number, reason: string): Promise<InvoiceOutcome> {
  const number = invoiceNumber(invoice.number);
  const amount = fromCents(amountCents);
  const reservation = await rpc(ctx.db, 'invoice_begin_credit', { p_invoice_id: invoice.id, p_amount: amount, p_reason: reason, p_actor: ctx.actor }, creditReservation);
  if (reservation.outcome === 'not_refundable') return { status: 409, message: `Only a paid invoice can be credited: invoice ${number} is ${invoice.status}.`, invoiceId: invoice.id };
  if (reservation.outcome === 'too_much') return { status: 409, message: moreThanIsLeft('credit', `invoice ${number}`, reservation.remaining), invoiceId: invoice.id };
  let providerId: string | null = null;
  let failure: string | null = null;
  try {
    if (!invoice.provider_invoice_id) throw new Error('the invoice was never sent through the provider');
    providerId = (
      await ctx.invoicing.createCreditNote(invoice.provider_invoice_id, { amountCents, reason, creditId: reservation.refund_id, idempotencyKey: `invoice-credit-${reservation.refund_id}` })
    ).id;
  } catch (error) {
    console.error(`[invoices] the credit note on ${number} failed`, error);
    failure = providerFailure(error);
  }
  const settled = await rpc(ctx.db, 'settle_part_refund', { p_refund_id: reservation.refund_id, p_provider_refund_id: providerId, p_failure: failure }, creditSettlement);
  if (failure)
    return { status: 502, message: `The credit note of ${formatPrice(amount)} on invoice ${number} did not go through (${failure}). Nothing was credited; you can try again.`, invoiceId: invoice.id };
  return { status: 200, message: `Credit note of ${formatPrice(amount)} on invoice ${number} made and refunded; ${formatPrice(settled.remaining ?? 0)} remains paid.`, invoiceId: invoice.id };
}

export async function runInvoiceAction(ctx: InvoiceContext, action: InvoiceAction): Promise<InvoiceOutcome> {
  switch (action.action) {
    case 'create':
      return saveDraft(ctx, null, null, action.draft);
    case 'create_from_quote':
      return draftFromQuote(ctx, action.quoteId);
    case 'price':
      return priceDraft(ctx, action.draft);
    case 'decline_quote': {
      const { data, error } = await ctx.db.rpc('quote_request_decline', { p_quote_id: action.quoteId, p_actor: ctx.actor });
      if (error?.code === 'P0002') return { status: 404, message: 'We could not find that quote request.' };
      if (error) throw error;
      return data === 'declined' ? { status: 200, message: 'Quote request declined.' } : { status: 409, message: 'This quote request has already been invoiced or declined.' };
    }
    default:
      break;
  }
  const invoice = await findInvoice(ctx.db, 'id', action.invoiceId);
  if (!invoice) return NOT_FOUND;
  switch (action.action) {
    case 'update':
      return saveDraft(ctx, invoice.id, null, action.draft);
    case 'send':
      return send(ctx, invoice.id);
    case 'void':
      return close(ctx, invoice, 'void');
    case 'mark_uncollectible':
      return close(ctx, invoice, 'uncollectible');
    case 'remind':
      return remind(ctx, invoice);
    case 'credit':
      return credit(ctx, invoice, action.amountCents, action.reason);
    case 'ship_before_payment': {
      const result = await rpc(ctx.db, 'invoice_set_ship_before_payment', { p_invoice_id: invoice.id, p_value: action.value, p_actor: ctx.actor }, z.enum(DB_OUTCOMES.invoice_set_ship_before_payment));
      const number = invoiceNumber(invoice.number);
      if (result === 'changed' && action.value && invoice.order_id) await sendToShippingPlatform(ctx.db, ctx.services, invoice.order_id);
      if (result === 'not_open')
        return {
          status: 409,
          message: `Invoice ${number} is ${invoice.status === 'sent' ? 'already shipped' : invoice.status}: whether it ships before payment can no longer change.`,
          invoiceId: invoice.id,
        };
      return {
        status: 200,
        message: action.value ? `Invoice ${number} will be packed before payment.` : `Invoice ${number} will be packed once paid.`,
        invoiceId: invoice.id,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The provider's side: paid, payment failed, voided, written off

export type InvoiceEventOutcome = 'paid' | 'already' | 'closed' | 'ignored' | 'mismatch' | 'not_open' | 'unknown';

/**
 * Why the provider's invoice must not change the shop's, or null when it may: it must be the one the shop stored at
 * send (its provider id), carry the shop's own id in its metadata, and total what the shop's does in AUD.
 */
function invoiceMismatch(shop: InvoiceRecord, provider: ProviderInvoice): string | null {
  if (shop.provider_invoice_id !== provider.id) return `invoice ${provider.id} is not the one stored for ${shop.id}`;
  if (provider.shopInvoiceId !== shop.id) return `invoice ${provider.id} names shop invoice ${provider.shopInvoiceId ?? 'none'}, not ${shop.id}`;
  if (provider.totalCents !== toCents(shop.total)) return `invoice ${provider.id} totals ${provider.totalCents} cents, the shop's ${toCents(shop.total)}`;
  if (provider.currency.toUpperCase() !== 'AUD') return `invoice ${provider.id} is in ${provider.currency}`;
  return null;
}

/** To the publisher, once: the invoice is paid and its order is to pack (or has shipped already). */
function invoicePaidNotice(shop: InvoiceRecord, order: OrderWithItems, to: string, siteOrigin: string): EmailMessage {
  const number = invoiceNumber(shop.number);
  const notice = newOrderNotice(order, to, siteOrigin);
  return {
    ...notice,
    subject: `Invoice ${number} paid: ${shop.organisation}, ${formatPrice(shop.total)} AUD`,
    text: [
      `${shop.organisation} paid invoice ${number}${shop.po_number ? ` (PO number: ${shop.po_number})` : ''}: ${formatPrice(shop.total)} AUD.`,
      order.status === 'processing' ? 'Its order is to pack, with the organisation and the PO number on its packing slip.' : `Its order is ${order.status}.`,
      '',
      notice.text,
    ].join('\n'),
    idempotencyKey: `invoice-paid-${shop.id}`,
  };
}

/**
 * The invoice-paid path (the provider's invoice.paid, or the TEST invoice page's Pay invoice): the copies stay
 * taken, the order becomes paid and to pack, and the publisher is told once.
 */
export async function invoicePaid(db: SupabaseClient, services: FulfilmentServices, provider: ProviderInvoice, actor: string): Promise<InvoiceEventOutcome> {
  const shop = await findInvoice(db, 'provider_invoice_id', provider.id);
  if (!shop) return 'unknown';
  const mismatch = invoiceMismatch(shop, provider);
  if (mismatch) {
    console.error(`[invoices] not marking paid: ${mismatch}`);
    return 'mismatch';
  }
  const result = await rpc(
    db,
    'invoice_mark_paid',
    { p_provider_invoice_id: provider.id, p_amount_cents: provider.totalCents, p_currency: provider.currency, p_actor: actor },
    z.enum(['paid', 'already', 'mismatch', 'not_open', 'unknown']),
  );
  if ((result === 'paid' || result === 'already') && shop.order_id) {
    const orderId = shop.order_id;
    // The school's receipt, naming its PO and invoice numbers: the order's one confirmation email, claimed once.
    await sendOrderEmailOnce(db, services, orderId, 'confirmation', confirmationEmail);
    const { notifyTo } = services;
    if (notifyTo) await sendOrderEmailOnce(db, services, orderId, 'publisher', (order, origin) => invoicePaidNotice(shop, order, notifyTo, origin));
    // Last: the order is to pack (unless it shipped before payment), and goes to the shipping platform as a card order does.
    await sendToShippingPlatform(db, services, orderId);
  }
  return result;
}

/** The provider voided the invoice or wrote it off (from its dashboard, say): the shop's follows, its copies back. */
export async function invoiceClosedByProvider(
  db: SupabaseClient,
  services: FulfilmentServices,
  provider: ProviderInvoice,
  status: 'void' | 'uncollectible',
  actor: string,
): Promise<InvoiceEventOutcome> {
  const shop = await findInvoice(db, 'provider_invoice_id', provider.id);
  if (!shop) return 'unknown';
  if (shop.provider_invoice_id !== provider.id || provider.shopInvoiceId !== shop.id) {
    console.error(`[invoices] not closing: invoice ${provider.id} does not name shop invoice ${shop.id}`);
    return 'mismatch';
  }
  const result = await rpc(db, 'invoice_close', { p_invoice_id: null, p_provider_invoice_id: provider.id, p_status: status, p_actor: actor }, z.enum(['closed', 'already', 'not_open', 'unknown']));
  if (result === 'closed') await purgeLiveCatalog(services.cdn, `invoice ${invoiceNumber(shop.number)} closed at the provider`);
  return result;
}
