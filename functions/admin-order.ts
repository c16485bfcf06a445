/** The publisher's order actions from /admin: ship, deliver, cancel and refund, retry a refund, resend the confirmation. Staff only. */
import { readServerEnv } from '../src/config/env';
import { checkStaff, orderActionSchema, runOrderAction } from './_lib/back-office';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { fulfilmentServices } from './_lib/fulfilment';
import { serviceClient } from './_lib/supabase-admin';

export default handle(async (request) => {
  const env = readServerEnv();
  const staff = await checkStaff(env, request);
  if (!staff.ok) return problem(staff.status, staff.message);
  const parsed = await readJsonBody(request, orderActionSchema);
  if ('response' in parsed) return parsed.response;
  const outcome = await runOrderAction(
    {
      db: serviceClient(env),
      services: fulfilmentServices(env, request),
      actor: staff.email,
    },
    parsed.data,
  );
  return outcome.status < 400 ? json({ message: outcome.message }) : problem(outcome.status, outcome.message);
});

export const config: FunctionConfig = { path: '/api/admin-order', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
