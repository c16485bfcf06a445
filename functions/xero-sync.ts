/**
 * The scheduled sync to Xero, every 15 minutes (UTC): posts what is new since the last run (functions/_lib/xero-sync.ts).
 * Netlify runs it on its schedule; the local server too, and at once on a POST to /.netlify/functions/xero-sync.
 * Answers what it did as JSON; with no Xero app configured, or no organisation connected, it posts nothing.
 */
import { readServerEnv } from '../src/config/env';
import { handle, json, type ScheduledFunctionConfig } from './_lib/http';
import { ACCOUNTING_NOT_SET_UP, selectAccounting, selectPaymentProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';
import { syncToXero } from './_lib/xero-sync';

export default handle(async () => {
  const env = readServerEnv();
  const accounting = selectAccounting(env);
  if (!accounting) return json({ status: 'not-set-up', message: ACCOUNTING_NOT_SET_UP });
  return json(await syncToXero(serviceClient(env), env, accounting, { trigger: 'schedule', payments: selectPaymentProvider(env) }));
});

export const config: ScheduledFunctionConfig = { schedule: '*/15 * * * *' };
