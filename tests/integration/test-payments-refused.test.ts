/** The local test-payment stand-in must never run in a production deploy: refused at build, at selection and at its page. */
import { afterEach, describe, expect, it } from 'vitest';
import config from '../../astro.config.mjs';
import { readServerEnv } from '@/config/env';
import { selectPaymentProvider } from '../../functions/_lib/providers/select';
import testPayment from '../../functions/test-payment';

afterEach(() => {
  delete process.env.CONTEXT;
  delete process.env.STRIPE_SECRET_KEY;
});

type Hook = (options: Record<string, unknown>) => unknown;
const refusal = config.integrations?.flat().find((i) => i && typeof i === 'object' && 'name' in i && i.name === 'refuse-test-payments-in-production') as
  | { hooks: Record<string, Hook> }
  | undefined;

describe('test payments in production', () => {
  it('the production build fails without Stripe keys, and passes with them or outside production', () => {
    const setup = refusal!.hooks['astro:config:setup']!;
    process.env.CONTEXT = 'production';
    expect(() => setup({})).toThrow(/Refusing to build a production deploy without STRIPE_SECRET_KEY/);
    process.env.STRIPE_SECRET_KEY = 'sk_live_x';
    expect(() => setup({})).not.toThrow();
    delete process.env.STRIPE_SECRET_KEY;
    process.env.CONTEXT = 'deploy-preview';
    expect(() => setup({})).not.toThrow();
  });

  it('the provider selection refuses the stand-in in production', () => {
    expect(() => selectPaymentProvider(readServerEnv({ CONTEXT: 'production' }))).toThrow(/refused in production/);
    expect(selectPaymentProvider(readServerEnv({ CONTEXT: 'production', STRIPE_SECRET_KEY: 'sk_live_x' })).name).toBe('stripe');
    expect(selectPaymentProvider(readServerEnv({ SUPABASE_URL: 'http://localhost:1', SUPABASE_SERVICE_ROLE_KEY: 'k' })).name).toBe('local-test');
  });

  it('the test-payment page answers 404 in production', async () => {
    process.env.CONTEXT = 'production';
    const response = await testPayment(new Request('https://shop.example/api/test-payment?session=cs_local_x&success=https://shop.example/ok&cancel=https://shop.example/cart'));
    expect(response.status).toBe(404);
  });
});
