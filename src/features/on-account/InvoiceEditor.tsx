/**
 * One invoice (#invoice/<id>, or #invoice/new for an empty draft). A draft is a form: the school or parish, where the
 * books go, the PO number, the books at their quantity price (a changed price says why), shipping from the rate card
 * or typed with a reason, the terms (14 or 30 days), a note and "Ship before payment"; the GST and total follow as the
 * publisher types. Save draft keeps it; Send saves it and has it emailed (asked first in a dialog). A sent invoice
 * reads as it went out, with Send reminder, Ship before payment, Void (asked first) and, once paid, Credit note.
 * The server checks everything again; its sentence is what the toast says.
 */
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { AU_STATE_CODES, LIMITS, SHIPPING } from '@/config/constants';
import { priceLine } from '@/features/catalog/quantity-prices';
import { FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { formatDateTime, formatLongDate, formatPrice } from '@/lib/format';
import { isEmailAddress } from '@/lib/email';
import { fromCents, toCents } from '@/lib/money';
import { postalAddressLines } from '@/lib/postal-address';
import { rateCard } from '@/lib/rate-card';
import { ConfirmDialog } from '@/features/admin/ConfirmDialog';
import { BlockLines, Fact } from '@/features/admin/Facts';
import type { InvoiceDraftInput } from './contract';
import { INVOICE_RULES, invoiceNumber } from './rules';
import { dueText, InvoiceStatus, RemindButton } from './InvoicesPanel';
import { getInvoice, type InvoiceBook, type InvoiceDetail, listInvoiceBooks, runInvoiceAction } from './invoices-api';
import { Email } from '@/features/admin/OrdersPanel';
import { invoiceHref, quoteHref } from './QuotesPanel';
import { goTo } from '@/features/admin/route';
import { LoadState, ordersChanged, toastOutcome, useLoad } from '@/features/admin/use-load';
import { TableHead } from '@/components/TableHead';

// Invoices go to Australian schools and parishes: the rate card's two services at home.
const RATES = rateCard('AU').map(({ rate }) => rate);
type RateId = (typeof RATES)[number]['id'];

interface LineForm {
  productId: string;
  quantity: string;
  priceChanged: boolean;
  /** AUD per copy as typed, when changed. */
  unitPrice: string;
  priceReason: string;
}

const EMPTY = {
  organisation: '',
  contactName: '',
  email: '',
  phone: '',
  line1: '',
  line2: '',
  city: '',
  state: '',
  postcode: '',
  poNumber: '',
  lines: [] as LineForm[],
  shippingKind: 'rate_card' as 'rate_card' | 'typed',
  rateId: 'au-standard' as RateId,
  shippingName: '',
  shippingAmount: '',
  shippingReason: '',
  termsDays: 30 as 14 | 30,
  note: '',
  shipBeforePayment: false,
};
type DraftForm = typeof EMPTY;

const newLine = (productId: string): LineForm => ({ productId, quantity: '', priceChanged: false, unitPrice: '', priceReason: '' });

const money2 = (n: number) => n.toFixed(2);

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
    line1: invoice.address.line1 ?? '',
    line2: invoice.address.line2 ?? '',
    city: invoice.address.city ?? '',
    state: invoice.address.state ?? '',
    postcode: invoice.address.postcode ?? '',
    poNumber: invoice.po_number ?? '',
    lines: invoice.lines.map((l) => ({
      productId: l.product_id,
      quantity: String(l.quantity),
      priceChanged: l.price_reason !== null,
      unitPrice: money2(l.unit_price),
      priceReason: l.price_reason ?? '',
    })),
    shippingKind: rate ? 'rate_card' : 'typed',
    rateId: rate ?? 'au-standard',
    shippingName: rate ? '' : invoice.shipping_name,
    shippingAmount: rate ? '' : money2(invoice.shipping_amount),
    shippingReason: invoice.shipping_reason ?? '',
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
  const text = (v: string) => v.trim();
  const optional = (v: string) => text(v) || undefined;
  return {
    organisation: text(form.organisation),
    contactName: text(form.contactName),
    email: text(form.email),
    phone: optional(form.phone),
    address: { line1: text(form.line1), line2: optional(form.line2), city: text(form.city), state: text(form.state), postcode: text(form.postcode), country: 'AU' },
    poNumber: optional(form.poNumber),
    lines: form.lines.map((l) => ({
      productId: l.productId,
      quantity: /^\d+$/.test(l.quantity.trim()) ? Number(l.quantity.trim()) : Number.NaN,
      ...(l.priceChanged && { unitPriceCents: centsOf(l.unitPrice), priceReason: optional(l.priceReason) }),
    })),
    shipping:
      form.shippingKind === 'rate_card'
        ? { kind: 'rate_card', rateId: form.rateId }
        : { kind: 'typed', name: text(form.shippingName), amountCents: centsOf(form.shippingAmount), reason: text(form.shippingReason) },
    termsDays: form.termsDays,
    note: optional(form.note),
    shipBeforePayment: form.shipBeforePayment,
  };
}

