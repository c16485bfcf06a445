/**
 * POST /api/admin-xero — the back office's Accounts section: { action: 'sync' } posts what is new to Xero at once
 * (the scheduled run's work), { action: 'connect' } answers the address of Xero's consent page. Staff only.
 * Answers 200 { message } or { url }, or 4xx/5xx { error } with a sentence the publisher can act on.
 */
import { xeroActionSchema } from '../src/features/accounting/contract';
import { staffEndpoint } from './_lib/back-office';
import { json, problem, type FunctionConfig } from './_lib/http';
import { ProviderError } from './_lib/providers/errors';
import { ACCOUNTING_NOT_SET_UP, selectAccounting, selectPaymentProvider } from './_lib/providers/select';
import { siteOrigin } from './_lib/runtime';
import { serviceClient } from './_lib/supabase-admin';
import { beginConnect } from './_lib/xero-connection';
import { syncToXero } from './_lib/xero-sync';

export default staffEndpoint(xeroActionSchema, async ({ request, env, staffEmail, body }) => {
  const accounting = selectAccounting(env);
  if (!accounting) return problem(503, ACCOUNTING_NOT_SET_UP);
  const db = serviceClient(env);
  if (body.action === 'connect') return json({ url: await beginConnect(db, accounting, siteOrigin(env, request), staffEmail) });
  try {
    const outcome = await syncToXero(db, env, accounting, { trigger: 'staff', payments: selectPaymentProvider(env) });
    if (outcome.status === 'not-connected' || outcome.status === 'needs-renewal') return problem(409, outcome.message);
    return json({ message: outcome.message, posted: outcome.posted, failed: outcome.failed, calls: outcome.calls });
  } catch (error) {
    // Xero's identity server itself did not answer: nothing was claimed, so nothing waits on this run.
    if (error instanceof ProviderError) return problem(502, `Xero did not answer: ${error.message} Try Sync now again in a few minutes.`);
    throw error;
  }
});

export const config: FunctionConfig = { path: '/api/admin-xero', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
