/**
 * A stock change as the back office sends it to /api/admin-stock: set to a counted figure, or a delivery of N
 * copies, each with its reason. The function parses the request with `stockActionSchema`; the Stock form checks
 * what the publisher typed with the same fields (`stockForm`), so both say the same thing.
 */
import { z } from '@/lib/zod';
import { LIMITS } from '@/config/constants';
import { toSingleLine } from '@/lib/text';

const reason = z
  .string({ error: 'Give a reason for the change.' })
  .transform(toSingleLine)
  .pipe(z.string().min(1, 'Give a reason for the change.').max(LIMITS.stockReasonMaxLength, `The reason can be at most ${LIMITS.stockReasonMaxLength} characters.`));
const productId = z.string({ error: 'productId is missing.' }).trim().min(1, 'productId is missing.').max(100);
const stock = z
  .number({ error: 'Stock must be a whole number, 0 or more.' })
  .int('Stock must be a whole number, 0 or more.')
  .min(0, 'Stock must be a whole number, 0 or more.')
  .max(LIMITS.stockMax, `Stock can be at most ${LIMITS.stockMax}.`);
const quantity = z
  .number({ error: 'Copies received must be a whole number, 1 or more.' })
  .int('Copies received must be a whole number, 1 or more.')
  .min(1, 'Copies received must be a whole number, 1 or more.')
  .max(LIMITS.stockMax, `Copies received can be at most ${LIMITS.stockMax}.`);

export const stockActionSchema = z.discriminatedUnion(
  'action',
  [z.object({ action: z.literal('set'), productId, stock, reason }), z.object({ action: z.literal('receive'), productId, quantity, reason })],
  { error: "action must be 'set' or 'receive'." },
);
export type StockAction = z.infer<typeof stockActionSchema>;

/** A number as typed in a field: empty is no number (so the field's own message is shown), not 0. */
export const typedNumber = (number: z.ZodNumber) =>
  z
    .string()
    .transform((typed) => (typed.trim() === '' ? Number.NaN : Number(typed)))
    .pipe(number);

/** What the Stock form holds, and what each of its buttons checks: Set to reads New stock, Received reads Copies received. */
export type StockFormValues = { stock: string; received: string; reason: string };
/** What either button's check answers: its figure as a number, and the reason on one line. */
export type StockChecked = { stock?: number; received?: number; reason: string };
export const stockForm = {
  set: z.object({ stock: typedNumber(stock), reason }),
  receive: z.object({ received: typedNumber(quantity), reason }),
};