/**
 * What is wrong with the draft, by the form's field names ("lines.0.priceReason", "shippingReason"…), in the
 * contract's words: the rules of its invoiceDraftSchema, checked here without its schemas (a unit test keeps the two
 * in step); the server checks them again.
 */
export function draftErrors(form: DraftForm): Record<string, string> {
  const errors: Record<string, string> = {};
  const need = (field: string, value: string, what: string, max: number) => {
    const v = value.trim();
    if (!v) errors[field] = `Please enter ${what}.`;
    else if (v.length > max) errors[field] = `The ${what.replace(/^(a|an|the|your) /, '')} can be at most ${max} characters.`;
  };
  const most = (field: string, value: string, what: string, max: number) => {
    if (value.trim().length > max) errors[field] = `The ${what} can be at most ${max} characters.`;
  };
  const amount = (field: string, value: string, what: string) => {
    const cents = centsOf(value);
    if (!Number.isFinite(cents)) errors[field] = `${what} must be an amount in dollars and cents.`;
    else if (cents > INVOICE_RULES.maxAmountCents) errors[field] = `${what} is more than any invoice.`;
  };
  need('organisation', form.organisation, 'the school or parish', INVOICE_RULES.organisationMaxLength);
  need('contactName', form.contactName, 'the contact’s name', LIMITS.nameMaxLength);
  if (!form.email.trim()) errors.email = 'Please enter an email address.';
  else if (!isEmailAddress(form.email.trim())) errors.email = 'Please enter a valid email address.';
  most('phone', form.phone, 'phone number', INVOICE_RULES.phoneMaxLength);
  most('poNumber', form.poNumber, 'PO number', INVOICE_RULES.poNumberMaxLength);
  need('line1', form.line1, 'the street address', LIMITS.addressFieldMaxLength);
  most('line2', form.line2, 'second address line', LIMITS.addressFieldMaxLength);
  need('city', form.city, 'the suburb or city', 100);
  need('state', form.state, 'the state', 100);
  need('postcode', form.postcode, 'the postcode', 20);
  if (form.lines.length === 0) errors.lines = 'An invoice needs at least one book.';
  form.lines.forEach((line, i) => {
    const quantity = line.quantity.trim();
    if (!/^\d+$/.test(quantity)) errors[`lines.${i}.quantity`] = 'Please enter a whole number of copies.';
    else if (Number(quantity) < 1) errors[`lines.${i}.quantity`] = 'The quantity must be at least 1.';
    else if (Number(quantity) > INVOICE_RULES.maxLineQuantity) errors[`lines.${i}.quantity`] = `At most ${INVOICE_RULES.maxLineQuantity} copies of one book.`;
    if (line.priceChanged) {
      amount(`lines.${i}.unitPrice`, line.unitPrice, 'The price per copy');
      if (!line.priceReason.trim()) errors[`lines.${i}.priceReason`] = 'Give a reason for the changed price.';
      else most(`lines.${i}.priceReason`, line.priceReason, 'reason for the price', INVOICE_RULES.reasonMaxLength);
    }
  });
  if (form.shippingKind === 'typed') {
    need('shippingName', form.shippingName, 'the delivery method', 100);
    amount('shippingAmount', form.shippingAmount, 'The shipping');
    need('shippingReason', form.shippingReason, 'a reason for the shipping price', INVOICE_RULES.reasonMaxLength);
  }
  most('note', form.note, 'note', INVOICE_RULES.noteMaxLength);
  return errors;
}

