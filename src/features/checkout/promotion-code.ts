/**
 * Promotion codes as the checkout page and the server agree on them: the database's answer about one code for
 * one cart, and what the shopper is told. One code per order, taken off the goods (after any quantity prices),
 * never off the shipping; free shipping is judged on the goods after the code.
 */
import * as z from '@/lib/zod-mini';
import { DB_OUTCOMES } from '@/lib/db-outcomes';
import { formatPrice } from '@/lib/format';

/**
 * A code that has not started, has ended or is used up is `not_valid`, as one that never existed: a guesser learns
 * nothing. `changed` is the checkout's own word, for a code create_order refused after the goods changed.
 */
const CODE_STATUSES = [...DB_OUTCOMES.check_promotion_code, 'changed'] as const;

const money = z.coerce.number();
export const codeAnswerSchema = z.object({
  status: z.enum(CODE_STATUSES),
  code: z.optional(z.string()),
  kind: z.optional(z.enum(['percent', 'amount'])),
  amount: z.optional(money),
  /** What the code takes off these goods (AUD), when it applies. */
  discount: z.optional(money),
  shortfall: z.optional(money),
  min_subtotal: z.optional(money),
});
export type CodeAnswer = z.infer<typeof codeAnswerSchema>;

/** A code as typed: spaces at the ends dropped, in capitals (codes are stored in capitals). */
export const normaliseCode = (typed: string) => typed.trim().toUpperCase();

/** What the shopper is told when a code cannot apply; null when it applies. */
export function codeRefusal(answer: CodeAnswer): string | null {
  switch (answer.status) {
    case 'ok':
      return null;
    case 'not_valid':
      return 'That code is not valid. Please check it and try again.';
    case 'spend_more':
      return `Spend ${formatPrice(answer.shortfall ?? 0)} more to use this code.`;
    case 'changed':
      return 'Your order changed while the code was being applied. Please apply it again.';
  }
}

/** How the summary names a code's discount, e.g. "Code PARISH10 (10% off)". */
export function discountLabel(answer: Pick<CodeAnswer, 'code' | 'kind' | 'amount'>): string {
  const what = answer.kind === 'percent' ? `${answer.amount}% off` : `${formatPrice(answer.amount ?? 0)} off`;
  return `Code ${answer.code} (${what})`;
}
