/**
 * The quote request for schools, parishes and groups buying on account: who they are, where the books go, how many
 * copies of each book (none of some, but some of one), when they are needed, their purchase order number if they
 * have one, and a note. Checked here field by field (each error marked, described under its field, and the first one
 * focused), then sent as a `quote` to /api/send-notification with the same bot-check as the contact form; the
 * server checks it all again. The fields are the browser's, as on the contact form, so what was typed before the
 * island hydrated is sent too.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { AU_STATE_CODES, LIMITS } from '@/config/constants';
import { priceLine, type QuantityPrice } from '@/features/catalog/quantity-prices';
import { toast } from '@/features/toast/store';
import { isEmailAddress } from '@/lib/email';
import { isPhoneNumber } from './rules';
import { formatPrice, shopDay } from '@/lib/format';
import { errorId, FieldError, INVALID_EMAIL_MESSAGE, invalidProps, SubmitButton, TextField } from '@/features/forms/fields';
import { QUOTE_LIMITS, type QuoteRequestData } from './quote';
import { fieldValue } from '@/features/forms/submit';
import { useNotificationForm } from '@/features/forms/use-notification-form';

export interface QuoteBook {
  id: string;
  title: string;
  /** AUD per copy, before any quantity price. */
  price: number;
  quantityPrices: readonly QuantityPrice[];
}

type Field = 'organisation' | 'contactName' | 'email' | 'phone' | 'line1' | 'city' | 'state' | 'postcode' | 'copies' | 'neededBy' | 'poNumber';
type Errors = Partial<Record<Field, string>>;

/** The fields in the order they appear, so the first one in error is the one focused. */
const ORDER: readonly Field[] = ['organisation', 'contactName', 'email', 'phone', 'line1', 'city', 'state', 'postcode', 'copies', 'neededBy', 'poNumber'];

const copiesName = (productId: string) => `copies-${productId}`;

