/**
 * `npm run doctor` against local stand-ins that answer as each provider's documentation shows
 * (tools/doctor/stand-ins.ts): a well-configured deploy passes every line, and each way a deploy can be
 * misconfigured fails its own line with the fix to make. No network: every address is 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../src/config/env';
import { STRIPE_WEBHOOK_EVENTS } from '../../functions/_lib/providers/stripe';
import { REQUIRED_VARIABLES } from '../../tools/doctor/checks/variables';
import { runDoctor, type DoctorReport } from '../../tools/doctor/doctor';
import type { CheckResult } from '../../tools/doctor/types';
import { DOCTOR_KEYS, goodEnv, goodState, misconfigure, netlifyHeaders, SENDING_DOMAIN, startDoctorStandIns, type DoctorStandIns } from '../../tools/doctor/stand-ins';
import { startFakeProvider } from '../helpers/fake-provider';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let standIns: DoctorStandIns;
/** A project folder of the test's own: this repository's netlify.toml and a content/ folder with no sample copy. */
let project: string;

function makeProject(files: Record<string, string> = {}): string {
  const folder = mkdtempSync(join(tmpdir(), 'doctor-project-'));
  copyFileSync(join(ROOT, 'netlify.toml'), join(folder, 'netlify.toml'));
  // The build's headers file, which carries the Content-Security-Policy (npm test builds before it tests).
  mkdirSync(join(folder, 'dist'));
  copyFileSync(join(ROOT, 'dist', '_headers'), join(folder, 'dist', '_headers'));
  const all = { 'content/blog/welcome.mdx': '---\ntitle: Welcome\n---\n\nHello.\n', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

beforeAll(async () => {
  standIns = await startDoctorStandIns();
  project = makeProject();
});

afterAll(async () => {
  await standIns.close();
});

beforeEach(() => {
  standIns.state = goodState();
});

function doctor(env: Record<string, string | undefined>, options: { rootDir?: string; timeoutMs?: number } = {}): Promise<DoctorReport> {
  return runDoctor({ env, site: standIns.urls.site, rootDir: options.rootDir ?? project, timeoutMs: options.timeoutMs ?? 5000 });
}

function line(report: DoctorReport, name: string): CheckResult {
  const found = report.results.find((result) => result.name === name);
  if (!found) throw new Error(`No "${name}" line in:\n${report.text}`);
  return found;
}

describe('npm run doctor: a well-configured deploy', () => {
  it('passes every check of a production deploy, prints ✓ for each and exits 0', async () => {
    const report = await doctor(goodEnv(standIns));
    // The books in Xero are optional and connected from /admin: a deploy without the app skips their line.
    expect(report.results.filter((result) => result.status !== 'pass')).toEqual([{ name: 'Xero', status: 'skip', detail: 'needs XERO_CLIENT_ID and XERO_CLIENT_SECRET (see docs/deploy.md, Xero)' }]);
    expect(report.exitCode).toBe(0);
    expect(report.results.map((result) => result.name)).toEqual([
      'Required variables',
      'Optional variables',
      'ABN',
      'Security headers',
      'Functions',
      'Supabase Auth',
      'Stripe keys',
      'Stripe webhook',
      'Resend sending domain',
      'Turnstile secret',
      'Australia Post rates',
      'Australia Post international rates',
      'Customs data',
      'Google Places',
      'Starshipit',
      'Build hook (reviews)',
      'Xero',
      'Sample content',
    ]);
    expect(report.text).toContain(`Pre-flight for ${standIns.urls.site} (CONTEXT=production)`);
    expect(report.text.split('\n').filter((text) => text.startsWith('✓ '))).toHaveLength(17);
    expect(report.text).toMatch(/17 passed, 0 failed, 0 warnings, 1 skipped — ready to go live\.$/);
  });

  it('asks each provider as its documentation says: the right path, method and key header', async () => {
    await doctor(goodEnv(standIns));
    const last = (name: keyof DoctorStandIns['servers']) => standIns.servers[name].seen.at(-1)!;
    expect(standIns.servers.supabase.seen.find((seen) => seen.url.pathname === '/auth/v1/settings')).toMatchObject({ method: 'GET', headers: { apikey: DOCTOR_KEYS.supabaseAnon } });
    expect(last('stripe')).toMatchObject({ method: 'GET', headers: { authorization: `Bearer ${DOCTOR_KEYS.stripeSecretLive}` } });
    expect(last('stripe').url.pathname).toBe('/v1/webhook_endpoints');
    expect(last('resend')).toMatchObject({ method: 'GET', path: '/domains', headers: { authorization: `Bearer ${DOCTOR_KEYS.resendFull}` } });
    expect(last('turnstile')).toMatchObject({ method: 'POST', path: '/turnstile/v0/siteverify' });
    const pac = standIns.servers.auspost.seen.slice(-2);
    expect(pac.map((seen) => [seen.method, seen.url.pathname, seen.headers['auth-key']])).toEqual([
      ['GET', '/postage/parcel/domestic/service.json', DOCTOR_KEYS.auspost],
      ['GET', '/postage/parcel/international/service.json', DOCTOR_KEYS.auspost],
    ]);
    expect(Object.fromEntries(pac[0]!.url.searchParams)).toMatchObject({ from_postcode: '2170', to_postcode: '3000', weight: '0.5' });
    expect(Object.fromEntries(pac[1]!.url.searchParams)).toEqual({ country_code: 'US', weight: '0.3' });
    const catalog = standIns.servers.supabase.seen.find((seen) => seen.url.pathname === '/rest/v1/products')!;
    expect(catalog).toMatchObject({ method: 'GET', headers: { apikey: 'doctor-service-role-key', authorization: 'Bearer doctor-service-role-key' } });
    expect(catalog.url.searchParams.get('for_sale')).toBe('eq.true');
    expect(last('places')).toMatchObject({ method: 'POST', path: '/v1/places:autocomplete', headers: { 'x-goog-api-key': DOCTOR_KEYS.places } });
    expect(last('starshipit')).toMatchObject({
      method: 'GET',
      path: '/api/orders/unshipped?limit=1',
      headers: { 'starshipit-api-key': DOCTOR_KEYS.starshipitApi, 'ocp-apim-subscription-key': DOCTOR_KEYS.starshipitSubscription },
    });
  });

  it('requires exactly the variables a hosted deploy needs, read from the env module', () => {
    expect([...REQUIRED_VARIABLES].sort()).toEqual(
      [
        'SITE_URL',
        'PUBLIC_SUPABASE_URL',
        'PUBLIC_SUPABASE_ANON_KEY',
        'SUPABASE_URL',
        'SUPABASE_SERVICE_ROLE_KEY',
        'STRIPE_SECRET_KEY',
        'STRIPE_PUBLISHABLE_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'RESEND_API_KEY',
        'EMAIL_FROM',
        'NEWSLETTER_SIGNING_SECRET',
        'SHOP_POSTAL_ADDRESS',
        'SHOP_LEGAL_NAME',
        'SHOP_ABN',
        'TURNSTILE_SECRET_KEY',
        'PUBLIC_TURNSTILE_SITE_KEY',
        'NETLIFY_BUILD_HOOK_URL',
      ].sort(),
    );
    for (const name of REQUIRED_VARIABLES) expect(ENV_VARS).toHaveProperty(name);
  });
});

describe('npm run doctor: a misconfigured deploy', () => {
  let report: DoctorReport;
  beforeAll(async () => {
    standIns.state = goodState();
    const env = misconfigure(standIns);
    report = await doctor(env);
  });

  it('exits 1 and prints ✗ for each failed line with its fix under it', () => {
    expect(report.exitCode).toBe(1);
    expect(report.counts.fail).toBe(13);
    expect(report.text).toMatch(/4 passed, 13 failed, 0 warnings, 1 skipped — fix each ✗ line, then run the doctor again\.$/);
    for (const result of report.results.filter((r) => r.status === 'fail')) {
      expect(report.text).toContain(`✗ ${result.name}: ${result.detail.split('\n')[0]}`);
      expect(report.text).toContain(`    fix: ${result.fix!.split('\n')[0]}`);
    }
  });

  it('a missing variable: names it, what it is for and its Netlify scope', () => {
    expect(line(report, 'Required variables')).toMatchObject({ status: 'fail', detail: 'not set: STRIPE_WEBHOOK_SECRET' });
    expect(line(report, 'Required variables').fix).toContain('In Netlify: Site configuration → Environment variables, add (then redeploy):');
    expect(line(report, 'Required variables').fix).toContain(`STRIPE_WEBHOOK_SECRET — ${ENV_VARS.STRIPE_WEBHOOK_SECRET.description.replace(/\.$/, '')} (scope Functions)`);
  });

  it('an ABN whose check digits are wrong: fails, and says where to copy the right one', () => {
    expect(line(report, 'ABN')).toMatchObject({ status: 'fail', detail: 'SHOP_ABN "51 824 753 557" is not a valid ABN (11 digits whose check digits are right): every tax invoice would print it' });
    expect(line(report, 'ABN').fix).toContain('abr.business.gov.au');
  });

  it('email sign-up on with autoconfirm: fails, and says why (staff access is granted by email address)', () => {
    const auth = line(report, 'Supabase Auth');
    expect(auth).toMatchObject({ status: 'fail', detail: 'email sign-up is on and accounts are confirmed without any email (mailer_autoconfirm)' });
    expect(auth.fix).toContain('Supabase → Authentication → Sign In / Providers → Email: turn the Email provider off');
    expect(auth.fix).toContain('or at least turn "Confirm email" on');
    expect(auth.fix).toContain('Staff access is granted by email address');
  });

  it('the webhook endpoint disabled and missing an event: both named, with how to fix each', () => {
    const webhook = line(report, 'Stripe webhook');
    expect(webhook.status).toBe('fail');
    expect(webhook.detail).toContain(`the endpoint we_1DoctorShop for ${standIns.urls.site}/api/stripe-webhook is disabled`);
    expect(webhook.detail).toContain('does not send checkout.session.expired');
    expect(webhook.fix).toContain('Stripe Dashboard → Developers → Webhooks → we_1DoctorShop → ⋯ → Enable endpoint.');
    expect(webhook.fix).toContain('Update details → Select events: add checkout.session.expired.');
  });

  it('a test publishable key beside a live secret key in production: fails', () => {
    const keys = line(report, 'Stripe keys');
    expect(keys.status).toBe('fail');
    expect(keys.detail).toBe('this is a production deploy (CONTEXT=production), which takes real payments only with a live pair, but STRIPE_PUBLISHABLE_KEY is a test key beside a live secret key');
    expect(keys.fix).toContain('Switch off "Test mode" in Stripe Dashboard → Developers → API keys and use the live pair (sk_live_…, pk_live_…)');
  });

  it('the sending domain unverified: fails with the DNS step', () => {
    const resend = line(report, 'Resend sending domain');
    expect(resend).toMatchObject({
      status: 'fail',
      detail: `${SENDING_DOMAIN} is "pending" in Resend, not verified: every email from Awesome Catholic Kids <orders@${SENDING_DOMAIN}> would be refused`,
    });
    expect(resend.fix).toContain(`Resend → Domains → ${SENDING_DOMAIN}: add each DNS record it lists`);
    expect(resend.fix).toContain('then press Verify');
  });

  it('Turnstile answering invalid-input-secret: fails, pointing at the widget’s secret', () => {
    const turnstile = line(report, 'Turnstile secret');
    expect(turnstile).toMatchObject({ status: 'fail', detail: 'Cloudflare does not know TURNSTILE_SECRET_KEY (invalid-input-secret)' });
    expect(turnstile.fix).toContain('Cloudflare → Turnstile → your widget → Settings: copy the secret key into TURNSTILE_SECRET_KEY');
  });

  it('Australia Post answering 401: fails, saying checkout falls back to the rate card', () => {
    const pac = line(report, 'Australia Post rates');
    expect(pac).toMatchObject({ status: 'fail', detail: 'Australia Post refused AUSPOST_API_KEY (401): every checkout would fall back to the fixed rate card' });
    expect(pac.fix).toContain('Postage Assessment Calculator (PAC) API key: copy it into AUSPOST_API_KEY');
  });

  it('Australia Post refusing the key abroad too: fails, saying orders abroad are priced from the rate card', () => {
    expect(line(report, 'Australia Post international rates')).toMatchObject({
      status: 'fail',
      detail: 'Australia Post refused AUSPOST_API_KEY for international parcels (401): every order abroad would be priced from the rate card',
    });
  });

  it('a book on sale without its HS code and origin: fails, naming the book and the fields, with how to add them', () => {
    const customs = line(report, 'Customs data');
    expect(customs.status).toBe('fail');
    expect(customs.detail).toBe('1 book on sale without customs data, so parcels abroad cannot be declared:\n  rosary-for-little-hands: hsCode, originCountry');
    expect(customs.fix).toMatch(/content\/books.*npm run catalog:sync/);
  });

  it('Google Places answering 403 PERMISSION_DENIED (SERVICE_DISABLED): fails with how to enable the API', () => {
    const places = line(report, 'Google Places');
    expect(places.status).toBe('fail');
    expect(places.detail).toContain('Google refused GOOGLE_PLACES_API_KEY (403 PERMISSION_DENIED SERVICE_DISABLED');
    expect(places.fix).toBe('Google Cloud → APIs & Services → Library: enable "Places API (New)" in the project that owns the key (the older "Places API" is not the same API).');
  });

  it('the site without its Content-Security-Policy: fails, saying how the headers get there', () => {
    const headers = line(report, 'Security headers');
    expect(headers).toMatchObject({ status: 'fail', detail: 'Content-Security-Policy is missing' });
    expect(headers.fix).toContain('Netlify serves the [[headers]] of netlify.toml and the _headers file the build writes into dist/ (the Content-Security-Policy)');
    expect(headers.fix).toContain('headers set in the Netlify UI, an edge function, or a proxy/CDN in front of the site');
    expect(headers.fix).not.toContain('a _headers file in dist/,');
  });

  it('what is right still passes', () => {
    expect(line(report, 'Functions').status).toBe('pass');
    expect(line(report, 'Optional variables').status).toBe('pass');
    expect(line(report, 'Sample content').status).toBe('pass');
  });
});

describe('Supabase Auth settings', () => {
  it('email sign-up that sends a confirmation first passes', async () => {
    standIns.state.auth = { external: { google: true, email: true }, disable_signup: false, mailer_autoconfirm: false };
    expect(line(await doctor(goodEnv(standIns)), 'Supabase Auth')).toMatchObject({ status: 'pass', detail: 'Google sign-in is on; email sign-up asks for confirmation first' });
  });

  it('Google sign-in off fails, with the callback URL to add', async () => {
    standIns.state.auth = { external: { google: false, email: false }, disable_signup: false, mailer_autoconfirm: false };
    const auth = line(await doctor(goodEnv(standIns)), 'Supabase Auth');
    expect(auth).toMatchObject({ status: 'fail', detail: 'Google sign-in is off' });
    expect(auth.fix).toContain(`add ${standIns.urls.site}/auth/callback to Authentication → URL Configuration → Redirect URLs`);
  });

  it('sign-ups switched off altogether keep staff safe but is a warning: no new shopper could sign up with Google either', async () => {
    standIns.state.auth = { external: { google: true, email: true }, disable_signup: true, mailer_autoconfirm: true };
    const auth = line(await doctor(goodEnv(standIns)), 'Supabase Auth');
    expect(auth.status).toBe('warn');
    expect(auth.fix).toContain('turn "Allow new users to sign up" on and the Email provider off');
  });

  it('anonymous sign-ins on fail, and say why: an anonymous user could take a staff address', async () => {
    standIns.state.auth = { external: { anonymous_users: true, google: true, email: false }, disable_signup: false, mailer_autoconfirm: false };
    const auth = line(await doctor(goodEnv(standIns)), 'Supabase Auth');
    expect(auth).toMatchObject({ status: 'fail', detail: 'anonymous sign-ins are on' });
    expect(auth.fix).toContain('turn "Allow anonymous sign-ins" off');
    expect(auth.fix).toContain('Staff access is granted by email address');
  });

  it('a wrong anon key fails', async () => {
    const auth = line(await doctor({ ...goodEnv(standIns), PUBLIC_SUPABASE_ANON_KEY: 'not-this-projects-key' }), 'Supabase Auth');
    expect(auth).toMatchObject({ status: 'fail', detail: 'the project refused the anon key (401: Invalid API key)' });
    expect(auth.fix).toContain('PUBLIC_SUPABASE_ANON_KEY');
  });
});

describe('Stripe webhook endpoint', () => {
  const expected = () => `${standIns.urls.site}/api/stripe-webhook`;

  it('an endpoint missing an event fails, naming the event', async () => {
    standIns.state.webhookEndpoints = (site) => [
      { id: 'we_1Missing', url: `${site}/api/stripe-webhook`, status: 'enabled', enabled_events: STRIPE_WEBHOOK_EVENTS.filter((e) => e !== 'checkout.session.async_payment_failed') },
    ];
    const webhook = line(await doctor(goodEnv(standIns)), 'Stripe webhook');
    expect(webhook).toMatchObject({ status: 'fail', detail: 'the endpoint we_1Missing does not send checkout.session.async_payment_failed' });
    expect(webhook.fix).toBe('Stripe Dashboard → Developers → Webhooks → we_1Missing → Update details → Select events: add checkout.session.async_payment_failed.');
  });

  it('a disabled endpoint fails, with how to enable it', async () => {
    standIns.state.webhookEndpoints = (site) => [{ id: 'we_1Off', url: `${site}/api/stripe-webhook`, status: 'disabled', enabled_events: [...STRIPE_WEBHOOK_EVENTS] }];
    const webhook = line(await doctor(goodEnv(standIns)), 'Stripe webhook');
    expect(webhook).toMatchObject({ status: 'fail', detail: `the endpoint we_1Off for ${expected()} is disabled: Stripe sends it nothing` });
    expect(webhook.fix).toBe('Stripe Dashboard → Developers → Webhooks → we_1Off → ⋯ → Enable endpoint.');
  });

  it('an endpoint at another address fails, naming the one found and the one to set', async () => {
    standIns.state.webhookEndpoints = () => [{ id: 'we_1Old', url: 'https://old-shop.netlify.app/api/stripe-webhook', status: 'enabled', enabled_events: [...STRIPE_WEBHOOK_EVENTS] }];
    const webhook = line(await doctor(goodEnv(standIns)), 'Stripe webhook');
    expect(webhook).toMatchObject({ status: 'fail', detail: `no webhook endpoint sends to ${expected()} (found https://old-shop.netlify.app/api/stripe-webhook instead)` });
    expect(webhook.fix).toContain(`Stripe Dashboard → Developers → Webhooks → https://old-shop.netlify.app/api/stripe-webhook → Update details: set the URL to ${expected()}`);
  });

  it('no endpoint at all fails with the endpoint to add, its four events and where its secret goes', async () => {
    standIns.state.webhookEndpoints = () => [];
    const webhook = line(await doctor(goodEnv(standIns)), 'Stripe webhook');
    expect(webhook.detail).toBe(`no webhook endpoint sends to ${expected()}: the account has none in this mode`);
    expect(webhook.fix).toBe(
      [
        `Stripe Dashboard → Developers → Webhooks → Add endpoint: URL ${expected()}, events:`,
        ...STRIPE_WEBHOOK_EVENTS.map((event) => `  ${event}`),
        'then put its signing secret (whsec_…) in STRIPE_WEBHOOK_SECRET (scope Functions).',
      ].join('\n'),
    );
  });

  it("an endpoint sending every event ('*') passes; a trailing slash on its URL does not matter", async () => {
    standIns.state.webhookEndpoints = (site) => [{ id: 'we_1All', url: `${site}/api/stripe-webhook/`, status: 'enabled', enabled_events: ['*'] }];
    expect(line(await doctor(goodEnv(standIns)), 'Stripe webhook')).toMatchObject({ status: 'pass', detail: `we_1All is enabled for ${expected()} with every event (*)` });
  });

  it('a restricted key that may not read webhook endpoints is a warning to check by hand', async () => {
    const webhook = line(await doctor({ ...goodEnv(standIns), STRIPE_SECRET_KEY: DOCTOR_KEYS.stripeRestrictedNoWebhooks }), 'Stripe webhook');
    expect(webhook.status).toBe('warn');
    expect(webhook.detail).toContain("the key may not read webhook endpoints (403: The provided key 'rk_live_");
    expect(webhook.fix).toContain(`Check by hand in Stripe Dashboard → Developers → Webhooks that ${expected()} is enabled`);
  });

  it('a secret key Stripe does not know fails (401)', async () => {
    const webhook = line(await doctor({ ...goodEnv(standIns), STRIPE_SECRET_KEY: 'sk_live_rolledLongAgo' }), 'Stripe webhook');
    expect(webhook.status).toBe('fail');
    expect(webhook.detail).toContain('Stripe refused STRIPE_SECRET_KEY (401: Invalid API Key provided');
    expect(webhook.fix).toContain('Copy a current secret key from Stripe Dashboard → Developers → API keys into STRIPE_SECRET_KEY');
  });
});

describe('Stripe keys and the deploy context', () => {
  const testKeys = () => ({ ...goodEnv(standIns), STRIPE_SECRET_KEY: DOCTOR_KEYS.stripeSecretTest, STRIPE_PUBLISHABLE_KEY: DOCTOR_KEYS.stripePublishableTest });

  it('test keys in production fail', async () => {
    const keys = line(await doctor(testKeys()), 'Stripe keys');
    expect(keys).toMatchObject({ status: 'fail', detail: 'this is a production deploy (CONTEXT=production), which takes real payments only with a live pair, but both keys are test keys' });
  });

  it('test keys on a deploy preview pass; live keys there are a warning', async () => {
    expect(line(await doctor({ ...testKeys(), CONTEXT: 'deploy-preview' }), 'Stripe keys')).toMatchObject({ status: 'pass', detail: 'test keys, both of the same mode' });
    const live = line(await doctor({ ...goodEnv(standIns), CONTEXT: 'deploy-preview' }), 'Stripe keys');
    expect(live).toMatchObject({ status: 'warn', detail: 'live keys on a deploy that is not production (CONTEXT=deploy-preview): its checkout charges real cards' });
    expect(live.fix).toContain('Give the Deploy Previews and Branch deploys contexts test keys');
  });

  it('a live secret key with a test publishable key on a preview fails as a mismatch', async () => {
    const keys = line(await doctor({ ...goodEnv(standIns), CONTEXT: 'branch-deploy', STRIPE_PUBLISHABLE_KEY: DOCTOR_KEYS.stripePublishableTest }), 'Stripe keys');
    expect(keys).toMatchObject({ status: 'fail', detail: 'the secret key is a live key but the publishable key is a test key' });
    expect(keys.fix).toContain('Take both keys from the same mode');
  });

  it('a webhook secret that is not whsec_… fails', async () => {
    const keys = line(await doctor({ ...goodEnv(standIns), STRIPE_WEBHOOK_SECRET: 'we_1DoctorShop' }), 'Stripe keys');
    expect(keys).toMatchObject({ status: 'fail', detail: 'STRIPE_WEBHOOK_SECRET is not a webhook signing secret (whsec_…)' });
  });

  it('STRIPE_API_BASE_URL left set in a production deploy fails: payments would not go to Stripe', async () => {
    const report = await doctor({ ...goodEnv(standIns), STRIPE_API_BASE_URL: 'http://localhost:12111' });
    expect(line(report, 'Stripe endpoint')).toMatchObject({ status: 'fail', fix: 'Delete STRIPE_API_BASE_URL from the deploy: it is for pointing tests at a Stripe stand-in.' });
  });
});

describe('Xero', () => {
  it('misconfigured: the app without XERO_TOKEN_KEY fails, saying how to make one', async () => {
    const xero = line(await doctor({ ...goodEnv(standIns), XERO_CLIENT_ID: 'client', XERO_CLIENT_SECRET: 'secret' }), 'Xero');
    expect(xero).toMatchObject({ status: 'fail', detail: 'XERO_TOKEN_KEY is not set: the connection to Xero cannot be kept' });
    expect(xero.fix).toContain('openssl rand -base64 32');
  });
});

describe('Starshipit', () => {
  it('configured: the keys are accepted, and the line says where its webhook must point', async () => {
    const starshipit = line(await doctor(goodEnv(standIns)), 'Starshipit');
    expect(starshipit.status).toBe('pass');
    expect(starshipit.detail).toContain(`${standIns.urls.site}/api/shipping-webhook`);
  });

  it('misconfigured: a key Starshipit refuses (401) fails with where to copy the keys from', async () => {
    const starshipit = line(await doctor({ ...goodEnv(standIns), STARSHIPIT_SUBSCRIPTION_KEY: 'wrong' }), 'Starshipit');
    expect(starshipit).toMatchObject({ status: 'fail' });
    expect(starshipit.detail).toMatch(/^Starshipit refused STARSHIPIT_API_KEY or STARSHIPIT_SUBSCRIPTION_KEY \(401: Access denied/);
    expect(starshipit.fix).toContain('Settings → API');
  });

  it('without the webhook secret: a warning naming the webhook URL to set; without the keys: skipped', async () => {
    const noSecret = line(await doctor({ ...goodEnv(standIns), STARSHIPIT_WEBHOOK_SECRET: '' }), 'Starshipit');
    expect(noSecret.status).toBe('warn');
    expect(noSecret.fix).toContain(`${standIns.urls.site}/api/shipping-webhook`);
    const none = line(await doctor({ ...goodEnv(standIns), STARSHIPIT_API_KEY: '', STARSHIPIT_SUBSCRIPTION_KEY: '' }), 'Starshipit');
    expect(none).toMatchObject({ status: 'skip', detail: 'needs STARSHIPIT_API_KEY and STARSHIPIT_SUBSCRIPTION_KEY (see Optional variables)' });
  });
});

describe('Build hook (reviews)', () => {
  it('unset or not a Netlify build hook: fails, since a published review would never reach the pages', async () => {
    const good = line(await doctor(goodEnv(standIns)), 'Build hook (reviews)');
    expect(good.status).toBe('pass');
    const unset = line(await doctor({ ...goodEnv(standIns), NETLIFY_BUILD_HOOK_URL: '' }), 'Build hook (reviews)');
    expect(unset).toMatchObject({ status: 'fail', detail: expect.stringContaining('reviews cannot be published') });
    expect(unset.fix).toContain('Build hooks');
    const wrong = line(await doctor({ ...goodEnv(standIns), NETLIFY_BUILD_HOOK_URL: 'https://example.com/hook' }), 'Build hook (reviews)');
    expect(wrong).toMatchObject({ status: 'fail', detail: expect.stringContaining('is not a Netlify build hook') });
  });
});

describe('Resend sending domain', () => {
  it('a domain this account does not have fails with how to add it', async () => {
    standIns.state.resendDomains = [{ name: 'another.example', status: 'verified' }];
    const resend = line(await doctor(goodEnv(standIns)), 'Resend sending domain');
    expect(resend).toMatchObject({ status: 'fail', detail: `${SENDING_DOMAIN} (from EMAIL_FROM) is not a domain of this Resend account (it has another.example)` });
    expect(resend.fix).toContain(`Resend → Domains → Add Domain: ${SENDING_DOMAIN}`);
  });

  it('a sending-only key (restricted_api_key) is a warning: right for the shop, but the list cannot be read', async () => {
    const resend = line(await doctor({ ...goodEnv(standIns), RESEND_API_KEY: DOCTOR_KEYS.resendSendingOnly }), 'Resend sending domain');
    expect(resend.status).toBe('warn');
    expect(resend.fix).toBe(`Check in Resend → Domains that ${SENDING_DOMAIN} shows "Verified", or run the doctor once with a full-access key in RESEND_API_KEY.`);
  });

  it('an invalid key (403 invalid_api_key) fails', async () => {
    const resend = line(await doctor({ ...goodEnv(standIns), RESEND_API_KEY: 're_wrong' }), 'Resend sending domain');
    expect(resend).toMatchObject({ status: 'fail', detail: 'Resend refused RESEND_API_KEY (403 invalid_api_key: API key is invalid)' });
  });
});

describe('Turnstile, Australia Post and Google Places keys', () => {
  it("Cloudflare's always-passing test secret fails in production", async () => {
    const turnstile = line(await doctor({ ...goodEnv(standIns), TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA' }), 'Turnstile secret');
    expect(turnstile.status).toBe('fail');
    expect(turnstile.detail).toContain("TURNSTILE_SECRET_KEY is Cloudflare's test key");
  });

  it('Australia Post answering 403 fails as a refused key too', async () => {
    const { url, close } = await startFakeProvider((_seen, response) => response.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>Forbidden</body></html>'));
    try {
      const pac = line(await doctor({ ...goodEnv(standIns), DOCTOR_AUSPOST_API_URL: url }), 'Australia Post rates');
      expect(pac).toMatchObject({ status: 'fail', detail: 'Australia Post refused AUSPOST_API_KEY (403): every checkout would fall back to the fixed rate card' });
    } finally {
      await close();
    }
  });

  it('Google answering 400 API_KEY_INVALID fails with where to copy the key from', async () => {
    const places = line(await doctor({ ...goodEnv(standIns), GOOGLE_PLACES_API_KEY: 'AIza-wrong' }), 'Google Places');
    expect(places.detail).toBe('Google refused GOOGLE_PLACES_API_KEY (400 INVALID_ARGUMENT API_KEY_INVALID: API key not valid. Please pass a valid API key.): shoppers get no address suggestions');
    expect(places.fix).toBe('Google Cloud → APIs & Services → Credentials: copy the key again into GOOGLE_PLACES_API_KEY (scope Functions).');
  });
});

describe('the live site', () => {
  it("a Content-Security-Policy that differs from the build's dist/_headers fails, naming the directives that differ", async () => {
    const headers = netlifyHeaders();
    standIns.state.siteHeaders = {
      ...headers,
      'Content-Security-Policy': headers['Content-Security-Policy']!.replace(' https://*.google-analytics.com', '').replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
    };
    const result = line(await doctor(goodEnv(standIns)), 'Security headers');
    expect(result.status).toBe('fail');
    expect(result.detail).toBe(
      "Content-Security-Policy differs from what the build's dist/_headers sets: connect-src lacks https://*.google-analytics.com; frame-ancestors lacks 'none' and adds 'self'",
    );
  });

  it("a project not built yet fails, since the Content-Security-Policy is in the build's dist/_headers", async () => {
    const unbuilt = makeProject();
    rmSync(join(unbuilt, 'dist'), { recursive: true });
    const result = line(await doctor(goodEnv(standIns), { rootDir: unbuilt }), 'Security headers');
    expect(result).toMatchObject({ status: 'fail', detail: "neither netlify.toml nor the build's dist/_headers sets Content-Security-Policy for /*" });
    expect(result.fix).toContain('Run npm run build (it writes the Content-Security-Policy into dist/_headers)');
  });

  it('a changed X-Frame-Options fails, quoting both values', async () => {
    standIns.state.siteHeaders = { ...netlifyHeaders(), 'X-Frame-Options': 'SAMEORIGIN' };
    expect(line(await doctor(goodEnv(standIns)), 'Security headers').detail).toBe('X-Frame-Options is "SAMEORIGIN", netlify.toml says "DENY"');
  });

  it('a plain-http address other than this machine fails: the site must be checked over https', async () => {
    const report = await runDoctor({ env: goodEnv(standIns), site: 'http://shop.invalid', rootDir: project, timeoutMs: 500 });
    expect(line(report, 'Site address')).toMatchObject({ status: 'fail', fix: 'Run the doctor with --site https://shop.invalid' });
  });
});

describe('variables, skipped checks and unreachable providers', () => {
  it('optional services left unset are one warning, and their checks are skipped saying why', async () => {
    const env: Record<string, string | undefined> = { ...goodEnv(standIns), AUSPOST_API_KEY: undefined, GOOGLE_PLACES_API_KEY: '', NOTIFY_EMAIL_TO: undefined, PUBLIC_GA4_ID: undefined };
    const report = await doctor(env);
    expect(line(report, 'Optional variables')).toMatchObject({ status: 'warn' });
    expect(line(report, 'Optional variables').detail).toBe(
      [
        'AUSPOST_API_KEY not set: shipping is priced from the fixed rate card, not Australia Post',
        'GOOGLE_PLACES_API_KEY not set: shoppers type their address by hand (no suggestions)',
        "NOTIFY_EMAIL_TO not set: the publisher's notices (paid orders, contact messages, new subscribers) go to EMAIL_FROM",
        'PUBLIC_GA4_ID not set: no analytics',
      ].join('\n'),
    );
    expect(line(report, 'Australia Post rates')).toEqual({
      name: 'Australia Post rates',
      status: 'skip',
      detail: 'AUSPOST_API_KEY is not set: shipping is priced from the fixed rate card, not Australia Post',
    });
    expect(line(report, 'Google Places').status).toBe('skip');
    expect(report.text).toContain('- Australia Post rates: skipped: AUSPOST_API_KEY is not set');
    expect(report.exitCode).toBe(0);
  });

  it('a required provider without its variables: the variables line fails and the provider line is skipped', async () => {
    const report = await doctor({ ...goodEnv(standIns), RESEND_API_KEY: undefined, EMAIL_FROM: undefined });
    expect(line(report, 'Required variables')).toMatchObject({ status: 'fail', detail: 'not set: RESEND_API_KEY, EMAIL_FROM' });
    expect(line(report, 'Resend sending domain')).toMatchObject({ status: 'skip', detail: 'needs RESEND_API_KEY and EMAIL_FROM (see Required variables)' });
  });

  it('a provider that does not answer in time fails the line (nothing was verified) and the run goes on', async () => {
    const silent = await startFakeProvider(() => undefined);
    try {
      const report = await doctor({ ...goodEnv(standIns), DOCTOR_RESEND_API_URL: silent.url }, { timeoutMs: 300 });
      expect(line(report, 'Resend sending domain')).toMatchObject({ status: 'fail', detail: `could not reach Resend (${silent.url}): no answer within 0.3 s` });
      expect(line(report, 'Resend sending domain').fix).toContain('DOCTOR_RESEND_API_URL');
      expect(line(report, 'Stripe webhook').status).toBe('pass');
    } finally {
      await silent.close();
    }
  });
});

describe('content still marked as sample', () => {
  it('lists every content file whose frontmatter or YAML says sample: true, as a warning to replace or confirm', async () => {
    const folder = makeProject({
      'content/blog/first-post.mdx': '---\ntitle: First post\nsample: true\n---\n\nLorem ipsum.\n',
      'content/landing/catholic-books-perth.yaml': 'title: Catholic books in Perth\nsample: true\nblocks: []\n',
      'content/site/about.yaml': 'title: About\nsample: false\n',
      'content/blog/how-we-write.mdx': '---\ntitle: How we write\n---\n\nA post that shows `sample: true` in its body is not marked.\n',
    });
    const result = line(await doctor(goodEnv(standIns), { rootDir: folder }), 'Sample content');
    expect(result.status).toBe('warn');
    expect(result.detail).toBe('2 files are still marked sample: true — replace or confirm before going live:\n  content/blog/first-post.mdx\n  content/landing/catholic-books-perth.yaml');
    expect(result.fix).toContain('remove the `sample: true` line');
  });
});

describe('the command', () => {
  const exec = promisify(execFile);
  const tsx = join(ROOT, 'node_modules/.bin/tsx');

  async function command(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await exec(tsx, ['tools/doctor/run.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  function envFile(env: Record<string, string>): string {
    const file = join(mkdtempSync(join(tmpdir(), 'doctor-env-')), '.env');
    writeFileSync(
      file,
      Object.entries(env)
        .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
        .join('\n'),
    );
    return file;
  }

  it('reads --env-file over the shell’s variables, prints the checklist and exits 1 when a line failed, 0 when none did', async () => {
    const bad = await command(['--site', standIns.urls.site, '--env-file', envFile(misconfigure(standIns))], { STRIPE_WEBHOOK_SECRET: DOCTOR_KEYS.stripeWebhookSecret });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('✗ Turnstile secret: Cloudflare does not know TURNSTILE_SECRET_KEY (invalid-input-secret)');
    // The shell had STRIPE_WEBHOOK_SECRET; the file does not take it away, so that line passes.
    expect(bad.stdout).toContain('✓ Required variables');

    standIns.state = goodState();
    const good = await command(['--site', standIns.urls.site, '--env-file', envFile(goodEnv(standIns))], {});
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('✓ Stripe webhook');
    expect(good.stdout).toContain('0 failed');
  });

  it('without a site it says how to name one and exits 2', async () => {
    const result = await command([], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Which site? Pass --site https://your-shop.example, or set SITE_URL.');
  });
});
