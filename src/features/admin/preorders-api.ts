/** Pre-orders: each title on pre-order with its figures, its buyers, and the changes made through /api/admin-preorders. */
import * as z from '@/lib/zod-mini';
import type { PreorderAction } from '@/features/staff-actions/preorder-actions';
import { maybeText, money, postAsStaff, rpc, text } from './api';

const title = z.object({
  id: text,
  title: text,
  release_date: text,
  allocation: z.number(),
  first_delivery: z.nullable(z.number()),
  copies: z.number(),
  left: z.number(),
  orders: z.coerce.number(),
  money,
  waiting: z.coerce.number(),
  due_without_delivery: z.boolean(),
  /** The customs columns the title lacks (the release refuses while any are), and its orders waiting that go abroad. */
  customs: z.object({ missing: z.array(text), abroad: z.number() }),
});
export type PreorderTitleRow = z.infer<typeof title>;
const owed = z.object({ orders: z.coerce.number(), copies: z.coerce.number(), money });
export type PreordersOwed = z.infer<typeof owed>;
const buyer = z.object({ id: text, number: z.number(), bought_by: maybeText, email: text, paid_at: text, quantity: z.number(), amount: money, total: money });

/** Every title on pre-order, and what is still owed across them (paid, not yet shipped). */
export const listPreorders = () => rpc(z.object({ titles: z.array(title), owed }), 'admin_list_preorders', {}, 'load the pre-orders');
/** The orders waiting for one title, oldest paid first. */
export const preorderBuyers = (productId: string) => rpc(z.array(buyer), 'admin_preorder_buyers', { p_product_id: productId }, 'load the buyers');

const answer = z.object({ message: text, mailing: z.optional(z.nullable(z.object({ id: text, recipients: money }))) });
/** Sets the allocation, releases a title or moves its date, on the server: its message, and any availability mailing it drew. */
export const runPreorderAction = async (request: PreorderAction) => answer.parse(await postAsStaff('/api/admin-preorders', request));
