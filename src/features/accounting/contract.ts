/**
 * The books in Xero, as the back office and /api/admin-xero agree on them: the actions, and the state the database
 * answers (admin_xero_status). Never a token: the connection is its organisation's name and dates.
 */
import { z } from 'zod';

export const xeroActionSchema = z.discriminatedUnion('action', [z.object({ action: z.literal('sync') }), z.object({ action: z.literal('connect') })]);

export interface XeroStatus {
  connection: {
    tenant_name: string;
    connected_at: string | null;
    connected_by: string | null;
    start_on: string;
    refresh_expires_at: string | null;
    renewal_reason: string | null;
  } | null;
  last_sync: { started_at: string; finished_at: string | null; trigger: string; posted: number; failed: number; calls: number; stopped: string | null } | null;
  posted: number;
  /** What the next sync posts, as it claims it (Stripe's payouts since the last sync aside: Stripe is asked then); `refused` of them failed before. */
  waiting: number;
  refused: number;
  /** An order's document, or a Stripe payout's (no order: its payout id instead). */
  failures: Array<{ key: string; kind: string; number: number | null; order_id: string | null; payout_id: string | null; error: string; attempts: number; last_tried_at: string }>;
}
