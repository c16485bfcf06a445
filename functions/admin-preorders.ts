/**
 * POST /api/admin-preorders { action: 'set', productId, allocation, firstDelivery } | { action: 'release', productId,
 * firstDelivery } | { action: 'move_date', productId, releaseDate }
 *
 * The publisher's pre-order actions from /admin (Pre-orders): the allocation (never below the copies sold) and the
 * first delivery expected; Release now, which sets the stock from the first delivery and makes the orders waiting
 * to pack, emailing each buyer once; Move the date, which tells each buyer once. Staff only: the change runs as the
 * caller, so the database checks the role and the history names who. Answers { message, stock?, mailing? }. A refusal
 * of the figure sent is 400 (the back office marks its field); of the title as it stands (its customs data missing,
 * released already) 409.
 */
import { callerClient, staffEndpoint } from './_lib/back-office';
import { fulfilmentServices } from './_lib/fulfilment';
import { json, problem, type FunctionConfig } from './_lib/http';
import { runPreorderAction } from './_lib/preorders';
import { serviceClient } from './_lib/supabase-admin';
import { preorderActionSchema } from '../src/features/staff-actions/preorder-actions';

export default staffEndpoint(preorderActionSchema, async ({ request, env, body, staffEmail }) => {
  const outcome = await runPreorderAction(callerClient(env, request)!, serviceClient(env), fulfilmentServices(env, request), body, staffEmail);
  return outcome.status < 400 ? json({ message: outcome.message, stock: outcome.stock ?? null, mailing: outcome.mailing ?? null }) : problem(outcome.status, outcome.message);
});

export const config: FunctionConfig = { path: '/api/admin-preorders', method: ['POST'], rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
