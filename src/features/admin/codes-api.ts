/** Promotion codes: the list with their uses, a new code, and turning one off or on. */
import * as z from '@/lib/zod-mini';
import type { NewPromotionCode } from '@/features/staff-actions/promotion-codes';
import { maybeText, money, rpc, text } from './api';

const promotionCode = z.object({
  id: text,
  code: text,
  kind: z.enum(['percent', 'amount']),
  amount: money,
  min_subtotal: money,
  starts_at: maybeText,
  ends_at: maybeText,
  max_uses: z.nullable(z.number()),
  active: z.boolean(),
  created_at: text,
  created_by: text,
  /** Orders holding a use: paid, or awaiting payment. */
  uses: z.number(),
  paid_orders: money,
  discount_given: money,
});
export type PromotionCode = z.infer<typeof promotionCode>;

export const listCodes = () => rpc(z.array(promotionCode), 'admin_list_codes', {}, 'load the codes');
export const createCode = (code: NewPromotionCode) => rpc(z.string(), 'admin_create_code', { p_code: code }, 'create the code');
export const setCodeActive = (id: string, active: boolean) => rpc(z.boolean(), 'admin_set_code_active', { p_id: id, p_active: active }, 'change the code');
