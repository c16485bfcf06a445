/** The checkout's promotion code field: type a code, *Apply*; the code applied, or why it cannot apply. */
import { FieldError, invalidProps } from '@/features/forms/fields';
import { PROMOTION_CODES } from '@/config/constants';
import { formatPrice } from '@/lib/format';
import type { PromotionCodeState } from './use-promotion-code';

const FIELD_ID = 'checkout-promotion-code';

export default function PromotionCodeField({ code, disabled }: { code: PromotionCodeState; disabled: boolean }) {
  if (code.applied) {
    return (
      <div className="flex items-center justify-between gap-3 rounded-lg bg-emerald-50 p-3 text-sm ring-1 ring-emerald-300" role="status">
        <span className="font-semibold text-emerald-900">
          Code {code.applied.code} applied: −{formatPrice(code.applied.discount)}
        </span>
        <button type="button" className="font-semibold text-navy underline underline-offset-4" onClick={code.remove}>
          Remove
        </button>
      </div>
    );
  }
  return (
    <div>
      <label htmlFor={FIELD_ID} className="label">
        Promotion code <span className="font-normal text-slate-600">(optional)</span>
      </label>
      <div className="flex gap-2">
        <input
          id={FIELD_ID}
          type="text"
          className="field uppercase"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={PROMOTION_CODES.maxLength}
          value={code.typed}
          readOnly={disabled}
          onChange={(e) => code.type(e.target.value)}
          onKeyDown={(e) => {
            // Enter applies the code; it does not send the whole checkout.
            if (e.key === 'Enter') {
              e.preventDefault();
              code.apply();
            }
          }}
          {...invalidProps(FIELD_ID, code.message ?? undefined)}
        />
        <button type="button" className="btn-secondary shrink-0" onClick={code.apply} disabled={disabled || code.checking}>
          {code.checking ? 'Checking...' : 'Apply'}
        </button>
      </div>
      <div role="alert">
        <FieldError fieldId={FIELD_ID} message={code.message ?? undefined} />
      </div>
    </div>
  );
}
