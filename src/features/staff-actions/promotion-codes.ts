/**
 * A new promotion code as the publisher types it, checked before `admin_create_code` is asked (which checks it
 * again as the last line): each problem on the field it is about, and the code as the database takes it.
 */
import { z } from '@/lib/zod';
import { PROMOTION_CODES } from '@/config/constants';

const typed = z.string();

export const codeForm = z
  .object({
    code: typed.transform((code) => code.trim().toUpperCase()).refine((code) => PROMOTION_CODES.pattern.test(code), 'A code is 3 to 32 letters, digits, - or _.'),
    kind: z.enum(['percent', 'amount']),
    amount: typed,
    minSubtotal: typed.refine((min) => !min || Number(min) >= 0, 'The minimum subtotal is an amount of 0 or more.'),
    startsOn: typed,
    endsOn: typed,
    maxUses: typed.refine((uses) => !uses || (Number.isInteger(Number(uses)) && Number(uses) > 0), 'The number of uses is a whole number above 0, or empty for no limit.'),
  })
  .superRefine((form, ctx) => {
    const amount = Number(form.amount);
    if (!(amount > 0)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Enter how much the code takes off.' });
    else if (form.kind === 'percent' && (!Number.isInteger(amount) || amount > 100)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'A percentage is a whole number from 1 to 100.' });
    if (form.startsOn && form.endsOn && form.endsOn < form.startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'The last day must be on or after the first.' });
  })
  // Dates are Sydney days, both included; empty means no limit.
  .transform((form) => ({
    code: form.code,
    kind: form.kind,
    amount: Number(form.amount),
    min_subtotal: Number(form.minSubtotal || 0),
    starts_on: form.startsOn,
    ends_on: form.endsOn,
    max_uses: form.maxUses ? Number(form.maxUses) : null,
  }));
export type CodeFormValues = z.input<typeof codeForm>;
/** A new code as `admin_create_code` takes it. */
export type NewPromotionCode = z.output<typeof codeForm>;
