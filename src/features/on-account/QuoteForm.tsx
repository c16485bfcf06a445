/**
 * The quote request for schools, parishes and groups buying on account: who they are, where the books go, how many
 * copies of each book (none of some, but some of one), when they are needed, their purchase order number if they
 * have one, and a note. Checked by the contract's schema through react-hook-form (each error marked, described under
 * its field, and the first one focused), then sent as a `quote` to /api/send-notification with the same bot-check as
 * the contact form; the server parses it with the same schema. The fields are the browser's own (registered, not
 * controlled), so what was typed before the island hydrated is read when it does.
 */
import { type SubmitEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type FieldPath, get, useForm, useWatch } from 'react-hook-form';
import { LIMITS } from '@/config/constants';
import { priceLine } from '@/features/catalog/quantity-prices';
import { toast } from '@/features/toast/store';
import { formatPrice, shopDay } from '@/lib/format';
import { errorId, FieldError, SubmitButton, TextField } from '@/features/forms/fields';
import { useNotificationForm } from '@/features/forms/use-notification-form';
import type { QuoteRequestData } from './contract';
import { StateSelect } from './StateSelect';
import { INVOICE_RULES } from './rules';
import { copiesOf, type QuoteBook, type QuoteFields, quoteResolver } from './quote-form';

export type { QuoteBook } from './quote-form';

/** "40 × $18.00 each = $720.00": what these copies come to at their quantity price, as the book pages say it. */
function LinePreview({ book, copies }: { book: QuoteBook; copies: number }) {
  // A quantity the form refuses gets no price beside its error.
  if (!Number.isInteger(copies) || copies <= 0 || copies > INVOICE_RULES.maxLineQuantity) return null;
  const line = priceLine(book.price, book.quantityPrices, copies);
  return (
    <p className="mt-1 text-sm text-slate-700">
      {copies} × {formatPrice(line.unitPrice)} each = {formatPrice(line.lineTotal)}
      {line.saving > 0 && `, you save ${formatPrice(line.saving)}`}
    </p>
  );
}