/** A whole number of copies from a field: blank is none; anything else that is not a count is NaN. */
export function copiesOf(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** A field's value by its name, trimmed (`fieldValue` over the form). */
type Values = (name: string) => string;

/** What is wrong with the form as filled in, field by field (empty when nothing is); `today` is the shop's day, yyyy-mm-dd. */
export function quoteErrors(value: Values, books: readonly QuoteBook[], today: string): Errors {
  const errors: Errors = {};
  const need = (field: Field, message: string) => {
    if (!value(field)) errors[field] = message;
  };
  need('organisation', "Please enter your school, parish or group's name.");
  need('contactName', 'Please enter your name.');
  if (!value('email')) errors.email = 'Please enter your email address.';
  else if (!isEmailAddress(value('email'))) errors.email = INVALID_EMAIL_MESSAGE;
  if (!value('phone')) errors.phone = 'Please enter a phone number.';
  else if (!isPhoneNumber(value('phone'))) errors.phone = 'Please enter a phone number, digits only (spaces, +, - and brackets are fine).';
  need('line1', 'Please enter the street address.');
  need('city', 'Please enter the suburb or town.');
  need('state', 'Please choose the state or territory.');
  if (!value('postcode')) errors.postcode = 'Please enter the postcode.';
  else if (!/^\d{4}$/.test(value('postcode'))) errors.postcode = 'An Australian postcode has four digits.';
  const copies = books.map((book) => copiesOf(value(copiesName(book.id))));
  if (copies.some((n) => !Number.isInteger(n) || n > QUOTE_LIMITS.maxCopies)) errors.copies = `Please enter a whole number of copies, from 0 to ${QUOTE_LIMITS.maxCopies.toLocaleString('en-AU')}.`;
  else if (!copies.some((n) => n > 0)) errors.copies = books.length === 1 ? 'Please enter how many copies you need.' : 'Please enter how many copies you need of at least one book.';
  const neededBy = value('neededBy');
  if (neededBy && !/^\d{4}-\d{2}-\d{2}$/.test(neededBy)) errors.neededBy = 'Please enter a date, or leave it blank.';
  else if (neededBy && neededBy < today) errors.neededBy = 'That date has passed. Please choose today or a later day.';
  if (value('poNumber').length > QUOTE_LIMITS.poNumberMaxLength) errors.poNumber = `A purchase order number can be at most ${QUOTE_LIMITS.poNumberMaxLength} characters.`;
  return errors;
}

/** The request as the server takes it: only the books with copies, and no empty optional field. */
export function readQuote(value: Values, books: readonly QuoteBook[]): QuoteRequestData {
  const optional = (name: string) => value(name) || undefined;
  return {
    organisation: value('organisation'),
    contactName: value('contactName'),
    email: value('email'),
    phone: value('phone'),
    address: { line1: value('line1'), line2: optional('line2'), city: value('city'), state: value('state'), postcode: value('postcode'), country: 'AU' },
    lines: books.map((book) => ({ productId: book.id, quantity: copiesOf(value(copiesName(book.id))) })).filter((line) => line.quantity > 0),
    neededBy: optional('neededBy'),
    poNumber: optional('poNumber'),
    note: optional('note'),
  };
}

/** "40 × $18.00 each = $720.00": what these copies come to at their quantity price, as the book pages say it. */
function LinePreview({ book, copies }: { book: QuoteBook; copies: number }) {
  // A quantity the form refuses gets no price beside its error.
  if (!Number.isInteger(copies) || copies <= 0 || copies > QUOTE_LIMITS.maxCopies) return null;
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
  const fieldId = (name: string) => `${id}-${name}`;
  const [errors, setErrors] = useState<Errors>({});
  const [copies, setCopies] = useState<Record<string, number>>({});
  const [sent, setSent] = useState<string | null>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const { busy, hydrated, onSubmit } = useNotificationForm({
    type: 'quote',
    check: (form) => {
      const found = quoteErrors((name) => fieldValue(form, name), books, shopDay());
      setErrors(found);
      const first = ORDER.find((field) => found[field]);
      if (!first) return true;
      // The copies' error belongs to the first book's field; every other error to its own field.
      const target = first === 'copies' ? form.elements.namedItem(copiesName(books[0]?.id ?? '')) : form.elements.namedItem(first);
      if (target instanceof HTMLElement) target.focus();
      return false;
    },
    read: (form) => readQuote((name) => fieldValue(form, name), books),
    answered: ({ outcome, message }, form, data) => {
      if (outcome === 'stored') {
        toast({ title: 'Quote request sent!', description: "Thank you. We'll email your quote within two business days.", variant: 'success' });
        form.reset();
        setCopies({});
        setSent(data.email);
      } else if (outcome === 'rejected' && message) {
        toast({ title: 'Failed to send your request', description: message, variant: 'error' });
      } else {
        toast({ title: 'Failed to send your request', description: 'Please try again later.', variant: 'error' });
      }
    },
  });

  // The answer replaces the form: focus moves to it, so a keyboard or screen reader user is not left nowhere.
  // And back to the form's first field when another quote is asked for.
  const answered = useRef(false);
  useEffect(() => {
    if (sent) sentRef.current?.focus();
    else if (answered.current) formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
    answered.current = sent !== null;
  }, [sent]);

  const errorOf = (field: Field) => errors[field];
  const clear = (field: Field) => () => {
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };
  const field = (name: Field, maxLength: number) => ({ id: fieldId(name), name, maxLength, error: errorOf(name), onInput: clear(name) });

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

  const copiesError = errorOf('copies');
  return (
    <form ref={formRef} className="grid gap-6" onSubmit={onSubmit} noValidate aria-label="Quote request">
      <p className="text-sm text-slate-700">Fields marked (optional) may be left blank; all others are required.</p>
      <fieldset className="grid gap-4">
        <legend className="mb-2 font-display text-xl font-bold text-navy">Your organisation</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="School, parish or group" autoComplete="organization" {...field('organisation', QUOTE_LIMITS.organisationMaxLength)} />
          <TextField label="Contact name" autoComplete="name" {...field('contactName', LIMITS.nameMaxLength)} />
          <TextField label="Email" type="email" autoComplete="email" {...field('email', LIMITS.emailMaxLength)} />
          <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone', QUOTE_LIMITS.phoneMaxLength)} />
        </div>
      </fieldset>

      <fieldset className="grid gap-4">
        <legend className="mb-2 font-display text-xl font-bold text-navy">Delivery address in Australia</legend>
        <TextField label="Street address" autoComplete="address-line1" {...field('line1', QUOTE_LIMITS.addressLineMaxLength)} />
        <TextField id={fieldId('line2')} name="line2" label="Address line 2" optional autoComplete="address-line2" maxLength={QUOTE_LIMITS.addressLineMaxLength} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Suburb or town" autoComplete="address-level2" {...field('city', QUOTE_LIMITS.addressLineMaxLength)} />
          <div>
            <label htmlFor={fieldId('state')} className="label">
              State or territory
            </label>
            <select id={fieldId('state')} name="state" className="field" autoComplete="address-level1" defaultValue="" onChange={clear('state')} {...invalidProps(fieldId('state'), errorOf('state'))}>
              <option value="">Select…</option>
              {AU_STATE_CODES.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
            <FieldError fieldId={fieldId('state')} message={errorOf('state')} />
          </div>
          <TextField label="Postcode" inputMode="numeric" autoComplete="postal-code" {...field('postcode', 4)} />
        </div>
      </fieldset>

      <fieldset className="grid gap-4" aria-describedby={`${fieldId('copies')}-hint`}>
        <legend className="mb-2 font-display text-xl font-bold text-navy">Copies</legend>
        <p id={`${fieldId('copies')}-hint`} className="-mt-2 text-sm text-slate-700">
          How many copies of each book? Leave a book at 0 if you don't need it.
        </p>
        {books.map((book) => {
          const name = copiesName(book.id);
          const inputId = fieldId(name);
          return (
            <div key={book.id}>
              <label htmlFor={inputId} className="label">
                {book.title}
              </label>
              <input
                id={inputId}
                name={name}
                type="number"
                min={0}
                max={QUOTE_LIMITS.maxCopies}
                step={1}
                inputMode="numeric"
                defaultValue={0}
                className="field max-w-40"
                onInput={(event) => {
                  const n = copiesOf(event.currentTarget.value);
                  setCopies((before) => ({ ...before, [book.id]: n }));
                  clear('copies')();
                }}
                {...(copiesError && { 'aria-invalid': true, 'aria-describedby': errorId(fieldId('copies')) })}
              />
              <LinePreview book={book} copies={copies[book.id] ?? 0} />
            </div>
          );
        })}
        <FieldError fieldId={fieldId('copies')} message={copiesError} />
      </fieldset>

      <fieldset className="grid gap-4">
        <legend className="mb-2 font-display text-xl font-bold text-navy">Your order</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField id={fieldId('neededBy')} name="neededBy" label="Needed by" type="date" optional min={hydrated ? shopDay() : undefined} error={errorOf('neededBy')} onInput={clear('neededBy')} />
          <TextField label="Purchase order number" optional {...field('poNumber', QUOTE_LIMITS.poNumberMaxLength)} />
        </div>
        <div>
          <label htmlFor={fieldId('note')} className="label">
            Note<span className="font-normal text-slate-600"> (optional)</span>
          </label>
          <textarea id={fieldId('note')} name="note" rows={4} className="field" maxLength={QUOTE_LIMITS.noteMaxLength} aria-describedby={`${fieldId('note')}-hint`} />
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
