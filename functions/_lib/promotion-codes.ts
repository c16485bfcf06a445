/**
 * Promotion codes on the server: the database answers whether a code applies to goods of this value (the
 * shopper never reads the codes table). A use is taken only by a payment (fulfil_order, under the code's row lock):
 * unpaid checkouts hold nothing, so nobody can keep a code from other buyers by leaving payment pages open.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { PROMOTION_CODES } from '../../src/config/constants';
import { subtractDollars } from '../../src/lib/money';
import { codeAnswerSchema, normaliseCode, type CodeAnswer } from '../../src/features/checkout/promotion-code';

/** A code as the shopper sends it: trimmed and in capitals; an empty one is no code. */
export const promotionCodeInput = z
  .string()
  .max(PROMOTION_CODES.maxLength + 20, 'That code is too long.')
  .transform(normaliseCode)
  .optional()
  .transform((code) => code || undefined);

/** What the code does for goods worth `subtotal` now. A code that cannot be a code is not valid without asking. */
export async function checkPromotionCode(db: SupabaseClient, code: string, subtotal: number): Promise<CodeAnswer> {
  if (!PROMOTION_CODES.pattern.test(code)) return { status: 'not_valid' };
  const { data, error } = await db.rpc('check_promotion_code', { p_code: code, p_subtotal: subtotal });
  if (error) throw error;
  return codeAnswerSchema.parse(data);
}

/** create_order refused the code (ended or used up meanwhile, or the goods changed): the database's answer. */
export class PromotionCodeRefused extends Error {
  constructor(readonly answer: CodeAnswer) {
    super(`promotion code refused: ${answer.status}`);
  }
}

const REFUSED = /^promotion code refused: (\w+)/;

/** The refusal inside a database error from create_order, or null for any other error. */
export function promotionCodeRefusal(error: { message?: string; hint?: string | null }): PromotionCodeRefused | null {
  const status = REFUSED.exec(error.message ?? '')?.[1];
  if (!status) return null;
  let answer: CodeAnswer = { status: 'not_valid' };
  try {
    const parsed = codeAnswerSchema.safeParse(JSON.parse(error.hint ?? '{}'));
    if (parsed.success) answer = parsed.data;
  } catch {}
  return new PromotionCodeRefused(status === 'changed' ? { ...answer, status: 'changed' } : answer);
}

/** The goods' value after the code, when it applies (a code that does not apply takes nothing off). */
export async function goodsAfterCode(db: SupabaseClient, code: string | undefined, subtotal: number): Promise<number> {
  if (!code) return subtotal;
  const answer = await checkPromotionCode(db, code, subtotal);
  return answer.status === 'ok' ? subtractDollars(subtotal, answer.discount ?? 0) : subtotal;
}
