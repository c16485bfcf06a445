/**
 * The Accounts section's calls: the state read with the staff member's own token (admin_xero_status), and the two
 * actions through /api/admin-xero (as the back office's other staff actions are posted).
 */
import { postAsStaff, postForMessage } from '@/features/admin/api';
import { getSupabase } from '@/lib/supabase/client';
import { type XeroStatus, xeroStatusSchema } from './contract';

export async function readXeroStatus(): Promise<XeroStatus> {
  const { data, error } = await (await getSupabase()).rpc('admin_xero_status');
  if (error) throw new Error(error.code === '42501' ? "You don't have access to the back office." : 'The state of the books could not be read. Please try again in a moment.');
  return xeroStatusSchema.parse(data);
}

/** Posts what is new at once; resolves to the sentence saying what was posted. */
export const syncNow = () => postForMessage('/api/admin-xero', { action: 'sync' });

/** The address of Xero's consent screen for this Connect press. */
export async function connectUrl(): Promise<string> {
  const answer = await postAsStaff('/api/admin-xero', { action: 'connect' });
  if (typeof answer.url !== 'string') throw new Error('Xero’s page could not be opened. Please try again.');
  return answer.url;
}
