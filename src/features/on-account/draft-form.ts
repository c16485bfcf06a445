/**
 * The invoice editor's model: a draft's fields as typed (amounts in dollars, counts as text), the saved invoice as
 * those fields, the draft they make, and the check, which is the contract's own schema (`invoiceDraftSchema`, the
 * one the server parses) through react-hook-form's zod resolver. The contract takes cents where the publisher types
 * dollars: its errors about `unitPriceCents` and `amountCents` belong to the fields typed in dollars.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from '@/lib/zod';
import { toCents } from '@/lib/money';
import { rateCard } from '@/lib/rate-card';
import { auAddress, countOf, optional, type SchoolFields, text } from './quote-form';
import { type InvoiceDetail, type InvoiceDraft, type InvoiceDraftInput, invoiceDraftSchema, type InvoicePriceDraft } from './contract';

// Invoices go to Australian schools and parishes: the rate card's two services at home.
export const RATES = rateCard('AU').map(({ rate }) => rate);
type RateId = (typeof RATES)[number]['id'];

interface LineForm {
  productId: string;
  quantity: string;
  priceChanged: boolean;
  /** AUD per copy as typed, when changed. */
  unitPrice: string;
  priceReason: string;
}

export interface DraftForm extends SchoolFields {
  poNumber: string;
  lines: LineForm[];
  shipping: { kind: 'rate_card' | 'typed'; rateId: RateId; name: string; amount: string; reason: string };
  termsDays: 14 | 30;
  note: string;
  shipBeforePayment: boolean;
}

export const emptyDraft = (firstBook: string | undefined): DraftForm => ({
  organisation: '',
  contactName: '',
  email: '',
  phone: '',
  poNumber: '',
  address: { line1: '', line2: '', city: '', state: '', postcode: '' },
  lines: firstBook ? [newLine(firstBook)] : [],
  shipping: { kind: 'rate_card', rateId: 'au-standard', name: '', amount: '', reason: '' },
  termsDays: 30,
  note: '',
  shipBeforePayment: false,
});

export const newLine = (productId: string): LineForm => ({ productId, quantity: '', priceChanged: false, unitPrice: '', priceReason: '' });

export const money2 = (n: number) => n.toFixed(2);

/** The saved invoice as the form shows it. */
export function formOf(invoice: InvoiceDetail): DraftForm {
  // 'rate_card:<rateId>', or 'rate_card' with the rate's name as the delivery's name.
  const named = invoice.shipping_kind.startsWith('rate_card:') ? invoice.shipping_kind.slice('rate_card:'.length) : null;
  const rate = invoice.shipping_kind.startsWith('rate_card') ? (RATES.find((r) => r.id === named || r.name === invoice.shipping_name)?.id ?? null) : null;
  return {
    organisation: invoice.organisation,
    contactName: invoice.contact_name,
    email: invoice.email,
    phone: invoice.phone ?? '',
    poNumber: invoice.po_number ?? '',
    address: {
      line1: invoice.address.line1 ?? '',
      line2: invoice.address.line2 ?? '',
      city: invoice.address.city ?? '',
      state: invoice.address.state ?? '',
      postcode: invoice.address.postcode ?? '',
    },
    lines: invoice.lines.map((l) => ({
      productId: l.product_id,
      quantity: String(l.quantity),
      priceChanged: l.price_reason !== null,
      unitPrice: money2(l.unit_price),
      priceReason: l.price_reason ?? '',
    })),
    shipping: {
      kind: rate ? 'rate_card' : 'typed',
      rateId: rate ?? 'au-standard',
      name: rate ? '' : invoice.shipping_name,
      amount: rate ? '' : money2(invoice.shipping_amount),
      reason: invoice.shipping_reason ?? '',
    },
    termsDays: invoice.terms_days === 14 ? 14 : 30,
    note: invoice.note ?? '',
    shipBeforePayment: invoice.ship_before_payment,
  };
}