/** What the draft comes to as typed: each line at its price, shipping, total and the GST in it. A preview: saving prices it for good. */
export function draftTotals(form: DraftForm, books: readonly InvoiceBook[]) {
  const lines = form.lines.map((l) => {
    const book = books.find((b) => b.id === l.productId);
    const quantity = /^\d+$/.test(l.quantity.trim()) ? Number(l.quantity.trim()) : 0;
    const listed = book ? priceLine(book.price, book.quantityPrices, quantity).unitPrice : 0;
    const changed = centsOf(l.unitPrice);
    const unit = l.priceChanged && Number.isFinite(changed) ? fromCents(changed) : listed;
    return { listed, unit, amount: fromCents(toCents(unit) * quantity) };
  });
  const subtotal = fromCents(lines.reduce((sum, l) => sum + toCents(l.amount), 0));
  const rate = RATES.find((r) => r.id === form.rateId) ?? SHIPPING.fallback.domestic;
  const rateShipping = rate.id === 'au-standard' && subtotal >= SHIPPING.freeShippingThreshold ? 0 : rate.price;
  const typed = centsOf(form.shippingAmount);
  const shipping = form.shippingKind === 'rate_card' ? rateShipping : Number.isFinite(typed) ? fromCents(typed) : 0;
  const total = fromCents(toCents(subtotal) + toCents(shipping));
  // An Australian delivery: the total includes GST, one eleventh of it.
  const gst = fromCents(Math.round(toCents(total) / 11));
  return { lines, subtotal, shipping, total, gst };
}

export function InvoicePage({ invoiceId }: { invoiceId: string | null }) {
  const load = useCallback(() => (invoiceId ? getInvoice(invoiceId) : Promise.resolve(null)), [invoiceId]);
  const { state, reload } = useLoad(load);
  const books = useLoad(listInvoiceBooks);
  return (
    <section aria-labelledby="invoice-heading" className="space-y-4">
      <a href="#invoices" className="font-semibold text-navy underline">
        ← All invoices
      </a>
      <LoadState state={state} what="the invoice" />
      <LoadState state={books.state} what="the books" />
      {state.status === 'ready' && invoiceId && state.data === null && <p className="text-slate-700">There is no such invoice.</p>}
      {state.status === 'ready' &&
        books.state.status === 'ready' &&
        (!invoiceId || state.data?.status === 'draft' ? (
          <DraftEditor key={state.data?.id ?? 'new'} invoice={state.data} books={books.state.data} reload={reload} />
        ) : state.data ? (
          <SentInvoice invoice={state.data} reload={reload} />
        ) : null)}
    </section>
  );
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
      <legend className="mb-2 font-display text-xl font-bold text-navy">{legend}</legend>
      {children}
    </fieldset>
  );
}

