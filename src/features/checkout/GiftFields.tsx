/**
 * The checkout's gift choices: *This is a gift* reveals the message for the recipient (with the forms' shared count
 * of the characters left, counted as the server counts them), the buyer's own name (the delivery name is the recipient's), *Show the prices on the gift slip* (left out unless
 * asked for) and *Leave my name off the gift slip* (which otherwise says whom the gift is from).
 */
import { get, useController, useFormContext } from 'react-hook-form';
import { LIMITS } from '@/config/constants';
import { CharacterCount, countId, errorId, FieldError, invalidProps, TextField } from '@/features/forms/fields';
import { giftMessageLength } from './gift';
import type { CheckoutFormValues } from './use-checkout-form';
import { fieldId, FIELD_PATHS, type CheckoutField } from './validation';

const GIFT_MESSAGE_FIELD_ID = fieldId('giftMessage');
const GIFT_MESSAGE_HINT_ID = `${GIFT_MESSAGE_FIELD_ID}-hint`;
const BUYER_NAME_HINT_ID = `${fieldId('buyerName')}-hint`;

export default function GiftFields({ readOnly }: { readOnly: boolean }) {
  const { register, watch, clearErrors, formState, control } = useFormContext<CheckoutFormValues>();
  const gift = watch('gift');
  const errorOf = (field: CheckoutField) => (get(formState.errors, FIELD_PATHS[field]) as { message?: string } | undefined)?.message;
  const error = errorOf('giftMessage');
  // The box says "Show the prices"; the order keeps the opposite, hidePrices, which a gift has unless asked.
  const hidePrices = useController({ control, name: 'gift.hidePrices' }).field;
  return (
    <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <legend className="px-2 font-display text-xl font-bold text-navy">Gift</legend>
      <label className="flex cursor-pointer items-center gap-3 font-semibold">
        <input
          type="checkbox"
          className="h-5 w-5"
          disabled={readOnly}
          {...register('gift.isGift', {
            // Not a gift: neither the message nor the recipient's name is asked for any more.
            onChange: () => clearErrors([FIELD_PATHS.giftMessage, FIELD_PATHS.buyerName, FIELD_PATHS.fullName]),
          })}
        />
        This is a gift
      </label>
      {gift.isGift && (
        <>
          <p className="-mt-2 text-sm text-slate-600">We send the parcel to the recipient, under their name. Your receipt and emails still come to you.</p>
          <div>
            <TextField
              id={fieldId('buyerName')}
              label="Your name"
              optional
              autoComplete="name"
              maxLength={LIMITS.nameMaxLength}
              readOnly={readOnly}
              error={errorOf('buyerName')}
              {...register(FIELD_PATHS.buyerName, { onChange: () => clearErrors(FIELD_PATHS.buyerName) })}
              aria-describedby={[errorOf('buyerName') && errorId(fieldId('buyerName')), BUYER_NAME_HINT_ID].filter(Boolean).join(' ')}
            />
            <p id={BUYER_NAME_HINT_ID} className="mt-1 text-sm text-slate-600">
              Who the gift is from: on your order and receipt, and on the gift slip unless you leave it off.
            </p>
          </div>
          <div>
            <label htmlFor={GIFT_MESSAGE_FIELD_ID} className="label">
              Gift message <span className="font-normal text-slate-600">(optional)</span>
            </label>
            <textarea
              id={GIFT_MESSAGE_FIELD_ID}
              className="field min-h-28"
              rows={4}
              readOnly={readOnly}
              {...register(FIELD_PATHS.giftMessage, { onChange: () => clearErrors(FIELD_PATHS.giftMessage) })}
              {...invalidProps(GIFT_MESSAGE_FIELD_ID, error, `${countId(GIFT_MESSAGE_FIELD_ID)} ${GIFT_MESSAGE_HINT_ID}`)}
            />
            <CharacterCount fieldId={GIFT_MESSAGE_FIELD_ID} length={giftMessageLength(gift.message)} max={LIMITS.giftMessageMaxLength} />
            <p id={GIFT_MESSAGE_HINT_ID} className="text-sm text-slate-600">
              Printed on a gift slip in the parcel.
            </p>
            <FieldError fieldId={GIFT_MESSAGE_FIELD_ID} message={error} />
          </div>
          <label className="flex cursor-pointer items-center gap-3 font-semibold">
            {/* A gift's parcel carries no prices unless the buyer asks for them. */}
            <input
              type="checkbox"
              className="h-5 w-5"
              name={hidePrices.name}
              ref={hidePrices.ref}
              checked={!hidePrices.value}
              disabled={readOnly}
              onBlur={hidePrices.onBlur}
              onChange={(e) => hidePrices.onChange(!e.target.checked)}
            />
            Show the prices on the gift slip
          </label>
          <label className="flex cursor-pointer items-center gap-3 font-semibold">
            <input type="checkbox" className="h-5 w-5" disabled={readOnly} {...register('gift.hideSender')} />
            Leave my name off the gift slip
          </label>
        </>
      )}
    </fieldset>
  );
}
