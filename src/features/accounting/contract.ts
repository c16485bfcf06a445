/**
 * The books in Xero, as the back office and /api/admin-xero agree on them: the actions, and the state the database
 * answers (admin_xero_status). Never a token: the connection is its organisation's name and dates.
 */
import { z } from '../../lib/zod';

export const xeroActionSchema = z.discriminatedUnion('action', [z.object({ action: z.literal('sync') }), z.object({ action: z.literal('connect') })]);

const text = z.string();
const maybeText = z.string().nullable();
const count = z.coerce.number();

export const xeroStatusSchema = z.object({
  connection: z.object({ tenant_name: text, connected_at: maybeText, connected_by: maybeText, start_on: text, refresh_expires_at: maybeText, renewal_reason: maybeText }).nullable(),
  last_sync: z.object({ started_at: text, finished_at: maybeText, trigger: text, posted: count, failed: count, calls: count, stopped: maybeText }).nullable(),
  posted: count,
  /** What the next sync posts, as it claims it (Stripe's payouts since the last sync aside: Stripe is asked then); `refused` of them failed before. */
  waiting: count,
  refused: count,
  /** An order's document, or a Stripe payout's (no order: its payout id instead). */
  failures: z.array(z.object({ key: text, kind: text, number: z.number().nullable(), order_id: maybeText, payout_id: maybeText, error: text, attempts: z.number(), last_tried_at: text })),
});
export type XeroStatus = z.infer<typeof xeroStatusSchema>;
