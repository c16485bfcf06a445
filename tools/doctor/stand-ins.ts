/**
 * Local stand-ins for everything `npm run doctor` asks, each on 127.0.0.1 and answering as the provider's
 * documentation shows, failures included: Supabase Auth's settings, Stripe's webhook endpoints, Resend's
 * domains, Turnstile's siteverify, Australia Post's PAC, Google Places (New) autocomplete, and the deployed
 * site (its headers and /api/health). What each answers is in `state`, which a test may change between runs;
 * which keys each accepts is in DOCTOR_KEYS.
 */
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { readNetlifyRules } from '../../local/netlify-rules';
import { STRIPE_WEBHOOK_EVENTS } from '../../functions/_lib/providers/stripe';
import { sendJson, startFakeProvider, type FakeProvider } from '../fake-provider';

/** The keys the stand-ins accept, and a few they treat specially; anything else is refused. */
export const DOCTOR_KEYS = {
  supabaseAnon: 'doctor-anon-key',
  stripeSecretLive: 'sk_live_doctorLiveSecret',
  stripePublishableLive: 'pk_live_doctorLivePublishable',
  stripeSecretTest: 'sk_test_doctorTestSecret',
  stripePublishableTest: 'pk_test_doctorTestPublishable',
  /** A restricted key without read access to webhook endpoints: Stripe answers 403. */
  stripeRestrictedNoWebhooks: 'rk_live_doctorNoWebhookRead',
  stripeWebhookSecret: 'whsec_doctorSigningSecret',
  resendFull: 're_doctorFullAccess',
  /** A sending-only key: Resend answers 401 restricted_api_key to anything but sending. */
  resendSendingOnly: 're_doctorSendingOnly',
  turnstileSecret: '0x4AAAAAAADoctorSecretKey',
  turnstileSiteKey: '0x4AAAAAAADoctorSiteKey',
  auspost: 'doctor-pac-key',
  places: 'doctor-places-key',
  /** A real key whose project has Places API (New) switched off: Google answers 403 PERMISSION_DENIED. */
  placesApiOff: 'doctor-places-key-api-off',
  starshipitApi: 'doctor-starshipit-api-key',
  starshipitSubscription: 'doctor-starshipit-subscription-key',
} as const;

export interface WebhookEndpoint {
  id: string;
  url: string;
  status: 'enabled' | 'disabled';
  enabled_events: string[];
}

export interface StandInState {
  /** GET /auth/v1/settings: the fields the doctor reads. */
  auth: { external: Record<string, boolean>; disable_signup: boolean; mailer_autoconfirm: boolean };
  /** GET /v1/webhook_endpoints, given the site's origin. */
  webhookEndpoints: (site: string) => WebhookEndpoint[];
  /** GET /domains */
  resendDomains: Array<{ name: string; status: string }>;
  /** The headers the site's home page is served with. */
  siteHeaders: Record<string, string>;
  /** GET /rest/v1/products?for_sale=eq.true: the hosted catalog's books on sale with their customs columns. */
  products: Array<{ id: string; title: string; customs_description: string | null; hs_code: string | null; origin_country: string | null }>;
}

/** The service-role key the Supabase stand-in accepts for its REST API. */
export const DOCTOR_SERVICE_ROLE_KEY = 'doctor-service-role-key';

const CUSTOMS_READY = { customs_description: "Printed children's picture book", hs_code: '4903.00', origin_country: 'AU' };

export const SENDING_DOMAIN = 'awesomecatholickids.example';

const NETLIFY_HEADERS = (
  await readNetlifyRules({ configPath: fileURLToPath(new URL('../../netlify.toml', import.meta.url)), publishDir: fileURLToPath(new URL('../../dist', import.meta.url)) })
).headersFor('/');

/** What netlify.toml and the built _headers set for every page: a well-deployed site serves exactly these. */
export function netlifyHeaders(): Record<string, string> {
  return { ...NETLIFY_HEADERS };
}

/** A well-configured deploy, as each provider would describe it. */
export function goodState(): StandInState {
  return {
    auth: { external: { anonymous_users: false, google: true, email: false, phone: false, apple: false }, disable_signup: false, mailer_autoconfirm: false },
    webhookEndpoints: (site) => [{ id: 'we_1DoctorShop', url: `${site}/api/stripe-webhook`, status: 'enabled', enabled_events: [...STRIPE_WEBHOOK_EVENTS] }],
    resendDomains: [{ name: SENDING_DOMAIN, status: 'verified' }],
    siteHeaders: netlifyHeaders(),
    products: [{ id: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!', ...CUSTOMS_READY }],
  };
}

export interface DoctorStandIns {
  state: StandInState;
  urls: { supabase: string; stripe: string; resend: string; turnstile: string; auspost: string; places: string; starshipit: string; site: string };
  /** Every request each stand-in received. */
  servers: Record<keyof DoctorStandIns['urls'], FakeProvider<unknown>>;
  close: () => Promise<void>;
}

function stripeError(response: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  sendJson(response, status, { error: { message, type: 'invalid_request_error', ...extra } });
}

function googleError(response: ServerResponse, code: number, status: string, message: string, reason: string): void {
  sendJson(response, code, {
    error: { code, message, status, details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { service: 'places.googleapis.com' } }] },
  });
}

