/**
 * Small pieces both form islands share: labelled fields, the busy-state announcement, and the checks the
 * browser's own validation misses: a required field holding only spaces, and an address `type=email`
 * accepts but the shop does not (see `isEmailAddress`: no `?`, `%` or `&`, a dot in the domain, and more).
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { toast } from '@/features/toast/store';
import { isEmailAddress } from '@/lib/email';

export const BLANK_FIELD_MESSAGE = 'Please fill out this field.';
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
export function clearCustomValidity(event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }): void {
  event.currentTarget.setCustomValidity('');
}

interface LabelledProps {
  id: string;
  label: ReactNode;
  className?: string;
}

/** A labelled input; `optional` says so in the label, for forms where most fields are required. */
export function TextField({ id, label, className = '', optional = false, ...input }: LabelledProps & { optional?: boolean } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
        {optional && <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      <input id={id} className="field" onInput={clearCustomValidity} {...input} />
    </div>
  );
}

export function TextAreaField({ id, label, className = '', ...textarea }: LabelledProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <textarea id={id} className="field" onInput={clearCustomValidity} {...textarea} />
    </div>
  );
}

/** Announces the busy text to screen readers; the button label changes for everyone else. */
export function BusyStatus({ busy, text }: { busy: boolean; text: string }) {
  return (
    <p role="status" aria-live="polite" className="sr-only">
      {busy ? text : ''}
    </p>
  );
}
