/** The publisher's order actions from /admin: ship, deliver, cancel and refund, retry a refund, resend the confirmation, change the delivery address. Staff only. */
import { orderActionSchema } from '../src/features/staff-actions/order-actions';
import { callerClient, runOrderAction, staffEndpoint } from './_lib/back-office';
import { json, problem, type FunctionConfig } from './_lib/http';
import { fulfilmentServices } from './_lib/fulfilment';
import { serviceClient } from './_lib/supabase-admin';

export default staffEndpoint(orderActionSchema, async ({ request, env, staffEmail, body }) => {
  const outcome = await runOrderAction({ db: serviceClient(env), services: fulfilmentServices(env, request), actor: staffEmail, asCaller: callerClient(env, request) }, body);
  return outcome.status < 400 ? json({ message: outcome.message }) : problem(outcome.status, outcome.message);
});

export const config: FunctionConfig = { path: '/api/admin-order', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