function resendError(response: ServerResponse, statusCode: number, name: string, message: string): void {
  sendJson(response, statusCode, { statusCode, name, message });
}

const masked = (key: string) => `${key.slice(0, 8)}${'*'.repeat(8)}${key.slice(-4)}`;

export async function startDoctorStandIns(state: StandInState = goodState()): Promise<DoctorStandIns> {
  const standIns = { state } as DoctorStandIns;

  const supabase = await startFakeProvider((seen, response) => {
    if (seen.url.pathname === '/rest/v1/products') {
      if (seen.headers.apikey !== DOCTOR_SERVICE_ROLE_KEY) return sendJson(response, 401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' });
      const columns = (seen.url.searchParams.get('select') ?? '').split(',');
      return sendJson(
        response,
        200,
        standIns.state.products.map((product) => Object.fromEntries(columns.map((column) => [column, (product as Record<string, unknown>)[column] ?? null]))),
      );
    }
    if (seen.url.pathname !== '/auth/v1/settings') return sendJson(response, 404, { message: 'no Route matched with those values' });
    if (seen.headers.apikey !== DOCTOR_KEYS.supabaseAnon) return sendJson(response, 401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' });
    const { auth } = standIns.state;
    sendJson(response, 200, { ...auth, external: { ...auth.external }, phone_autoconfirm: false, sms_provider: '', saml_enabled: false });
  });

  const site = await startFakeProvider((seen, response) => {
    if (seen.url.pathname === '/api/health') return sendJson(response, 200, { ok: true });
    if (seen.url.pathname !== '/') return response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...standIns.state.siteHeaders }).end('<!doctype html><title>Awesome Catholic Kids</title>');
  });

  const stripe = await startFakeProvider((seen, response) => {
    const key = /^Bearer (.+)$/.exec(seen.headers.authorization ?? '')?.[1];
    if (!key) return stripeError(response, 401, 'You did not provide an API key.');
    if (key === DOCTOR_KEYS.stripeRestrictedNoWebhooks) {
      return stripeError(
        response,
        403,
        `The provided key '${masked(key)}' does not have the required permissions for this endpoint. Having the 'rak_webhook_read' permission would allow this request to continue.`,
      );
    }
    if (key !== DOCTOR_KEYS.stripeSecretLive && key !== DOCTOR_KEYS.stripeSecretTest) return stripeError(response, 401, `Invalid API Key provided: ${masked(key)}`);
    if (seen.method !== 'GET' || seen.url.pathname !== '/v1/webhook_endpoints') return stripeError(response, 404, `Unrecognized request URL (${seen.method}: ${seen.url.pathname}).`);
    const livemode = key.startsWith('sk_live_');
    const data = standIns.state.webhookEndpoints(site.url).map((endpoint) => ({
      object: 'webhook_endpoint',
      api_version: null,
      application: null,
      created: 1_767_225_600,
      description: null,
      livemode,
      metadata: {},
      ...endpoint,
    }));
    sendJson(response, 200, { object: 'list', url: '/v1/webhook_endpoints', has_more: false, data });
  });

  const resend = await startFakeProvider((seen, response) => {
    const key = /^Bearer (.+)$/.exec(seen.headers.authorization ?? '')?.[1];
    if (!key) return resendError(response, 401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (key === DOCTOR_KEYS.resendSendingOnly) return resendError(response, 401, 'restricted_api_key', 'This API key is restricted to only send emails.');
    if (key !== DOCTOR_KEYS.resendFull) return resendError(response, 403, 'invalid_api_key', 'API key is invalid');
    if (seen.method !== 'GET' || seen.url.pathname !== '/domains') return resendError(response, 404, 'not_found', 'The requested endpoint does not exist.');
    sendJson(response, 200, {
      object: 'list',
      has_more: false,
      data: standIns.state.resendDomains.map((domain, index) => ({
        id: `d91cd9bd-1176-453e-8fc1-35364d38020${index}`,
        created_at: '2026-01-05T00:00:00.000Z',
        region: 'ap-northeast-1',
        capabilities: { sending: 'enabled', receiving: 'disabled' },
        ...domain,
      })),
    });
  });

  const turnstile = await startFakeProvider<URLSearchParams>(
    (seen, response) => {
      if (seen.method !== 'POST' || seen.url.pathname !== '/turnstile/v0/siteverify') return response.writeHead(405).end();
      const secret = seen.body.get('secret');
      const token = seen.body.get('response');
      const fail = (...codes: string[]) => sendJson(response, 200, { success: false, 'error-codes': codes, messages: [] });
      if (!secret) return fail('missing-input-secret');
      // Cloudflare's dummy secrets answer for any token: 1x… passes, 2x… fails, 3x… says the token was spent.
      if (/^1x0{31}AA$/.test(secret)) return sendJson(response, 200, { success: true, 'error-codes': [], challenge_ts: new Date().toISOString(), hostname: 'example.com' });
      if (/^2x0{31}AA$/.test(secret)) return fail('invalid-input-response');
      if (/^3x0{31}AA$/.test(secret)) return fail('timeout-or-duplicate');
      if (secret !== DOCTOR_KEYS.turnstileSecret) return fail('invalid-input-secret');
      if (!token) return fail('missing-input-response');
      fail('invalid-input-response');
    },
    { parseBody: (raw) => new URLSearchParams(raw) },
  );

  const auspost = await startFakeProvider((seen, response) => {
    if (seen.headers['auth-key'] !== DOCTOR_KEYS.auspost) return response.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
    if (seen.url.pathname === '/postage/parcel/international/service.json') {
      return sendJson(response, 200, {
        services: {
          service: [
            { code: 'INT_PARCEL_COR_OWN_PACKAGING', name: 'Courier', price: '98.35', max_extra_cover: 5000 },
            { code: 'INT_PARCEL_EXP_OWN_PACKAGING', name: 'Express', price: '45.30', max_extra_cover: 5000 },
            { code: 'INT_PARCEL_STD_OWN_PACKAGING', name: 'Standard', price: '28.50', max_extra_cover: 5000 },
          ],
        },
      });
    }
    if (seen.url.pathname !== '/postage/parcel/domestic/service.json') return sendJson(response, 404, { error: { errorMessage: 'Resource not found.' } });
    sendJson(response, 200, {
      services: {
        service: [
          { code: 'AUS_PARCEL_REGULAR', name: 'Parcel Post', price: '12.85', max_extra_cover: 5000 },
          { code: 'AUS_PARCEL_EXPRESS', name: 'Express Post', price: '16.55', max_extra_cover: 5000 },
        ],
      },
    });
  });

  const places = await startFakeProvider((seen, response) => {
    const key = seen.headers['x-goog-api-key'];
    if (key === DOCTOR_KEYS.placesApiOff) {
      return googleError(
        response,
        403,
        'PERMISSION_DENIED',
        'Places API (New) has not been used in project 123456789 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=123456789 then retry.',
        'SERVICE_DISABLED',
      );
    }
    if (key !== DOCTOR_KEYS.places) return googleError(response, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID');
    if (seen.method !== 'POST' || seen.url.pathname !== '/v1/places:autocomplete') return googleError(response, 404, 'NOT_FOUND', 'Method not found.', 'NOT_FOUND');
    sendJson(response, 200, { suggestions: [{ placePrediction: { placeId: 'ChIJ3S-JXmauEmsRUcIaWtf4MzE' } }] });
  });

  // Starshipit's gateway: both keys or a 401, as its API reference shows.
  const starshipit = await startFakeProvider((seen, response) => {
    if (seen.headers['starshipit-api-key'] !== DOCTOR_KEYS.starshipitApi || seen.headers['ocp-apim-subscription-key'] !== DOCTOR_KEYS.starshipitSubscription) {
      return sendJson(response, 401, { statusCode: 401, message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.' });
    }
    if (seen.method !== 'GET' || seen.url.pathname !== '/api/orders/unshipped') return sendJson(response, 404, { statusCode: 404, message: 'Resource not found' });
    sendJson(response, 200, { orders: [], total_pages: 0, success: true, errors: [] });
  });

  standIns.servers = { supabase, site, stripe, resend, turnstile, auspost, places, starshipit } as DoctorStandIns['servers'];
  standIns.urls = Object.fromEntries(Object.entries(standIns.servers).map(([name, server]) => [name, server.url])) as DoctorStandIns['urls'];
  standIns.close = async () => {
    await Promise.all(Object.values(standIns.servers).map((server) => server.close()));
  };
  return standIns;
}

/** A production deploy's environment with every variable right, pointed at the stand-ins. */
export function goodEnv(standIns: DoctorStandIns): Record<string, string> {
  const { urls } = standIns;
  return {
    CONTEXT: 'production',
    SITE_URL: urls.site,
    PUBLIC_SUPABASE_URL: urls.supabase,
    PUBLIC_SUPABASE_ANON_KEY: DOCTOR_KEYS.supabaseAnon,
    SUPABASE_URL: urls.supabase,
    SUPABASE_SERVICE_ROLE_KEY: DOCTOR_SERVICE_ROLE_KEY,
    STRIPE_SECRET_KEY: DOCTOR_KEYS.stripeSecretLive,
    STRIPE_PUBLISHABLE_KEY: DOCTOR_KEYS.stripePublishableLive,
    STRIPE_WEBHOOK_SECRET: DOCTOR_KEYS.stripeWebhookSecret,
    RESEND_API_KEY: DOCTOR_KEYS.resendFull,
    EMAIL_FROM: `Awesome Catholic Kids <orders@${SENDING_DOMAIN}>`,
    NOTIFY_EMAIL_TO: `publisher@${SENDING_DOMAIN}`,
    NEWSLETTER_SIGNING_SECRET: 'doctor-newsletter-signing-secret-0123456789abcdef',
    SHOP_POSTAL_ADDRESS: 'PO Box 123, Parramatta NSW 2124',
    SHOP_LEGAL_NAME: 'Awesome Catholic Kids Publishing Pty Ltd',
    SHOP_ABN: '51 824 753 556',
    TURNSTILE_SECRET_KEY: DOCTOR_KEYS.turnstileSecret,
    PUBLIC_TURNSTILE_SITE_KEY: DOCTOR_KEYS.turnstileSiteKey,
    AUSPOST_API_KEY: DOCTOR_KEYS.auspost,
    GOOGLE_PLACES_API_KEY: DOCTOR_KEYS.places,
    PUBLIC_GA4_ID: 'G-DOCTOR123',
    DOCTOR_STRIPE_API_URL: urls.stripe,
    DOCTOR_RESEND_API_URL: urls.resend,
    DOCTOR_TURNSTILE_API_URL: urls.turnstile,
    DOCTOR_AUSPOST_API_URL: urls.auspost,
    DOCTOR_GOOGLE_PLACES_API_URL: urls.places,
    STARSHIPIT_API_KEY: DOCTOR_KEYS.starshipitApi,
    STARSHIPIT_SUBSCRIPTION_KEY: DOCTOR_KEYS.starshipitSubscription,
    STARSHIPIT_WEBHOOK_SECRET: 'doctor-starshipit-webhook-secret',
    DOCTOR_STARSHIPIT_API_URL: urls.starshipit,
    NETLIFY_BUILD_HOOK_URL: 'https://api.netlify.com/build_hooks/5f2a0c1e9d3b4a6f8e7d1c2b',
  };
}

/**
 * A deploy with one mistake per provider: email sign-up on and confirmed by nobody, the webhook disabled and
 * missing an event, the sending domain unverified, a wrong Turnstile secret, a refused Australia Post key,
 * Places API (New) off for the key's project, a refused Starshipit key, no Content-Security-Policy on the site, a book on sale
 * without its HS code and origin, STRIPE_WEBHOOK_SECRET
 * unset, and a test publishable key beside a live secret key.
 */
export function misconfigure(standIns: DoctorStandIns): Record<string, string> {
  const good = goodState();
  standIns.state = {
    auth: { external: { google: true, email: true, phone: false }, disable_signup: false, mailer_autoconfirm: true },
    webhookEndpoints: (site) => [
      {
        id: 'we_1DoctorShop',
        url: `${site}/api/stripe-webhook`,
        status: 'disabled',
        enabled_events: STRIPE_WEBHOOK_EVENTS.filter((event) => event !== 'checkout.session.expired'),
      },
    ],
    resendDomains: [{ name: SENDING_DOMAIN, status: 'pending' }],
    siteHeaders: Object.fromEntries(Object.entries(good.siteHeaders).filter(([name]) => name.toLowerCase() !== 'content-security-policy')),
    products: [...good.products, { id: 'rosary-for-little-hands', title: 'A Rosary for Little Hands', customs_description: 'Printed picture book', hs_code: null, origin_country: null }],
  };
  const env: Record<string, string> = goodEnv(standIns);
  delete env.STRIPE_WEBHOOK_SECRET;
  return {
    ...env,
    STRIPE_PUBLISHABLE_KEY: DOCTOR_KEYS.stripePublishableTest,
    TURNSTILE_SECRET_KEY: '0x4AAAAAAAWrongSecretKey',
    AUSPOST_API_KEY: 'wrong-pac-key',
    GOOGLE_PLACES_API_KEY: DOCTOR_KEYS.placesApiOff,
    // One digit off: the check digits catch it.
    SHOP_ABN: '51 824 753 557',
    STARSHIPIT_API_KEY: 'wrong-starshipit-key',
  };
}