function DraftEditor({ invoice, books, reload }: { invoice: InvoiceDetail | null; books: readonly InvoiceBook[]; reload: () => void }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name.replace(/\./g, '-')}`;
  const [form, setForm] = useState<DraftForm>(() => (invoice ? formOf(invoice) : { ...EMPTY, lines: books[0] ? [newLine(books[0].id)] : [] }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [confirmSend, setConfirmSend] = useState(false);
  // Why the last Send was refused (copies short, the provider down), kept in the dialog as well as the toast.
  const [sendError, setSendError] = useState<string | null>(null);
  const totals = useMemo(() => draftTotals(form, books), [form, books]);
  // Compared as the server reads them: "18.5" saved comes back "18.50", and is the same draft.
  const saved = useMemo(() => (invoice ? JSON.stringify(draftOf(formOf(invoice))) === JSON.stringify(draftOf(form)) : false), [invoice, form]);

  const set = <K extends keyof DraftForm>(key: K, value: DraftForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };
  const setLine = (index: number, change: Partial<LineForm>) => {
    setForm((f) => ({ ...f, lines: f.lines.map((l, i) => (i === index ? { ...l, ...change } : l)) }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(`lines.${index}.`) && k !== 'lines')));
  };
  const text = (name: keyof DraftForm, label: string, maxLength: number, extra: { optional?: boolean; type?: string; autoComplete?: string } = {}) => (
    <TextField id={fieldId(name)} name={name} label={label} maxLength={maxLength} value={String(form[name])} onChange={(e) => set(name, e.target.value as never)} error={errors[name]} {...extra} />
  );

  /** Checks the form; with errors, shows them and focuses the first. */
  function check(): boolean {
    const found = draftErrors(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (!first) return true;
    toast({ title: 'Please check the invoice', description: found[first], variant: 'error' });
    requestAnimationFrame(() => {
      const target = document.getElementById(fieldId(first)) ?? document.getElementById(fieldId(first.split('.')[0] ?? ''));
      target?.focus();
    });
    return false;
  }

  /** Saves the draft (creates it the first time); the invoice's id, or null when it failed. */
  async function save(): Promise<string | null> {
    if (!check()) return null;
    const draft = draftOf(form);
    try {
      const answer = invoice ? await runInvoiceAction({ action: 'update', invoiceId: invoice.id, draft }) : await runInvoiceAction({ action: 'create', draft });
      toast({ title: answer.message });
      return answer.invoiceId ?? invoice?.id ?? null;
    } catch (error) {
      toast({ title: error instanceof Error ? error.message : 'The invoice could not be saved.', variant: 'error' });
      return null;
    }
  }

  /** A new draft opens at its own address once saved; a saved one loads again. */
  const show = (savedId: string) => (invoice ? reload() : goTo(invoiceHref(savedId).slice(1), new URLSearchParams()));

  async function saveDraft() {
    if (busy) return;
    setBusy(true);
    try {
      const savedId = await save();
      if (savedId) show(savedId);
    } finally {
      setBusy(false);
    }
  }

  async function send(): Promise<boolean> {
    const savedId = saved && invoice ? invoice.id : await save();
    if (!savedId) return false;
    try {
      const answer = await runInvoiceAction({ action: 'send', invoiceId: savedId });
      toast({ title: answer.message });
      // A sent invoice is an order, to pack at once when it ships before payment: the header's count asks again.
      ordersChanged();
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The invoice could not be sent.';
      setSendError(message);
      toast({ title: message, variant: 'error' });
      return false;
    } finally {
      show(savedId);
    }
    return true;
  }

  const unused = books.filter((b) => !form.lines.some((l) => l.productId === b.id));
  const bookOf = (productId: string) => books.find((b) => b.id === productId);

  return (
    <>
      <form
        className="space-y-6"
        noValidate
        aria-labelledby="invoice-heading"
        onSubmit={(event) => {
          event.preventDefault();
          void saveDraft();
        }}
      >
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="invoice-heading" className="text-2xl font-bold">
            {invoice ? `Draft invoice ${invoiceNumber(invoice.number)}` : 'New invoice'}
          </h2>
          {invoice && <InvoiceStatus invoice={invoice} />}
          {invoice?.quote_id && (
            <a href={quoteHref(invoice.quote_id)} className="text-sm font-semibold text-navy underline">
              From a quote request
            </a>
          )}
        </div>

        <Fieldset legend="Bill to">
          <div className="grid gap-4 sm:grid-cols-2">
            {text('organisation', 'School, parish or group', INVOICE_RULES.organisationMaxLength)}
            {text('contactName', 'Contact name', LIMITS.nameMaxLength)}
            {text('email', 'Email (the invoice goes here)', LIMITS.emailMaxLength, { type: 'email' })}
            {text('phone', 'Phone', INVOICE_RULES.phoneMaxLength, { optional: true, type: 'tel' })}
            {text('poNumber', 'Purchase order number', INVOICE_RULES.poNumberMaxLength, { optional: true })}
          </div>
        </Fieldset>

        <Fieldset legend="Deliver to (Australia)">
          {text('line1', 'Street address', LIMITS.addressFieldMaxLength)}
          {text('line2', 'Address line 2', LIMITS.addressFieldMaxLength, { optional: true })}
          <div className="grid gap-4 sm:grid-cols-3">
            {text('city', 'Suburb or town', 100)}
            <div>
              <label htmlFor={fieldId('state')} className="label">
                State or territory
              </label>
              <select id={fieldId('state')} className="field" value={form.state} onChange={(e) => set('state', e.target.value)} {...invalidProps(fieldId('state'), errors.state)}>
                <option value="">Select…</option>
                {AU_STATE_CODES.map((code) => (
                  <option key={code} value={code}>
                    {code}
                  </option>
                ))}
              </select>
              <FieldError fieldId={fieldId('state')} message={errors.state} />
            </div>
            {text('postcode', 'Postcode', 20)}
          </div>
        </Fieldset>

        <Fieldset legend="Books">
          <p className="-mt-2 text-sm text-slate-700">Each book at its quantity price. Change a price only with a reason: the school sees the price, you see the reason.</p>
          {form.lines.map((line, index) => {
            const book = bookOf(line.productId);
            const figures = totals.lines[index];
            const key = (name: string) => `lines.${index}.${name}`;
            const changed = line.priceChanged && figures && figures.unit !== figures.listed;
            return (
              <div key={line.productId} className="grid gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200" data-testid="invoice-line">
                <div className="flex flex-wrap items-end gap-3">
                  <div className="min-w-48 flex-1">
                    <p className="label">Book</p>
                    <p className="font-semibold">{book?.title ?? line.productId}</p>
                  </div>
                  <TextField
                    id={fieldId(key('quantity'))}
                    label="Copies"
                    inputMode="numeric"
                    className="w-28"
                    value={line.quantity}
                    onChange={(e) => setLine(index, { quantity: e.target.value })}
                    error={errors[key('quantity')]}
                  />
                  <div className="min-w-40">
                    <p className="label">Price each</p>
                    <p>
                      {formatPrice(changed ? figures.unit : (figures?.listed ?? 0))}
                      <span className="text-sm text-slate-700">{changed ? ` changed from ${formatPrice(figures.listed)}` : ' quantity price'}</span>
                    </p>
                  </div>
                  <p className="ml-auto text-right">
                    <span className="block text-sm text-slate-700">Amount</span>
                    <strong>{formatPrice(figures?.amount ?? 0)}</strong>
                  </p>
                </div>
                <label className="flex items-center gap-2 text-sm font-semibold">
                  <input
                    type="checkbox"
                    className="h-4 w-4"
                    checked={line.priceChanged}
                    onChange={(e) => setLine(index, { priceChanged: e.target.checked, unitPrice: e.target.checked ? money2(figures?.listed ?? 0) : '', priceReason: '' })}
                  />
                  Charge another price for {book?.title ?? 'this book'}
                </label>
                {line.priceChanged && (
                  <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
                    <TextField
                      id={fieldId(key('unitPrice'))}
                      label="Price each (AUD)"
                      inputMode="decimal"
                      value={line.unitPrice}
                      onChange={(e) => setLine(index, { unitPrice: e.target.value })}
                      error={errors[key('unitPrice')]}
                    />
                    <TextField
                      id={fieldId(key('priceReason'))}
                      label="Reason for the price"
                      maxLength={INVOICE_RULES.reasonMaxLength}
                      value={line.priceReason}
                      onChange={(e) => setLine(index, { priceReason: e.target.value })}
                      error={errors[key('priceReason')]}
                    />
                  </div>
                )}
                {form.lines.length > 1 && (
                  <div>
                    <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => setForm((f) => ({ ...f, lines: f.lines.filter((_, i) => i !== index) }))}>
                      Remove {book?.title ?? 'this book'}
                    </button>
                  </div>
                )}
              </div>
            );
          })}
          {errors.lines && <p className="text-sm font-semibold text-red-800">{errors.lines}</p>}
          {unused.length > 0 && (
            <div className="flex flex-wrap gap-2">
              {unused.map((b) => (
                <button key={b.id} type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => setForm((f) => ({ ...f, lines: [...f.lines, newLine(b.id)] }))}>
                  Add {b.title}
                </button>
              ))}
            </div>
          )}
        </Fieldset>

        <Fieldset legend="Shipping">
          <div className="grid gap-2">
            {RATES.map((rate) => (
              <label key={rate.id} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="shipping"
                  className="h-4 w-4"
                  checked={form.shippingKind === 'rate_card' && form.rateId === rate.id}
                  onChange={() => setForm((f) => ({ ...f, shippingKind: 'rate_card', rateId: rate.id }))}
                />
                {rate.name} ({formatPrice(rate.price)}
                {rate.id === 'au-standard' && `, free from ${formatPrice(SHIPPING.freeShippingThreshold)}`})
              </label>
            ))}
            <label className="flex items-center gap-2">
              <input type="radio" name="shipping" className="h-4 w-4" checked={form.shippingKind === 'typed'} onChange={() => set('shippingKind', 'typed')} />
              Another price, with a reason
            </label>
          </div>
          {form.shippingKind === 'typed' && (
            <div className="grid gap-3 sm:grid-cols-3">
              {text('shippingName', 'Delivery method', 100)}
              <TextField
                id={fieldId('shippingAmount')}
                label="Shipping (AUD)"
                inputMode="decimal"
                value={form.shippingAmount}
                onChange={(e) => set('shippingAmount', e.target.value)}
                error={errors.shippingAmount}
              />
              {text('shippingReason', 'Reason for the price', INVOICE_RULES.reasonMaxLength)}
            </div>
          )}
        </Fieldset>

        <Fieldset legend="Terms">
          <div className="flex flex-wrap gap-4" role="radiogroup" aria-label="Payment terms">
            {INVOICE_RULES.termsDays.map((days) => (
              <label key={days} className="flex items-center gap-2">
                <input type="radio" name="terms" className="h-4 w-4" checked={form.termsDays === days} onChange={() => set('termsDays', days)} />
                {days} days to pay
              </label>
            ))}
          </div>
          <label className="flex items-start gap-2">
            <input type="checkbox" className="mt-1 h-4 w-4" checked={form.shipBeforePayment} onChange={(e) => set('shipBeforePayment', e.target.checked)} />
            <span>
              <strong>Ship before payment</strong>
              <span className="block text-sm text-slate-700">The order goes to To pack as soon as the invoice is sent, not when it is paid.</span>
            </span>
          </label>
          <div>
            <label htmlFor={fieldId('note')} className="label">
              Note on the invoice<span className="font-normal text-slate-600"> (optional)</span>
            </label>
            <textarea id={fieldId('note')} className="field" rows={3} maxLength={INVOICE_RULES.noteMaxLength} value={form.note} onChange={(e) => set('note', e.target.value)} />
          </div>
        </Fieldset>

        <section aria-label="Totals" className="rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
          <dl className="ml-auto grid max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1">
            <dt>Books</dt>
            <dd className="text-right">{formatPrice(totals.subtotal)}</dd>
            <dt>Shipping</dt>
            <dd className="text-right">{formatPrice(totals.shipping)}</dd>
            <dt className="font-bold">Total</dt>
            <dd className="text-right font-bold" data-testid="invoice-total">
              {formatPrice(totals.total)} AUD
            </dd>
            <dt className="text-slate-700">GST included</dt>
            <dd className="text-right text-slate-700">{formatPrice(totals.gst)}</dd>
          </dl>
          {!saved && <p className="mt-2 text-right text-sm text-slate-700">{invoice ? 'Not saved yet: ' : ''}the figures are priced for good when the draft is saved.</p>}
        </section>

        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-secondary" aria-disabled={busy || undefined}>
            {busy ? 'Saving...' : 'Save draft'}
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              if (check()) setConfirmSend(true);
            }}
          >
            Send invoice
          </button>
        </div>
      </form>
      {/* Outside the form: a form inside a form is not one the browser submits as its own. */}
      <ConfirmDialog
        open={confirmSend}
        title={`Send the invoice to ${form.email.trim() || 'the school'}?`}
        confirm="Send invoice"
        onConfirm={send}
        onClose={() => {
          setConfirmSend(false);
          setSendError(null);
        }}
      >
        <p>
          {form.organisation.trim() || 'The school'} is emailed an invoice for <strong>{formatPrice(totals.total)} AUD</strong>, due in {form.termsDays} days
          {form.poNumber.trim() ? `, with PO number ${form.poNumber.trim()}` : ', without a PO number'}. Its copies are held from stock until it is paid or voided.
        </p>
        {form.shipBeforePayment && <p>The order goes to To pack now, before payment.</p>}
        {sendError && (
          <p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-900">
            Not sent: {sendError}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}

function SentInvoice({ invoice, reload }: { invoice: InvoiceDetail; reload: () => void }) {
  const [dialog, setDialog] = useState<'void' | 'uncollectible' | 'credit' | null>(null);
  const [credit, setCredit] = useState({ amount: '', reason: '' });
  const [creditErrors, setCreditErrors] = useState<{ amount?: string; reason?: string }>({});
  const creditId = useId();
  const open = invoice.status === 'sent';
  const shipped = invoice.order_status === 'shipped' || invoice.order_status === 'completed';
  const copies = invoice.lines.reduce((n, l) => n + l.quantity, 0);
  const creditable = invoice.status === 'paid' ? Math.max(0, fromCents(toCents(invoice.total) - toCents(invoice.credited))) : 0;
  // Sent, voided or paid, the button that did it is gone: focus lands on the heading rather than nowhere.
  const headingRef = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: run again each time the invoice's state changes.
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (!document.activeElement || document.activeElement === document.body) headingRef.current?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [invoice.status]);

  async function act(request: Parameters<typeof runInvoiceAction>[0], failed: string): Promise<boolean> {
    const done = await toastOutcome(async () => (await runInvoiceAction(request)).message, failed);
    reload();
    // Paid, shipped before payment, voided: each can change what is to pack.
    ordersChanged();
    return done;
  }

  async function giveCredit(): Promise<boolean> {
    const cents = centsOf(credit.amount);
    const found: typeof creditErrors = {};
    if (!Number.isFinite(cents) || cents <= 0) found.amount = 'Please enter an amount in dollars and cents, more than zero.';
    else if (cents > toCents(creditable)) found.amount = `At most ${formatPrice(creditable)} is left to credit.`;
    if (!credit.reason.trim()) found.reason = 'Please give a reason for the credit.';
    setCreditErrors(found);
    if (found.amount || found.reason) {
      document.getElementById(`${creditId}-${found.amount ? 'amount' : 'reason'}`)?.focus();
      return false;
    }
    const done = await act({ action: 'credit', invoiceId: invoice.id, amountCents: cents, reason: credit.reason.trim() }, 'The credit note could not be made.');
    if (done) setCredit({ amount: '', reason: '' });
    return done;
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="invoice-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-bold">
          Invoice {invoiceNumber(invoice.number)}
        </h2>
        <InvoiceStatus invoice={invoice} />
      </div>
      <p className={invoice.overdue ? 'font-semibold text-red-800' : 'text-slate-700'}>
        {invoice.sent_at && <>Sent {formatDateTime(invoice.sent_at)} · </>}
        {invoice.terms_days} days to pay · {dueText(invoice)}
        {invoice.paid_at && <> · paid {formatDateTime(invoice.paid_at)}</>}
        {invoice.reminded_at && <> · reminded {formatDateTime(invoice.reminded_at)}</>}
      </p>
      <div className="flex flex-wrap gap-2">
        {open && <RemindButton invoice={invoice} onDone={reload} />}
        {invoice.hosted_url && (
          <a href={invoice.hosted_url} className="btn-secondary px-3 py-1.5 text-sm" target="_blank" rel="noopener">
            Open the invoice page
          </a>
        )}
        {invoice.order_id && (
          <a href={`#order/${invoice.order_id}`} className="btn-secondary px-3 py-1.5 text-sm">
            Open its order
          </a>
        )}
        {invoice.quote_id && (
          <a href={quoteHref(invoice.quote_id)} className="btn-secondary px-3 py-1.5 text-sm">
            Open its quote request
          </a>
        )}
      </div>

      <dl className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2">
        <Fact label="Bill to">
          {invoice.organisation}
          <span className="block">{invoice.contact_name}</span>
          <span className="block">
            <Email address={invoice.email} />
          </span>
          {invoice.phone && <span className="block">{invoice.phone}</span>}
        </Fact>
        <Fact label="Deliver to">
          <BlockLines lines={postalAddressLines({ ...invoice.address, postalCode: invoice.address.postcode })} />
        </Fact>
        <Fact label="Purchase order number">{invoice.po_number ?? 'None'}</Fact>
        <Fact label="Ship before payment">{invoice.ship_before_payment ? 'Yes: packed without waiting for payment' : 'No: packed once paid'}</Fact>
        {invoice.note && (
          <Fact label="Note">
            <span className="whitespace-pre-line">{invoice.note}</span>
          </Fact>
        )}
      </dl>

      <div className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Lines of the invoice</caption>
          <TableHead
            className="border-b border-slate-200 text-slate-600"
            cell="px-3 py-2"
            columns={['Book', { label: 'Copies', right: true }, { label: 'Price each', right: true }, { label: 'Amount', right: true }]}
          />
          <tbody>
            {invoice.lines.map((l) => (
              <tr key={l.product_id} className="border-b border-slate-100">
                <td className="px-3 py-2">
                  {l.title}
                  {l.price_reason && (
                    <span className="block text-slate-700">
                      Price changed from {formatPrice(l.list_unit_price)}: {l.price_reason}
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 text-right">{l.quantity}</td>
                <td className="px-3 py-2 text-right">{formatPrice(l.unit_price)}</td>
                <td className="px-3 py-2 text-right font-semibold">{formatPrice(l.amount)}</td>
              </tr>
            ))}
            <tr className="border-b border-slate-100">
              <td className="px-3 py-2" colSpan={3}>
                {invoice.shipping_name}
                {invoice.shipping_reason && <span className="block text-slate-700">{invoice.shipping_reason}</span>}
              </td>
              <td className="px-3 py-2 text-right">{formatPrice(invoice.shipping_amount)}</td>
            </tr>
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3} className="px-3 py-2 text-right">
                Total
              </th>
              <td className="px-3 py-2 text-right font-bold">{formatPrice(invoice.total)} AUD</td>
            </tr>
            <tr>
              <th scope="row" colSpan={3} className="px-3 py-2 text-right font-normal text-slate-700">
                {invoice.gst_applies ? 'GST included' : 'GST: none (an export, GST-free)'}
              </th>
              <td className="px-3 py-2 text-right text-slate-700">{invoice.gst_applies ? formatPrice(invoice.gst) : ''}</td>
            </tr>
            {invoice.credited > 0 && (
              <tr>
                <th scope="row" colSpan={3} className="px-3 py-2 text-right font-normal">
                  Credited
                </th>
                <td className="px-3 py-2 text-right">−{formatPrice(invoice.credited)}</td>
              </tr>
            )}
          </tfoot>
        </table>
      </div>

      {invoice.credit_notes.length > 0 && (
        <section aria-labelledby="credit-notes-heading">
          <h3 id="credit-notes-heading" className="text-lg font-bold">
            Credit notes
          </h3>
          <ul className="mt-2 space-y-1">
            {invoice.credit_notes.map((note) => (
              <li key={note.id}>
                {formatLongDate(note.created_at)}: <strong>{formatPrice(note.amount)}</strong> — {note.reason} ({note.status === 'succeeded' ? 'refunded' : note.status})
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="flex flex-wrap gap-2">
        {open && !shipped && (
          <button type="button" className="btn-secondary" onClick={() => void act({ action: 'ship_before_payment', invoiceId: invoice.id, value: !invoice.ship_before_payment }, 'The change failed.')}>
            {invoice.ship_before_payment ? 'Wait for payment before shipping' : 'Ship before payment'}
          </button>
        )}
        {invoice.status === 'paid' && creditable > 0 && (
          <button type="button" className="btn-secondary" onClick={() => setDialog('credit')}>
            Credit note
          </button>
        )}
        {open && (
          <>
            <button type="button" className="btn-secondary" onClick={() => setDialog('uncollectible')}>
              Mark uncollectible
            </button>
            <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => setDialog('void')}>
              Void invoice
            </button>
          </>
        )}
      </div>

      <ConfirmDialog
        open={dialog === 'void'}
        title={`Void invoice ${invoiceNumber(invoice.number)}?`}
        confirm="Void invoice"
        danger
        onConfirm={() => act({ action: 'void', invoiceId: invoice.id }, 'The invoice could not be voided.')}
        onClose={() => setDialog(null)}
      >
        <p>
          {invoice.organisation} can no longer pay it
          {/* Shipped books stay with the school: the server voids the invoice and leaves the order and the stock be. */}
          {shipped ? `. Its ${copies} copies were shipped, so nothing goes back into stock: the invoice is written off.` : `, its order is cancelled and its ${copies} copies go back into stock.`} This
          cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'uncollectible'}
        title={`Mark invoice ${invoiceNumber(invoice.number)} uncollectible?`}
        confirm="Mark uncollectible"
        danger
        onConfirm={() => act({ action: 'mark_uncollectible', invoiceId: invoice.id }, 'The invoice could not be changed.')}
        onClose={() => setDialog(null)}
      >
        <p>You do not expect {invoice.organisation} to pay. Its order is cancelled and its copies go back into stock unless they were shipped.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'credit'}
        title={`Credit note on ${invoiceNumber(invoice.number)}`}
        confirm="Make credit note"
        onConfirm={giveCredit}
        onClose={() => {
          setDialog(null);
          setCreditErrors({});
        }}
      >
        <p>
          The amount is refunded to {invoice.organisation}. At most {formatPrice(creditable)} is left to credit.
        </p>
        <TextField
          id={`${creditId}-amount`}
          label="Amount (AUD)"
          inputMode="decimal"
          value={credit.amount}
          onChange={(e) => setCredit((c) => ({ ...c, amount: e.target.value }))}
          error={creditErrors.amount}
        />
        <TextField
          id={`${creditId}-reason`}
          label="Reason"
          maxLength={INVOICE_RULES.reasonMaxLength}
          value={credit.reason}
          onChange={(e) => setCredit((c) => ({ ...c, reason: e.target.value }))}
          error={creditErrors.reason}
        />
      </ConfirmDialog>
    </div>
  );
}
