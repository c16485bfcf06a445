/** What the checkout needs to know about payments: Stripe's publishable key, or that payments are local tests. */
import { readServerEnv } from '../src/config/env';
import { handle, json, type FunctionConfig } from './_lib/http';

export default handle(async () => {
  const env = readServerEnv();
  if (env.STRIPE_SECRET_KEY) return json({ mode: 'stripe', publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null });
  return json({ mode: 'local-test', publishableKey: null });
});

export const config: FunctionConfig = { path: '/api/payment-config', method: ['GET', 'POST'] };
