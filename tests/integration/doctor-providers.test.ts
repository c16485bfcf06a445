/**
 * `npm run doctor`, each provider's line against its stand-in (tools/doctor/stand-ins.ts): Supabase Auth, Stripe,
 * Xero, Starshipit, the build hook, Resend, Turnstile, Australia Post and Google Places, each answer the provider
 * can give failing or warning with the fix to make. No network: every address is 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { STRIPE_WEBHOOK_EVENTS } from '../../functions/_lib/providers/stripe';
import { DOCTOR_KEYS, goodEnv, SENDING_DOMAIN } from '../../tools/doctor/stand-ins';
import { doctor, line, standIns, useDoctorStandIns } from '../helpers/doctor';
import { startFakeProvider } from '../helpers/fake-provider';

useDoctorStandIns();

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