export default function QuoteForm({ books }: { books: readonly QuoteBook[] }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name.replace(/\./g, '-')}`;
  const [sent, setSent] = useState<string | null>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const resolver = useMemo(() => quoteResolver(books), [books]);
  const { register, handleSubmit, reset, clearErrors, control, formState } = useForm<QuoteFields, unknown, QuoteRequestData>({ resolver });
  const { errors } = formState;
  const copies = useWatch({ control, name: 'copies' });

  // The request as the contract's schema checked it, for the shared send (bot-check, busy state, answer).
  const checked = useRef<QuoteRequestData | null>(null);
  const {
    busy,
    hydrated,
    onSubmit: sendChecked,
  } = useNotificationForm({
    type: 'quote',
    check: () => checked.current !== null,
    read: () => checked.current as QuoteRequestData,
    answered: ({ outcome, message }, _form, data) => {
      if (outcome === 'stored') {
        toast({ title: 'Quote request sent!', description: "Thank you. We'll email your quote within two business days.", variant: 'success' });
        reset();
        setSent(data.email);
      } else if (outcome === 'rejected' && message) {
        toast({ title: 'Failed to send your request', description: message, variant: 'error' });
      } else {
        toast({ title: 'Failed to send your request', description: 'Please try again later.', variant: 'error' });
      }
    },
  });
  /** Checked by the schema first (errors marked, the first focused); only a request it takes is sent. */
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    checked.current = null;
    await handleSubmit((data) => {
      checked.current = data;
    })();
    if (checked.current) await sendChecked({ currentTarget: form, preventDefault: () => undefined } as unknown as SubmitEvent<HTMLFormElement>);
  }

  // The answer replaces the form: focus moves to it, so a keyboard or screen reader user is not left nowhere.
  // And back to the form's first field when another quote is asked for.
  const answered = useRef(false);
  useEffect(() => {
    if (sent) sentRef.current?.focus();
    else if (answered.current) formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
    answered.current = sent !== null;
  }, [sent]);

  const errorOf = (name: FieldPath<QuoteFields>) => get<object, { message?: string } | undefined>(errors, name)?.message;
  const field = (name: FieldPath<QuoteFields>, maxLength: number) => ({ id: fieldId(name), maxLength, error: errorOf(name), ...register(name) });

  if (sent)
    return (
      <div ref={sentRef} tabIndex={-1} className="rounded-2xl bg-green-50 p-6 text-green-950 ring-1 ring-green-300" data-testid="quote-sent">
        <h3 className="text-2xl font-bold text-green-950">Thank you, your quote request is on its way</h3>
        <p className="mt-2">We'll email your quote to {sent} within two business days. Reply to it with your purchase order number when you are ready, and we'll send the invoice and the books.</p>
        <button type="button" className="btn-secondary mt-4 bg-white" onClick={() => setSent(null)}>
          Request another quote
        </button>
      </div>
    );

  // The copies' error, said once under them: the books' one (no copies at all) marks every copies field; a count
  // that is not one marks only its own.
  const copiesError = books.map((book) => errorOf(`copies.${book.id}`)).find(Boolean);
  const allBooks = Object.values(errors.copies ?? {}).some((error) => error?.type === 'copies');
  return (
    <form ref={formRef} className="grid gap-6" onSubmit={onSubmit} noValidate aria-label="Quote request">
      <p className="text-sm text-slate-700">Fields marked (optional) may be left blank; all others are required.</p>
      <fieldset className="grid gap-4">
        <legend className="mb-2 font-display text-xl font-bold text-navy">Your organisation</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="School, parish or group" autoComplete="organization" {...field('organisation', INVOICE_RULES.organisationMaxLength)} />
          <TextField label="Contact name" autoComplete="name" {...field('contactName', LIMITS.nameMaxLength)} />
          <TextField label="Email" type="email" autoComplete="email" {...field('email', LIMITS.emailMaxLength)} />
          <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone', INVOICE_RULES.phoneMaxLength)} />
        </div>
      </fieldset>

      <fieldset className="grid gap-4">
        <legend className="mb-2 font-display text-xl font-bold text-navy">Delivery address in Australia</legend>
        <TextField label="Street address" autoComplete="address-line1" {...field('address.line1', LIMITS.addressFieldMaxLength)} />
        <TextField label="Address line 2" optional autoComplete="address-line2" {...field('address.line2', LIMITS.addressFieldMaxLength)} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Suburb or town" autoComplete="address-level2" {...field('address.city', LIMITS.addressFieldMaxLength)} />
          <StateSelect id={fieldId('address.state')} error={errorOf('address.state')} autoComplete="address-level1" defaultValue="" {...register('address.state')} />
          <TextField label="Postcode" inputMode="numeric" autoComplete="postal-code" {...field('address.postcode', 4)} />
        </div>
      </fieldset>

      <fieldset className="grid gap-4" aria-describedby={`${fieldId('copies')}-hint`}>
        <legend className="mb-2 font-display text-xl font-bold text-navy">Copies</legend>
        <p id={`${fieldId('copies')}-hint`} className="-mt-2 text-sm text-slate-700">
          How many copies of each book? Leave a book at 0 if you don't need it.
        </p>
        {books.map((book) => {
          const inputId = fieldId(`copies-${book.id}`);
          return (
            <div key={book.id}>
              <label htmlFor={inputId} className="label">
                {book.title}
              </label>
              <input
                id={inputId}
                type="number"
                min={0}
                max={INVOICE_RULES.maxLineQuantity}
                step={1}
                inputMode="numeric"
                defaultValue={0}
                className="field max-w-40"
                {...register(`copies.${book.id}`, {
                  // Typing in any book's copies answers the books' one error.
                  onChange: () => clearErrors('copies'),
                })}
                {...((allBooks || errorOf(`copies.${book.id}`)) && { 'aria-invalid': true, 'aria-describedby': errorId(fieldId('copies')) })}
              />
              <LinePreview book={book} copies={copiesOf(copies?.[book.id])} />
            </div>
          );
        })}
        <FieldError fieldId={fieldId('copies')} message={copiesError} />
      </fieldset>

      <fieldset className="grid gap-4">
        <legend className="mb-2 font-display text-xl font-bold text-navy">Your order</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField id={fieldId('neededBy')} label="Needed by" type="date" optional min={hydrated ? shopDay() : undefined} error={errorOf('neededBy')} {...register('neededBy')} />
          <TextField label="Purchase order number" optional {...field('poNumber', INVOICE_RULES.poNumberMaxLength)} />
        </div>
        <div>
          <label htmlFor={fieldId('note')} className="label">
            Note<span className="font-normal text-slate-600"> (optional)</span>
          </label>
          <textarea id={fieldId('note')} {...register('note')} rows={4} className="field" maxLength={INVOICE_RULES.noteMaxLength} aria-describedby={`${fieldId('note')}-hint`} />
          <p id={`${fieldId('note')}-hint`} className="mt-1 text-sm text-slate-700">
            Payment terms you need (14 or 30 days), delivery times, or anything else we should know.
          </p>
        </div>
      </fieldset>

      <div>
        <SubmitButton className="w-full sm:w-auto" hydrated={hydrated} busy={busy} label="Request a Quote" busyLabel="Sending..." busyText="Sending your quote request..." />
      </div>
    </form>
  );
}
