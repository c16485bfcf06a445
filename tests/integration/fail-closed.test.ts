/**
 * The local stand-ins (the TEST payment page, the email outbox) never run in a deploy. Netlify gives deployed
 * functions SITE_ID, SITE_NAME and URL (never CONTEXT, which exists only at build time), and the stand-ins need
 * the local server's own signal: with Netlify's variables present and no Stripe key, checkout answers 503 and
 * writes nothing, the TEST payment page answers 404, and no email goes to a file nobody reads.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import config from '../../astro.config.mjs';
import { readServerEnv } from '@/config/env';
import {
  ACCOUNTING_NOT_SET_UP,
  FORMS_NOT_SET_UP,
  PAYMENTS_NOT_SET_UP,
  SHIPPING_PLATFORM_NOT_SET_UP,
  selectAccounting,
  selectEmailProvider,
  selectHumanCheck,
  selectPaymentProvider,
  selectShippingPlatform,
} from '../../functions/_lib/providers/select';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { ConfigurationError, siteOrigin } from '../../functions/_lib/runtime';
import { useTestShop } from '../helpers/shop';

const NETLIFY_RUNTIME = { SITE_ID: '3f1c2a9e-0000-4000-8000-000000000000', SITE_NAME: 'catholic-kids-books', URL: 'https://shop.example.com.au' };
const outbox = join(mkdtempSync(join(tmpdir(), 'fail-closed-')), 'outbox.jsonl');
const t = useTestShop({ env: { LOCAL_OUTBOX_FILE: outbox } });

afterEach(() => {
  for (const name of [...Object.keys(NETLIFY_RUNTIME), 'CONTEXT', 'STRIPE_SECRET_KEY']) delete process.env[name];
  vi.restoreAllMocks();
});

const asDeployed = () => Object.assign(process.env, NETLIFY_RUNTIME);
const orderCount = async () => (await t.service().from('orders').select('id', { count: 'exact', head: true })).count;
const checkoutBody = {
  cartItems: [{ id: 'book-10-reasons', quantity: 1 }],
  shippingDetails: { fullName: 'Guest', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } },
  customerEmail: 'buyer@example.com',
};

/** `select` chooses nothing in a deploy without `keys`, the stand-in on the local server, and `provider` with them. */
function choosesOnlyWithKeys(select: (env: ReturnType<typeof readServerEnv>) => { name: string } | null, keys: Record<string, string>, provider: string) {
  expect(select(readServerEnv({ ...NETLIFY_RUNTIME, SHOP_LOCAL_SERVER: '1' }))).toBeNull();
  expect(select(readServerEnv({ SHOP_LOCAL_SERVER: '1' }))?.name).toBe('local-test');
  expect(select(readServerEnv({ ...NETLIFY_RUNTIME, ...keys }))?.name).toBe(provider);
}

describe('a deploy without Starshipit’s keys sends no order anywhere', () => {
  it('no platform is chosen, the TEST shipping page answers 404 and the tracking webhook 503', async () => {
    choosesOnlyWithKeys(selectShippingPlatform, { STARSHIPIT_API_KEY: 'k', STARSHIPIT_SUBSCRIPTION_KEY: 's' }, 'starshipit');
    asDeployed();
    expect((await fetch(`${t.url}/api/test-shipping`)).status).toBe(404);
    expect(await t.post('shipping-webhook', { order_number: '1042', tracking_status: 'Delivered' })).toEqual({ status: 503, body: { error: SHIPPING_PLATFORM_NOT_SET_UP } });
  });
});

