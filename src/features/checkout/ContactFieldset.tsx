/**
 * The checkout's Contact: the email (with a "did you mean" for a common slip in its domain, one tap to take it)
 * and the shopper's own choice of one reminder if they leave the payment page unpaid.
 */
import { get, useFormContext } from 'react-hook-form';
import { LIMITS } from '@/config/constants';
import { errorId, TextField } from '@/features/forms/fields';
import { emailSuggestion } from '@/lib/email-typos';
import type { CheckoutFormValues } from './use-checkout-form';
import { fieldId, FIELD_PATHS } from './validation';

const EMAIL = FIELD_PATHS.email;
const EMAIL_ID = fieldId('email');
const SUGGESTION_ID = `${EMAIL_ID}-suggestion`;

export default function ContactFieldset({ readOnly }: { readOnly: boolean }) {
  const { register, watch, setValue, clearErrors, formState } = useFormContext<CheckoutFormValues>();
  const error = (get(formState.errors, EMAIL) as { message?: string } | undefined)?.message;
  const suggestion = emailSuggestion(watch(EMAIL));
  return (
    <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <legend className="px-2 font-display text-xl font-bold text-navy">Contact</legend>
      <TextField
        id={EMAIL_ID}
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={LIMITS.emailMaxLength}
        readOnly={readOnly}
        error={error}
        {...register(EMAIL, { onChange: () => clearErrors(EMAIL) })}
        aria-describedby={[error && errorId(EMAIL_ID), suggestion && SUGGESTION_ID].filter(Boolean).join(' ') || undefined}
      />
      {suggestion && (
        <p id={SUGGESTION_ID} className="-mt-2 flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
          <span>Did you mean {suggestion}?</span>
          <button
            type="button"
            className="font-semibold text-navy underline"
            onClick={() => {
              setValue(EMAIL, suggestion);
              clearErrors(EMAIL);
            }}
          >
            Use {suggestion}
          </button>
        </p>
      )}
      <label className="flex cursor-pointer items-start gap-3">
        <input type="checkbox" className="mt-1 h-5 w-5 shrink-0" disabled={readOnly} {...register('reminderConsent')} />
        <span>Send me one reminder about this order if I leave the payment page without paying</span>
      </label>
    </fieldset>
  );
}
