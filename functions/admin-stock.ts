/**
 * POST /api/admin-stock { action: 'set', productId, stock, reason } | { action: 'receive', productId, quantity, reason }
 *
 * The publisher's stock changes from /admin: set to a counted figure, or add a delivery of N copies (added in
 * the database in one statement, so a sale at the same moment is never lost). Staff only: the change runs as
 * the caller, so the database checks the role and the history names who. Then the shop's cached stock is
 * refreshed and, once the book can be bought again, everyone confirmed on its waiting list is drawn into one
 * availability mailing; the answer names it, and the back office sends it through /api/admin-newsletter.
 */
import { callerClient, staffEndpoint } from './_lib/back-office';
import { fulfilmentServices } from './_lib/fulfilment';
import { json, problem, type FunctionConfig } from './_lib/http';
import { stockActionSchema } from '../src/features/staff-actions/stock-actions';
import { runStockAction } from './_lib/stock';
import { serviceClient } from './_lib/supabase-admin';

export default staffEndpoint(stockActionSchema, async ({ request, env, body, staffEmail }) => {
  const outcome = await runStockAction(callerClient(env, request)!, serviceClient(env), fulfilmentServices(env, request), body, staffEmail);
  return outcome.status < 400 ? json({ message: outcome.message, stock: outcome.stock, mailing: outcome.mailing ?? null }) : problem(outcome.status, outcome.message);
});

export const config: FunctionConfig = { path: '/api/admin-stock', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
