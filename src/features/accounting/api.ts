/**
 * The Accounts section's calls: the state read with the staff member's own token (admin_xero_status), and the two
 * actions through /api/admin-xero (as the back office's other staff actions are posted).
 */
import * as z from 'zod/mini';
import { maybeText, postAsStaff, text } from '@/features/admin/api';
import { getSupabase } from '@/lib/supabase/client';
import type { XeroStatus } from './contract';

const count = z.coerce.number();

const statusSchema = z.object({
  connection: z.nullable(z.object({ tenant_name: text, connected_at: maybeText, connected_by: maybeText, start_on: text, refresh_expires_at: maybeText, renewal_reason: maybeText })),
  last_sync: z.nullable(z.object({ started_at: text, finished_at: maybeText, trigger: text, posted: count, failed: count, calls: count, stopped: maybeText })),
  posted: count,
  waiting: count,
  refused: count,
  failures: z.array(z.object({ key: text, kind: text, number: z.nullable(z.number()), order_id: maybeText, payout_id: maybeText, error: text, attempts: z.number(), last_tried_at: text })),
});

export async function readXeroStatus(): Promise<XeroStatus> {
  const { data, error } = await (await getSupabase()).rpc('admin_xero_status');
  if (error) throw new Error(error.code === '42501' ? "You don't have access to the back office." : 'The state of the books could not be read. Please try again in a moment.');
  return statusSchema.parse(data);
}

/** Posts what is new at once; resolves to the sentence saying what was posted. */
export async function syncNow(): Promise<string> {
  const answer = await postAsStaff('/api/admin-xero', { action: 'sync' });
  return typeof answer.message === 'string' ? answer.message : 'Done.';
}

/** The address of Xero's consent screen for this Connect press. */
export async function connectUrl(): Promise<string> {
  const answer = await postAsStaff('/api/admin-xero', { action: 'connect' });
  if (typeof answer.url !== 'string') throw new Error('Xero’s page could not be opened. Please try again.');
  return answer.url;
}