/** Dollars as typed ("18", "18.5", "$18.50") in cents; NaN when it is not an amount. */
export function centsOf(text: string): number {
  const cleaned = text.trim().replace(/^\$/, '');
  return /^\d+(\.\d{1,2})?$/.test(cleaned) ? toCents(Number(cleaned)) : Number.NaN;
}

/** The form as the server's draft; fields the form holds as text become numbers (NaN when not, which the schema refuses). */
export function draftOf(form: DraftForm): InvoiceDraftInput {
  return {
    organisation: text(form.organisation),
    contactName: text(form.contactName),
    email: text(form.email),
    phone: optional(form.phone),
    address: auAddress(form.address),
    poNumber: optional(form.poNumber),
    lines: form.lines.map((l) => ({
      productId: l.productId,
      quantity: countOf(l.quantity),
      ...(l.priceChanged && { unitPriceCents: centsOf(l.unitPrice), priceReason: optional(l.priceReason) }),
    })),
    shipping:
      form.shipping.kind === 'rate_card'
        ? { kind: 'rate_card', rateId: form.shipping.rateId }
        : { kind: 'typed', name: text(form.shipping.name), amountCents: centsOf(form.shipping.amount), reason: text(form.shipping.reason) },
    termsDays: form.termsDays,
    note: optional(form.note),
    shipBeforePayment: form.shipBeforePayment,
  };
}

/**
 * What the running totals ask the server to price: the lines whose copies are a count, each at its changed price
 * when that is an amount, and the shipping (a typed price once it is one). Null while there is nothing to price.
 */
export function priceDraftOf(form: DraftForm): InvoicePriceDraft | null {
  const lines = form.lines.flatMap((l) => {
    const quantity = countOf(l.quantity);
    if (!(quantity >= 1)) return [];
    const cents = centsOf(l.unitPrice);
    return [{ productId: l.productId, quantity, ...(l.priceChanged && Number.isFinite(cents) && { unitPriceCents: cents }) }];
  });
  const typed = centsOf(form.shipping.amount);
  if (lines.length === 0) return null;
  return {
    address: { country: 'AU' },
    lines,
    shipping: form.shipping.kind === 'rate_card' ? { kind: 'rate_card', rateId: form.shipping.rateId } : { kind: 'typed', amountCents: Number.isFinite(typed) ? typed : 0 },
  };
}

/** Where the contract names a field by its cents, the form's field in dollars. */
const FORM_FIELD: Record<string, string> = { unitPriceCents: 'unitPrice', amountCents: 'amount' };

/** The errors with those fields renamed; a field's own error (its message and type) and the lines' list kept as they are. */
function renamed(errors: unknown): unknown {
  if (!errors || typeof errors !== 'object' || ('message' in errors && 'type' in errors)) return errors;
  if (Array.isArray(errors)) return errors.map(renamed);
  return Object.fromEntries(Object.entries(errors).map(([key, value]) => [FORM_FIELD[key] ?? key, renamed(value)]));
}

const draftSchema = z.preprocess((form: DraftForm) => draftOf(form), invoiceDraftSchema);

/** The contract's schema over the form's fields, its errors under the form's names. */
export function draftResolver(): Resolver<DraftForm, unknown, InvoiceDraft> {
  const resolve = zodResolver(draftSchema);
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    return { values: result.values, errors: renamed(result.errors) as FieldErrors<DraftForm> } as Awaited<ReturnType<Resolver<DraftForm, unknown, InvoiceDraft>>>;
  };
}

/** The form's fields in the order the page shows them: the first with an error is the one the toast names. */
export function fieldOrder(form: DraftForm): string[] {
  const lines = form.lines.flatMap((_, i) => [`lines.${i}.quantity`, `lines.${i}.unitPrice`, `lines.${i}.priceReason`]);
  return [
    'organisation',
    'contactName',
    'email',
    'phone',
    'poNumber',
    ...['line1', 'line2', 'city', 'state', 'postcode'].map((k) => `address.${k}`),
    ...lines,
    'lines.root',
    'lines',
    'shipping.name',
    'shipping.amount',
    'shipping.reason',
    'note',
  ];
}
