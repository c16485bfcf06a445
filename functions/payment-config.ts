/**
 * What the checkout needs to know about payments: which provider takes them and Stripe's publishable key.
 * Where payments are not set up (a deploy without STRIPE_SECRET_KEY) this answers 503 with what to tell the shopper.
 */
import { readServerEnv } from '../src/config/env';
import { handle, json, type FunctionConfig } from './_lib/http';
import { selectPaymentProvider } from './_lib/providers/select';

export default handle(async () => {
  const env = readServerEnv();
  const payments = selectPaymentProvider(env);
  return json({ mode: payments.name, publishableKey: payments.name === 'stripe' ? (env.STRIPE_PUBLISHABLE_KEY ?? null) : null });
});

export const config: FunctionConfig = { path: '/api/payment-config', method: ['GET', 'POST'] };
