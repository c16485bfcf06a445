/**
 * POST /api/admin-invoice — the publisher's invoices for schools and parishes, from /admin: drafts (from a quote
 * request or from nothing), send, void, write off, pack before payment, reminders, credit notes, and declining a
 * quote, and the editor's running totals (price). Staff only. Answers 200 { message, invoiceId?, totals? }, or
 * 4xx/5xx { error } with a sentence the publisher can act on (src/features/on-account/contract.ts).
 */
import { invoiceActionSchema } from '../src/features/on-account/contract';
import { staffEndpoint } from './_lib/back-office';
import { fulfilmentServices } from './_lib/fulfilment';
import { json, problem, type FunctionConfig } from './_lib/http';
import { runInvoiceAction } from './_lib/invoices';
import { selectInvoiceProvider } from './_lib/providers/select';
import { serviceClient } from './_lib/supabase-admin';

export default staffEndpoint(invoiceActionSchema, async ({ request, env, staffEmail, body }) => {
  const services = fulfilmentServices(env, request);
  const outcome = await runInvoiceAction({ db: serviceClient(env), services, invoicing: selectInvoiceProvider(env, services.siteOrigin), actor: staffEmail }, body);
  if (outcome.status >= 400) return problem(outcome.status, outcome.message);
  return json({ message: outcome.message, ...(outcome.invoiceId && { invoiceId: outcome.invoiceId }), ...(outcome.totals && { totals: outcome.totals }) });
});

export const config: FunctionConfig = { path: '/api/admin-invoice', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
