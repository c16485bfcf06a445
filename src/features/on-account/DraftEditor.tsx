/**
 * A draft invoice as a form on react-hook-form, checked by the contract's schema (the one the server parses): the
 * school or parish, where the books go, the PO number, the books, shipping from the rate card or typed with a
 * reason, the terms (14 or 30 days), a note and "Ship before payment"; the totals are the server's, asked as the
 * publisher types. Save draft keeps it; Send saves it and has it emailed (asked first in a dialog). An error is marked
 * and described under its field, the first one focused and named in a toast; the server checks everything again,
 * and its sentence is what the toast says.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { type FieldErrors, type FieldPath, get, useForm, useWatch } from 'react-hook-form';
import { LIMITS, SHIPPING } from '@/config/constants';
import { ActionButton, FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import { formatPrice } from '@/lib/format';
import { ConfirmDialog } from '@/features/admin/ConfirmDialog';
import { goTo } from '@/features/admin/route';
import { keys, ORDER_CHANGES, toastFailure, useRefresh } from '@/features/admin/queries';
import type { InvoiceDraft } from './contract';
import { DraftLines } from './DraftLines';
import { type DraftForm, draftOf, draftResolver, emptyDraft, fieldOrder, formOf, RATES } from './draft-form';
import { useDraftTotals } from './draft-preview';
import { Fieldset } from './Fieldset';
import { StateSelect } from './StateSelect';
import { InvoiceStatus } from './InvoicesPanel';
import { type InvoiceBook, type InvoiceDetail, runInvoiceAction } from './invoices-api';
import { invoiceHref, quoteHref } from './QuotesPanel';
import { INVOICE_RULES, invoiceNumber } from './rules';

export function DraftEditor({ invoice, books }: { invoice: InvoiceDetail | null; books: readonly InvoiceBook[] }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name.replace(/\./g, '-')}`;
  const defaultValues = useMemo(() => (invoice ? formOf(invoice) : emptyDraft(books[0]?.id)), [invoice, books]);
  const resolver = useMemo(() => draftResolver(), []);
  const { register, handleSubmit, control, setValue, getValues, formState } = useForm<DraftForm, unknown, InvoiceDraft>({ defaultValues, resolver });
  const { errors } = formState;
  const form = useWatch({ control }) as DraftForm;
  const [busy, setBusy] = useState(false);
  const refresh = useRefresh();
  const [confirmSend, setConfirmSend] = useState(false);
  // Why the last Send was refused (copies short, the provider down), kept in the dialog as well as the toast.
  const [sendError, setSendError] = useState<string | null>(null);
  // The draft as checked when Send was pressed: what the dialog's Send saves.
  const checked = useRef<InvoiceDraft | null>(null);
  const { totals, pricing, problem } = useDraftTotals(form, invoice);
  // Compared as the server reads them: "18.5" saved comes back "18.50", and is the same draft.
  const saved = useMemo(() => (invoice ? JSON.stringify(draftOf(formOf(invoice))) === JSON.stringify(draftOf(form)) : false), [invoice, form]);

  const errorOf = (name: string, found: object = errors) => get<object, { message?: string } | undefined>(found, name)?.message;
  const text = (name: FieldPath<DraftForm>, label: string, maxLength: number, extra: { optional?: boolean; type?: string } = {}) => (
    <TextField id={fieldId(name)} label={label} maxLength={maxLength} error={errorOf(name)} {...extra} {...register(name)} />
  );

  /** The first error in the page's order, named in a toast; react-hook-form focuses its field. */
  const invalid = (found: FieldErrors<DraftForm>) => {
    const first = fieldOrder(getValues())
      .map((name) => errorOf(name, found))
      .find(Boolean);
    toast({ title: 'Please check the invoice', description: first, variant: 'error' });
  };

  /** Saves the draft (creates it the first time); the invoice's id, or null when it failed. */
  async function save(draft: InvoiceDraft): Promise<string | null> {
    try {
      const answer = invoice ? await runInvoiceAction({ action: 'update', invoiceId: invoice.id, draft }) : await runInvoiceAction({ action: 'create', draft });
      toast({ title: answer.message });
      return answer.invoiceId ?? invoice?.id ?? null;
    } catch (error) {
      toastFailure(error, 'The invoice could not be saved.');
      return null;
    }
  }

  /** A new draft opens at its own address once saved; a saved one is read again. */
  const show = (savedId: string) => (invoice ? void refresh(keys.invoices) : goTo(invoiceHref(savedId).slice(1), new URLSearchParams()));

  const saveDraft = handleSubmit(async (draft) => {
    if (busy) return;
    setBusy(true);
    try {
      const savedId = await save(draft);
      if (savedId) show(savedId);
    } finally {
      setBusy(false);
    }
  }, invalid);

  async function send(): Promise<boolean> {
    const savedId = saved && invoice ? invoice.id : checked.current && (await save(checked.current));
    if (!savedId) return false;
    try {
      const answer = await runInvoiceAction({ action: 'send', invoiceId: savedId });
      toast({ title: answer.message });
      // A sent invoice is an order, to pack at once when it ships before payment: the header's count asks again.
      void refresh(...ORDER_CHANGES);
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

  const stateId = fieldId('address.state');
  const amounts = { subtotal: totals?.subtotal ?? 0, shipping: totals?.shipping.amount ?? 0, total: totals?.total ?? 0, gst: totals?.gst ?? 0 };
  return (
    <>
      <form className="space-y-6" noValidate aria-labelledby="invoice-heading" onSubmit={saveDraft}>
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
          {text('address.line1', 'Street address', LIMITS.addressFieldMaxLength)}
          {text('address.line2', 'Address line 2', LIMITS.addressFieldMaxLength, { optional: true })}
          <div className="grid gap-4 sm:grid-cols-3">
            {text('address.city', 'Suburb or town', 100)}
            <StateSelect id={stateId} error={errorOf('address.state')} {...register('address.state')} />
            {text('address.postcode', 'Postcode', 20)}
          </div>
        </Fieldset>

        <DraftLines form={form} books={books} totals={totals} control={control} register={register} setValue={setValue} errors={errors} fieldId={fieldId} />

        <Fieldset legend="Shipping">
          <div className="grid gap-2">
            {RATES.map((rate) => (
              <label key={rate.id} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="shipping"
                  className="h-4 w-4"
                  checked={form.shipping.kind === 'rate_card' && form.shipping.rateId === rate.id}
                  onChange={() => {
                    setValue('shipping.kind', 'rate_card');
                    setValue('shipping.rateId', rate.id);
                  }}
                />
                {rate.name} ({formatPrice(rate.price)}
                {rate.id === 'au-standard' && `, free from ${formatPrice(SHIPPING.freeShippingThreshold)}`})
              </label>
            ))}
            <label className="flex items-center gap-2">
              <input type="radio" name="shipping" className="h-4 w-4" checked={form.shipping.kind === 'typed'} onChange={() => setValue('shipping.kind', 'typed')} />
              Another price, with a reason
            </label>
          </div>
          {form.shipping.kind === 'typed' && (
            <div className="grid gap-3 sm:grid-cols-3">
              {text('shipping.name', 'Delivery method', 100)}
              <TextField id={fieldId('shipping.amount')} label="Shipping (AUD)" inputMode="decimal" error={errorOf('shipping.amount')} {...register('shipping.amount')} />
              {text('shipping.reason', 'Reason for the price', INVOICE_RULES.reasonMaxLength)}
            </div>
          )}
        </Fieldset>

        <Fieldset legend="Terms">
          <div className="flex flex-wrap gap-4" role="radiogroup" aria-label="Payment terms">
            {INVOICE_RULES.termsDays.map((days) => (
              <label key={days} className="flex items-center gap-2">
                <input type="radio" name="terms" className="h-4 w-4" checked={form.termsDays === days} onChange={() => setValue('termsDays', days)} />
                {days} days to pay
              </label>
            ))}
          </div>
          <label className="flex items-start gap-2">
            <input type="checkbox" className="mt-1 h-4 w-4" {...register('shipBeforePayment')} />
            <span>
              <strong>Ship before payment</strong>
              <span className="block text-sm text-slate-700">The order goes to To pack as soon as the invoice is sent, not when it is paid.</span>
            </span>
          </label>
          <div>
            <label htmlFor={fieldId('note')} className="label">
              Note on the invoice<span className="font-normal text-slate-600"> (optional)</span>
            </label>
            <textarea id={fieldId('note')} className="field" rows={3} maxLength={INVOICE_RULES.noteMaxLength} {...register('note')} {...invalidProps(fieldId('note'), errorOf('note'))} />
            <FieldError fieldId={fieldId('note')} message={errorOf('note')} />
          </div>
        </Fieldset>

        <section aria-label="Totals" aria-busy={pricing || undefined} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
          <dl className="ml-auto grid max-w-sm grid-cols-[1fr_auto] gap-x-6 gap-y-1">
            <dt>Books</dt>
            <dd className="text-right">{formatPrice(amounts.subtotal)}</dd>
            <dt>Shipping</dt>
            <dd className="text-right">{formatPrice(amounts.shipping)}</dd>
            <dt className="font-bold">Total</dt>
            <dd className="text-right font-bold" data-testid="invoice-total">
              {formatPrice(amounts.total)} AUD
            </dd>
            <dt className="text-slate-700">GST included</dt>
            <dd className="text-right text-slate-700">{formatPrice(amounts.gst)}</dd>
          </dl>
          {problem && <p className="mt-2 text-right text-sm font-semibold text-red-800">The totals could not be worked out: {problem}</p>}
          {!saved && <p className="mt-2 text-right text-sm text-slate-700">{invoice ? 'Not saved yet: ' : ''}the figures are priced for good when the draft is saved.</p>}
        </section>

        <div className="flex flex-wrap gap-2">
          <ActionButton type="submit" className="btn-secondary" busy={busy}>
            {busy ? 'Saving...' : 'Save draft'}
          </ActionButton>
          <button
            type="button"
            className="btn-primary"
            onClick={handleSubmit((draft) => {
              checked.current = draft;
              setConfirmSend(true);
            }, invalid)}
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
          {form.organisation.trim() || 'The school'} is emailed an invoice for <strong>{formatPrice(amounts.total)} AUD</strong>, due in {form.termsDays} days
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
