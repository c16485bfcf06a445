/**
 * `npm run doctor` against local stand-ins that answer as each provider's documentation shows
 * (tools/doctor/stand-ins.ts): a well-configured deploy passes every line, and each way a deploy can be
 * misconfigured fails its own line with the fix to make. No network: every address is 127.0.0.1.
 * Each provider's own lines: doctor-providers.test.ts; the site, skipped checks and the command: doctor-site.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../src/config/env';
import { REQUIRED_VARIABLES } from '../../tools/doctor/checks/variables';
import type { DoctorReport } from '../../tools/doctor/doctor';
import { DOCTOR_KEYS, type DoctorStandIns, goodEnv, goodState, misconfigure, SENDING_DOMAIN } from '../../tools/doctor/stand-ins';
import { doctor, line, standIns, useDoctorStandIns } from '../helpers/doctor';

useDoctorStandIns();

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
