/**
 * An invoice's draft: saved (from nothing, from a quote request, or changed) and priced for the editor's running
 * totals. The database prices both (`invoice_totals`: the lines at the cart's quantity prices, the free-shipping
 * threshold, the GST and the total); this module gives it the shipping service the publisher chose, priced from the
 * rate card by what the parcel weighs, with the subtotal from which the cart's free-shipping rule makes it free.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { CountryCode } from '../../src/config/constants';
import { freeShippingFrom } from '../../src/features/checkout/contract';
import type { InvoiceDraft, InvoicePriceDraft, InvoiceTotals } from '../../src/features/on-account/contract';
import { invoiceTotalsSchema } from '../../src/features/on-account/contract';
import { rateCard } from '../../src/lib/rate-card';
import { fromCents } from '../../src/lib/money';
import type { InvoiceContext, InvoiceOutcome } from './invoices';
import { fallbackQuotes } from './shipping';
import { rpc } from './supabase-admin';

const productRows = z.array(z.object({ id: z.string(), weight: z.coerce.number() }));

const unknownBook = (id: string): InvoiceOutcome => ({ status: 404, message: `The shop has no book ${id} for sale. Choose another book.` });

/** The draft's books, its shipping and its country as invoice_totals takes them; or why they cannot be priced. */
async function pricingInput(db: SupabaseClient, draft: InvoicePriceDraft): Promise<{ input: Record<string, unknown> } | { problem: InvoiceOutcome }> {
  const ids = draft.lines.map((l) => l.productId);
  const { data, error } = await db.from('products').select('id, weight').in('id', ids).eq('for_sale', true);
  if (error) throw error;
  const weights = new Map(productRows.parse(data).map((p) => [p.id, p.weight]));
  const missing = ids.find((id) => !weights.has(id));
  if (missing) return { problem: unknownBook(missing) };
  let shipping: Record<string, unknown>;
  if (draft.shipping.kind === 'typed') {
    shipping = { kind: 'typed', name: draft.shipping.name ?? '', amount: fromCents(draft.shipping.amountCents), reason: 'reason' in draft.shipping ? draft.shipping.reason : null };
  } else {
    const { rateId } = draft.shipping;
    const country = draft.address.country as CountryCode;
    // The rate card by what the parcel weighs, as the checkout prices it.
    const weightGrams = draft.lines.reduce((sum, line) => sum + (weights.get(line.productId) ?? 0) * line.quantity, 0);
    const quote = fallbackQuotes(country, weightGrams).find((q) => q.id === rateId);
    if (!quote) return { problem: { status: 400, message: `The rate card has no ${rateId} rate to ${country}: choose another, or type the shipping with a reason.` } };
    shipping = { kind: 'rate_card', name: quote.plan_name, amount: quote.price, free_from: freeShippingFrom(quote, country) };
  }
  return {
    input: {
      address: { country: draft.address.country },
      shipping,
      lines: draft.lines.map((l) => ({
        product_id: l.productId,
        quantity: l.quantity,
        ...(l.unitPriceCents !== undefined && { unit_price: fromCents(l.unitPriceCents), price_reason: 'priceReason' in l ? l.priceReason : undefined }),
      })),
    },
  };
}

const totalsAnswer = z.discriminatedUnion('outcome', [invoiceTotalsSchema.extend({ outcome: z.literal('priced') }), z.object({ outcome: z.literal('unknown_book'), product_id: z.string() })]);

/** The draft as typed, priced by the database and not saved. */
export async function priceDraft(ctx: InvoiceContext, draft: InvoicePriceDraft): Promise<InvoiceOutcome & { totals?: InvoiceTotals }> {
  const prepared = await pricingInput(ctx.db, draft);
  if ('problem' in prepared) return prepared.problem;
  const answer = await rpc(ctx.db, 'invoice_totals', { p_draft: prepared.input }, totalsAnswer);
  if (answer.outcome === 'unknown_book') return unknownBook(answer.product_id);
  const { outcome: _, ...totals } = answer;
  return { status: 200, message: 'Priced as typed.', totals };
}

const saveAnswer = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('saved'), invoice_id: z.uuid() }),
  z.object({ outcome: z.literal('not_draft'), status: z.string() }),
  z.object({ outcome: z.literal('unknown_book'), product_id: z.string() }),
  z.object({ outcome: z.literal('quote_taken') }),
]);

const QUOTE_TAKEN: InvoiceOutcome = { status: 409, message: 'This quote request has already been invoiced or declined.' };

export async function saveDraft(ctx: InvoiceContext, invoiceId: string | null, quoteId: string | null, draft: InvoiceDraft): Promise<InvoiceOutcome> {
  const prepared = await pricingInput(ctx.db, draft);
  if ('problem' in prepared) return prepared.problem;
  const payload = {
    ...prepared.input,
    organisation: draft.organisation,
    contact_name: draft.contactName,
    email: draft.email,
    phone: draft.phone ?? null,
    address: draft.address,
    po_number: draft.poNumber ?? null,
    terms_days: draft.termsDays,
    note: draft.note ?? null,
    ship_before_payment: draft.shipBeforePayment,
  };
  const answer = await rpc(ctx.db, 'invoice_save_draft', { p_invoice_id: invoiceId, p_quote_id: quoteId, p_draft: payload, p_actor: ctx.actor }, saveAnswer);
  switch (answer.outcome) {
    case 'not_draft':
      return { status: 409, message: `Only a draft can be changed: this invoice is ${answer.status}.` };
    case 'unknown_book':
      return unknownBook(answer.product_id);
    case 'quote_taken':
      return QUOTE_TAKEN;
    case 'saved':
      return { status: 200, message: invoiceId ? 'Draft saved.' : 'Draft invoice created.', invoiceId: answer.invoice_id };
  }
}

const quoteRecord = z.object({
  id: z.uuid(),
  status: z.string(),
  organisation: z.string(),
  contact_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.object({ line1: z.string(), line2: z.string().nullish(), city: z.string(), state: z.string(), postcode: z.string(), country: z.string() }),
  lines: z.array(z.object({ product_id: z.string(), quantity: z.number() })),
  po_number: z.string().nullable(),
  note: z.string().nullable(),
});

export async function draftFromQuote(ctx: InvoiceContext, quoteId: string): Promise<InvoiceOutcome> {
  const { data, error } = await ctx.db.from('quote_requests').select('id, status, organisation, contact_name, email, phone, address, lines, po_number, note').eq('id', quoteId).maybeSingle();
  if (error) throw error;
  if (!data) return { status: 404, message: 'We could not find that quote request.' };
  const quote = quoteRecord.parse(data);
  if (quote.status !== 'new') return QUOTE_TAKEN;
  const country = quote.address.country as CountryCode;
  return saveDraft(ctx, null, quote.id, {
    organisation: quote.organisation,
    contactName: quote.contact_name,
    email: quote.email,
    phone: quote.phone,
    address: { ...quote.address, line2: quote.address.line2 ?? undefined, country },
    poNumber: quote.po_number ?? undefined,
    lines: quote.lines.map((l) => ({ productId: l.product_id, quantity: l.quantity, priceReason: undefined })),
    // The rate card's cheapest service to the address.
    shipping: { kind: 'rate_card', rateId: rateCard(country)[0]!.rate.id },
    termsDays: 30,
    note: quote.note ?? undefined,
    shipBeforePayment: false,
  });
}