describe('a deploy without a Xero app posts nothing to the books', () => {
  it('no accounting is chosen, the TEST Xero page answers 404 and the scheduled sync posts nothing', async () => {
    choosesOnlyWithKeys(selectAccounting, { XERO_CLIENT_ID: 'id', XERO_CLIENT_SECRET: 'secret' }, 'xero');
    asDeployed();
    expect((await fetch(`${t.url}/api/test-xero`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/xero-callback?code=c&state=s`, { redirect: 'manual' })).headers.get('location')).toContain('problem=Xero+is+not+set+up');
    const scheduled = (await import('../../functions/xero-sync')).default;
    expect(await (await scheduled(new Request(`${t.url}/.netlify/functions/xero-sync`, { method: 'POST', body: '{}' }))).json()).toEqual({ status: 'not-set-up', message: ACCOUNTING_NOT_SET_UP });
  });
});

describe('a deploy without the Stripe secret fails closed', () => {
  it('create-checkout answers 503 with a message for the shopper and writes no order', async () => {
    const before = await orderCount();
    asDeployed();
    expect(await t.post('create-checkout', checkoutBody)).toEqual({ status: 503, body: { error: PAYMENTS_NOT_SET_UP } });
    expect(await orderCount()).toBe(before);
  });

  it('the TEST payment page answers 404, and payment-config and verify-payment 503', async () => {
    // A real session made on the local server first, so the 404 is the deploy's refusal, not an unknown session.
    const local = await t.post('create-checkout', checkoutBody);
    expect(local.status).toBe(200);
    asDeployed();
    expect((await fetch(local.body!.url as string)).status).toBe(404);
    expect(await t.post('payment-config', {})).toEqual({ status: 503, body: { error: PAYMENTS_NOT_SET_UP } });
    expect((await t.post('verify-payment', { sessionId: local.body!.sessionId })).status).toBe(503);
  });

  it.each(Object.keys(NETLIFY_RUNTIME))('any one of Netlify’s run-time variables is enough (%s)', async (name) => {
    process.env[name] = NETLIFY_RUNTIME[name as keyof typeof NETLIFY_RUNTIME];
    expect((await t.post('create-checkout', checkoutBody)).status).toBe(503);
  });

  it('without the local server’s signal the stand-ins are refused too; with Stripe’s key Stripe is used', () => {
    expect(() => selectPaymentProvider(readServerEnv({}))).toThrow(/STRIPE_SECRET_KEY is not set/);
    expect(() => selectPaymentProvider(readServerEnv({ CONTEXT: 'deploy-preview', SHOP_LOCAL_SERVER: '1', ...NETLIFY_RUNTIME }))).toThrow(/STRIPE_SECRET_KEY is not set/);
    expect(selectPaymentProvider(readServerEnv({ STRIPE_SECRET_KEY: 'sk_live_x', ...NETLIFY_RUNTIME })).name).toBe('stripe');
    expect(selectPaymentProvider(readServerEnv({ SHOP_LOCAL_SERVER: '1', SUPABASE_URL: 'http://localhost:1', SUPABASE_SERVICE_ROLE_KEY: 'k' })).name).toBe('local-test');
  });

  it('email without Resend in a deploy fails to send (and says why) instead of writing the outbox', async () => {
    const email = selectEmailProvider(readServerEnv({ ...NETLIFY_RUNTIME, SHOP_LOCAL_SERVER: '1' }));
    await expect(email.send({ to: 'a@example.com', subject: 'x', text: 'y' })).rejects.toThrow(/RESEND_API_KEY and EMAIL_FROM are not set/);
    expect(await readOutbox(outbox)).toEqual([]);
    expect(selectEmailProvider(readServerEnv({ SHOP_LOCAL_SERVER: '1' })).name).toBe('local-outbox');
  });

  it('the production build still refuses to start without Stripe keys', () => {
    type Hook = (options: Record<string, unknown>) => unknown;
    const refusal = config.integrations?.flat().find((i) => i && typeof i === 'object' && 'name' in i && i.name === 'refuse-test-payments-in-production') as
      | { hooks: Record<string, Hook> }
      | undefined;
    const setup = refusal!.hooks['astro:config:setup']!;
    process.env.CONTEXT = 'production';
    expect(() => setup({})).toThrow(/Refusing to build a production deploy without STRIPE_SECRET_KEY/);
    process.env.STRIPE_SECRET_KEY = 'sk_live_x';
    expect(() => setup({})).not.toThrow();
  });
});

describe('a deploy without the Turnstile secret fails closed', () => {
  const contact = { type: 'contact', data: { name: 'Maria Rossi', email: 'maria@example.com.au', subject: 'Parish order', message: 'Thirty copies, please.' } };
  const newsletter = { type: 'newsletter', data: { email: 'deployed-subscriber@example.com.au' } };
  const rows = async (table: string) => (await t.service().from(table).select('id', { count: 'exact', head: true })).count;

  it.each([
    ['the contact form', contact, 'contact_submissions'],
    ['the newsletter sign-up', newsletter, 'newsletter_subscriptions'],
  ])('%s answers 503 with a message a person can act on, logs the missing variable and stores nothing', async (_name, body, table) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = await rows(table);
    asDeployed();
    expect(await t.post('send-notification', { ...body, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' })).toEqual({ status: 503, body: { error: FORMS_NOT_SET_UP } });
    expect(await t.post('send-notification', body)).toEqual({ status: 503, body: { error: FORMS_NOT_SET_UP } });
    expect(FORMS_NOT_SET_UP).toMatch(/email us at \S+@\S+/);
    expect(errors).toHaveBeenCalledWith('[/api/send-notification]', expect.stringContaining('TURNSTILE_SECRET_KEY is not set'));
    expect(await rows(table)).toBe(before);
    expect(await readOutbox(outbox)).toEqual([]);
  });

  it('on the local server the bot-check stays off; anywhere else without the secret it is refused', async () => {
    expect(selectHumanCheck(readServerEnv({ SHOP_LOCAL_SERVER: '1' })).verifies).toBe(false);
    expect(() => selectHumanCheck(readServerEnv({ SHOP_LOCAL_SERVER: '1', ...NETLIFY_RUNTIME }))).toThrow(/TURNSTILE_SECRET_KEY is not set/);
    expect(() => selectHumanCheck(readServerEnv({}))).toThrow(/TURNSTILE_SECRET_KEY is not set/);
    expect(selectHumanCheck(readServerEnv({ TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA', ...NETLIFY_RUNTIME })).verifies).toBe(true);
    expect((await t.post('send-notification', { ...newsletter, data: { email: 'local-subscriber@example.com.au' } })).status).toBe(200);
  });
});

describe('links in emails and return pages come from the shop’s address, never a deploy’s request Host', () => {
  const forged = new Request('https://attacker.example/api/send-notification', { method: 'POST' });

  it('SITE_URL first, then the address Netlify gives the deploy; the request’s origin only on the local server', () => {
    expect(siteOrigin(readServerEnv({ ...NETLIFY_RUNTIME, SITE_URL: 'https://www.kids-books.com.au/' }), forged)).toBe('https://www.kids-books.com.au');
    expect(siteOrigin(readServerEnv({ ...NETLIFY_RUNTIME }), forged)).toBe('https://shop.example.com.au');
    expect(siteOrigin(readServerEnv({ SHOP_LOCAL_SERVER: '1' }), new Request('http://localhost:4321/api/x'))).toBe('http://localhost:4321');
  });

  it('a deploy with neither refuses to make a link (a 503 that names SITE_URL in the log)', () => {
    const { URL: _netlifyUrl, ...withoutUrl } = NETLIFY_RUNTIME;
    expect(() => siteOrigin(readServerEnv({ ...withoutUrl, SHOP_LOCAL_SERVER: '1' }), forged)).toThrow(ConfigurationError);
    expect(() => siteOrigin(readServerEnv({ ...withoutUrl }), forged)).toThrow(/SITE_URL is not set for the functions/);
  });
});
