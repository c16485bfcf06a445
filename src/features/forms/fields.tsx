/**
 * Small pieces the form islands share: labelled fields, the busy-state announcement, and the checks the
 * browser's own validation misses: a required field holding only spaces, and an address `type=email`
 * accepts but the shop does not (see `isEmailAddress`: no `?`, `%` or `&`, a dot in the domain, and more).
 */
import { type ComponentProps, type ReactNode, useId } from 'react';
import { LIMITS } from '@/config/constants';
import { toast } from '@/features/toast/store';
import { isEmailAddress } from '@/lib/email';

const BLANK_FIELD_MESSAGE = 'Please fill out this field.';
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address.';

/** What both forms say when the server refuses their bot-check token (403). */
export const verificationFailed = () => toast({ title: 'Verification failed', description: 'Please try again later.', variant: 'error' });

/** Marks the first field that fails those checks invalid and reports it; true when all are fine. */
export function checkFields(form: HTMLFormElement): boolean {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) continue;
    const value = element.value.trim();
    const problem = element.required && value === '' ? BLANK_FIELD_MESSAGE : element.type === 'email' && value !== '' && !isEmailAddress(value) ? INVALID_EMAIL_MESSAGE : '';
    if (problem) {
      element.setCustomValidity(problem);
      element.reportValidity();
      return false;
    }
  }
  return true;
}

/** Clears a custom "blank" message as soon as the person types again. */
function clearCustomValidity(event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }): void {
  event.currentTarget.setCustomValidity('');
}

interface LabelledProps {
  id: string;
  label: ReactNode;
  className?: string;
}

/** The id of a field's error message, which the field names in `aria-describedby`. */
export const errorId = (fieldId: string) => `${fieldId}-error`;

/** A field's error, under it, tied to it. */
export function FieldError({ fieldId, message }: { fieldId: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={errorId(fieldId)} className="mt-1 text-sm font-semibold text-red-800">
      {message}
    </p>
  );
}

/**
 * What marks a field invalid for assistive technology and ties its message to it; `hint` is the id of what describes
 * the field whether or not it is in error (its characters left, say), read before the message.
 */
export function invalidProps(fieldId: string, error: string | undefined, hint?: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const describedBy = [hint, error ? errorId(fieldId) : null].filter(Boolean).join(' ');
  return { ...(error ? { 'aria-invalid': true as const } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) };
}

/** The id of a field's count of characters left, which the field names in `aria-describedby` (as `hint` above). */
export const countId = (fieldId: string) => `${fieldId}-count`;

const characters = (n: number) => `${n.toLocaleString('en-AU')} ${n === 1 ? 'character' : 'characters'}`;

/**
 * How many characters a field has left, or how many too many, under it: said as the person types (a polite live
 * region) rather than the text being cut at a maxlength without a word. `length` is counted as the field's check counts.
 */
export function CharacterCount({ fieldId, length, max }: { fieldId: string; length: number; max: number }) {
  const over = length > max;
  return (
    <p id={countId(fieldId)} aria-live="polite" className={`mt-1 text-sm ${over ? 'font-semibold text-red-800' : 'text-slate-600'}`}>
      {over ? `${characters(length - max)} too many` : `${characters(max - length)} left`}
    </p>
  );
}

/**
 * A labelled input; `optional` says so in the label, for forms where most fields are required; `error` marks
 * it invalid with the message under it. `ref` reaches the input (react-hook-form's `register` focuses it).
 */
export function TextField({ id, label, className = '', optional = false, error, ...input }: LabelledProps & { optional?: boolean; error?: string | undefined } & ComponentProps<'input'>) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
        {optional && <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      <input id={id} type="text" className="field" onInput={clearCustomValidity} {...invalidProps(id, error)} {...input} />
      <FieldError fieldId={id} message={error} />
    </div>
  );
}

export function TextAreaField({ id, label, className = '', ...textarea }: LabelledProps & ComponentProps<'textarea'>) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <textarea id={id} className="field" onInput={clearCustomValidity} {...textarea} />
    </div>
  );
}

/**
 * A button that cannot act for now: its action is running (`busy`), or there is nothing to do yet (`ready` false, a
 * note unchanged). It is never `disabled`, since a disabled button that has focus drops it to the page and a
 * keyboard user is lost: it stays focusable, marked `aria-disabled` (the `btn` classes give it the disabled look),
 * and a press, a form's Enter included, does nothing. A plain button unless `type` says submit.
 */
export function ActionButton({ busy, ready = true, type = 'button', onClick, ...button }: ComponentProps<'button'> & { busy: boolean; ready?: boolean }) {
  const held = busy || !ready;
  return (
    <button
      {...button}
      type={type}
      aria-disabled={held || undefined}
      onClick={(event) => {
        // The click is what submits a form (Enter in a field clicks its first submit button too): cancelled, nothing is sent.
        if (held) event.preventDefault();
        else onClick?.(event);
      }}
    />
  );
}

/** `busyText` is what screen readers hear while busy (the button's `busyLabel` unless given). */
type SubmitButtonProps = { hydrated: boolean; busy: boolean; label: string; busyLabel: string; busyText?: string; className?: string };

/** The submit button: disabled until the island hydrates (a submit before then would leave the page), busy while sending. */
export function SubmitButton({ hydrated, busy, label, busyLabel, busyText = busyLabel, className = '' }: SubmitButtonProps) {
  return (
    <>
      <ActionButton type="submit" className={`btn-primary ${className}`} disabled={!hydrated} busy={busy}>
        {busy ? busyLabel : label}
      </ActionButton>
      <p role="status" aria-live="polite" className="sr-only">
        {busy ? busyText : ''}
      </p>
    </>
  );
}

/** The sign-up forms' one row: the email address and the button; `field` takes the input over (a form's registration). */
export function EmailSignUpRow({ className = '', field, ...button }: SubmitButtonProps & { field?: ComponentProps<'input'> }) {
  const id = useId();
  return (
    <div className={`flex flex-col gap-3 sm:flex-row sm:items-end ${className}`}>
      <TextField id={`${id}-email`} label="Email address" className="flex-1" type="email" name="email" autoComplete="email" required maxLength={LIMITS.emailMaxLength} {...field} />
      <SubmitButton {...button} className="shrink-0" />
    </div>
  );
}
