/**
 * The checkout's gift choices: *This is a gift* reveals the message for the recipient (with a live count of
 * the characters left, counted as the server counts them), the buyer's own name (the delivery name is the recipient's), *Show the prices on the gift slip* (left out unless
 * asked for) and *Leave my name off the gift slip* (which otherwise says whom the gift is from).
 */
import { LIMITS } from '@/config/constants';
import { errorId, FieldError, TextField } from '@/features/forms/fields';
import { giftMessageLength, type GiftChoice } from './gift';

const GIFT_MESSAGE_FIELD_ID = 'checkout-giftMessage';
const COUNT_ID = `${GIFT_MESSAGE_FIELD_ID}-count`;

export default function GiftFields({ gift, onChange, readOnly, error }: { gift: GiftChoice; onChange: (gift: GiftChoice) => void; readOnly: boolean; error: string | undefined }) {
  const length = giftMessageLength(gift.message);
  const over = length > LIMITS.giftMessageMaxLength;
  return (
    <fieldset className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <legend className="px-2 font-display text-xl font-bold text-navy">Gift</legend>
      <label className="flex cursor-pointer items-center gap-3 font-semibold">
        <input type="checkbox" className="h-5 w-5" checked={gift.isGift} disabled={readOnly} onChange={(e) => onChange({ ...gift, isGift: e.target.checked })} />
        This is a gift
      </label>
      {gift.isGift && (
        <>
          <p className="-mt-2 text-sm text-slate-600">We send the parcel to the recipient, under their name. Your receipt and emails still come to you.</p>
          <div>
            <TextField
              id="checkout-buyerName"
              label="Your name"
              optional
              autoComplete="name"
              maxLength={LIMITS.nameMaxLength}
              value={gift.buyerName ?? ''}
              readOnly={readOnly}
              onChange={(e) => onChange({ ...gift, buyerName: e.target.value })}
              aria-describedby="checkout-buyerName-hint"
            />
            <p id="checkout-buyerName-hint" className="mt-1 text-sm text-slate-600">
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
              value={gift.message}
              readOnly={readOnly}
              onChange={(e) => onChange({ ...gift, message: e.target.value })}
              aria-describedby={error ? `${COUNT_ID} ${errorId(GIFT_MESSAGE_FIELD_ID)}` : COUNT_ID}
              {...(error && { 'aria-invalid': true })}
            />
            <p id={COUNT_ID} className={`mt-1 text-sm ${over ? 'font-semibold text-red-800' : 'text-slate-600'}`}>
              {over ? `${length - LIMITS.giftMessageMaxLength} characters too many` : `${LIMITS.giftMessageMaxLength - length} characters left`} · printed on a gift slip in the parcel
            </p>
            <FieldError fieldId={GIFT_MESSAGE_FIELD_ID} message={error} />
          </div>
          <label className="flex cursor-pointer items-center gap-3 font-semibold">
            {/* A gift's parcel carries no prices unless the buyer asks for them. */}
            <input type="checkbox" className="h-5 w-5" checked={!gift.hidePrices} disabled={readOnly} onChange={(e) => onChange({ ...gift, hidePrices: !e.target.checked })} />
            Show the prices on the gift slip
          </label>
          <label className="flex cursor-pointer items-center gap-3 font-semibold">
            <input type="checkbox" className="h-5 w-5" checked={gift.hideSender === true} disabled={readOnly} onChange={(e) => onChange({ ...gift, hideSender: e.target.checked })} />
            Leave my name off the gift slip
          </label>
        </>
      )}
    </fieldset>
  );
}
