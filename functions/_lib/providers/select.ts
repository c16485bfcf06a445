/**
 * The ONE place that picks each side service from the environment: a provider's variables set → the real
 * adapter; unset → the local stand-in, but only on the local server. In a deploy a missing secret for
 * payments or email fails closed (ConfigurationError, answered 503) instead of quietly using a stand-in.
 * Callers pass `readServerEnv()` and use the interfaces in ./types only.
 */
import type { ServerEnv } from '../../../src/config/env';
import { SITE } from '../../../src/config/site';
import { ConfigurationError, localStandInsAllowed } from '../runtime';
import { createLocalOutboxEmail } from './local-email';
import { createResendEmail } from './resend';
import { createTurnstileCheck } from './turnstile';
import { manualAddressEntry, type AddressLookupProvider } from './address-lookup';
import type { EmailProvider } from './email';
import { noHumanCheck, type HumanCheckProvider } from './human-check';
import type { PaymentProvider } from './payments';
import { flatRateShipping, type ShippingRatesProvider } from './shipping-rates';
import { serviceClient } from '../supabase-admin';
import { createAustraliaPostRates } from './australia-post';
import { createGooglePlacesLookup } from './google-places';
import { createLocalTestPayments } from './local-payments';
import { createStripePayments } from './stripe';
import type { InvoiceProvider } from './invoicing';
import { createLocalInvoicing } from './local-invoicing';
import { createStripeInvoicing } from './stripe-invoicing';
import { localCdnCache, noCdnCache, type CdnCache } from './cdn-cache';
import { createNetlifyPurge } from './netlify-purge';
import { createLocalShipping } from './local-shipping';
import type { ShippingPlatform } from './shipping-platform';
import { createStarshipit } from './starshipit';
import { createNetlifyBuildHook, localSiteBuilds, type SiteBuilds } from './site-builds';
import type { AccountingProvider } from './accounting';
import { createLocalXero } from './local-xero';
import { createXero } from './xero';

const warned = new Set<string>();
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(message);
}

/** Email that cannot be sent: every send fails with what to configure, so callers log it and retry later. */
const unconfiguredEmail: EmailProvider = {
  name: 'unconfigured',
  async send() {
    throw new ConfigurationError('RESEND_API_KEY and EMAIL_FROM are not set for the functions: this email was not sent.');
  },
  async sendBatch() {
    throw new ConfigurationError('RESEND_API_KEY and EMAIL_FROM are not set for the functions: these emails were not sent.');
  },
};

/** Resend when RESEND_API_KEY and EMAIL_FROM are set; the local outbox file on the local server; otherwise nothing is sent. */
export function selectEmailProvider(env: ServerEnv): EmailProvider {
  if (env.RESEND_API_KEY && env.EMAIL_FROM) return createResendEmail({ apiKey: env.RESEND_API_KEY, from: env.EMAIL_FROM });
  if (localStandInsAllowed(env)) return createLocalOutboxEmail();
  warnOnce('email', '[providers] RESEND_API_KEY or EMAIL_FROM is not set: no email can be sent from this deploy.');
  return unconfiguredEmail;
}

export const FORMS_NOT_SET_UP = `Our contact form and newsletter sign-up are not working just now. Please email us at ${SITE.email}.`;

/**
 * Turnstile when TURNSTILE_SECRET_KEY is set; no bot-check on the local server (logged once); anywhere else a
 * ConfigurationError: a deploy without the secret takes no messages or sign-ups rather than letting bots in.
 */
export function selectHumanCheck(env: ServerEnv): HumanCheckProvider {
  if (env.TURNSTILE_SECRET_KEY) return createTurnstileCheck({ secretKey: env.TURNSTILE_SECRET_KEY });
  if (!localStandInsAllowed(env)) {
    throw new ConfigurationError(
      'TURNSTILE_SECRET_KEY is not set for the functions: the contact form and newsletter sign-up are refused (the bot-check is off only on the local server).',
      FORMS_NOT_SET_UP,
    );
  }
  warnOnce('human-check', '[providers] TURNSTILE_SECRET_KEY is not set: the bot-check is off and form tokens are not verified.');
  return noHumanCheck;
}

// ---------------------------------------------------------------------------------------------------------------------
// Commerce: payments, shipping rates, address lookup.

/** STRIPE_API_BASE_URL (stripe-mock and tests) as the Stripe client's host options. */
function stripeEndpoint(baseUrl: string | undefined) {
  if (!baseUrl) return undefined;
  const url = new URL(baseUrl);
  return { host: url.hostname, port: url.port || (url.protocol === 'https:' ? '443' : '80'), protocol: url.protocol.replace(':', '') as 'http' | 'https' };
}

export const PAYMENTS_NOT_SET_UP = 'Card payments are not set up on this site yet. Please contact us to order.';

/**
 * Stripe when STRIPE_SECRET_KEY is set; the local TEST payment page on the local server; anywhere else a
 * ConfigurationError: a deploy without the secret takes no orders rather than orders with no money moved.
 */
export function selectPaymentProvider(env: ServerEnv): PaymentProvider {
  if (env.STRIPE_SECRET_KEY) {
    return createStripePayments({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, stripeOptions: stripeEndpoint(env.STRIPE_API_BASE_URL) });
  }
  if (!localStandInsAllowed(env)) {
    throw new ConfigurationError('STRIPE_SECRET_KEY is not set for the functions: payments are refused (the TEST payment page runs only on the local server).', PAYMENTS_NOT_SET_UP);
  }
  warnOnce('payments', '[providers] STRIPE_SECRET_KEY is not set: using the LOCAL TEST payment page (no real money).');
  return createLocalTestPayments(() => serviceClient(env));
}

const INVOICING_NOT_SET_UP = 'Invoices cannot be sent from this site yet: STRIPE_SECRET_KEY is not set.';

/**
 * Stripe Invoicing when STRIPE_SECRET_KEY is set; the local TEST invoice page (its emails in the outbox) on the local
 * server; anywhere else a ConfigurationError: a deploy without the secret sends no invoice rather than pretend to.
 */
export function selectInvoiceProvider(env: ServerEnv, siteOrigin: string): InvoiceProvider {
  if (env.STRIPE_SECRET_KEY) {
    return createStripeInvoicing({ secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, stripeOptions: stripeEndpoint(env.STRIPE_API_BASE_URL) });
  }
  if (!localStandInsAllowed(env)) {
    throw new ConfigurationError('STRIPE_SECRET_KEY is not set for the functions: invoices are refused (the TEST invoice page runs only on the local server).', INVOICING_NOT_SET_UP);
  }
  warnOnce('invoicing', '[providers] STRIPE_SECRET_KEY is not set: invoices go to the LOCAL TEST invoice page (no real money).');
  return createLocalInvoicing(() => serviceClient(env), selectEmailProvider(env), siteOrigin);
}

/** Australia Post when AUSPOST_API_KEY is set; otherwise the flat rate card. */
export function selectShippingRates(env: ServerEnv): ShippingRatesProvider {
  return env.AUSPOST_API_KEY ? createAustraliaPostRates({ apiKey: env.AUSPOST_API_KEY }) : flatRateShipping;
}

/** Google Places when GOOGLE_PLACES_API_KEY is set; otherwise manual address entry. */
export function selectAddressLookup(env: ServerEnv): AddressLookupProvider {
  return env.GOOGLE_PLACES_API_KEY ? createGooglePlacesLookup({ apiKey: env.GOOGLE_PLACES_API_KEY }) : manualAddressEntry;
}

/** The TEST payment page is what payments use here: the local server without a Stripe key. */
export function testPaymentsInUse(env: ServerEnv): boolean {
  try {
    return selectPaymentProvider(env).name === 'local-test';
  } catch (error) {
    if (error instanceof ConfigurationError) return false;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The CDN's cache of function answers.

/**
 * Netlify's purge API where Netlify gave the function its purge token and site id; the local server's own cache
 * on the local server; anywhere else nothing (logged once), and cached answers expire by their cache period.
 */
export function selectCdnCache(env: ServerEnv): CdnCache {
  if (env.NETLIFY_PURGE_API_TOKEN && env.SITE_ID) return createNetlifyPurge({ token: env.NETLIFY_PURGE_API_TOKEN, siteId: env.SITE_ID });
  if (localStandInsAllowed(env)) return localCdnCache;
  warnOnce('cdn-cache', '[providers] NETLIFY_PURGE_API_TOKEN or SITE_ID is not set: cached answers are not purged and expire by their cache period.');
  return noCdnCache;
}

// ---------------------------------------------------------------------------------------------------------------------
// The shipping platform: labels and tracking.

export const SHIPPING_PLATFORM_NOT_SET_UP =
  'No shipping platform is set up for this site (STARSHIPIT_API_KEY and STARSHIPIT_SUBSCRIPTION_KEY): orders are not sent to Starshipit and labels cannot be printed here. Type the tracking number of each parcel instead.';

/**
 * Starshipit when STARSHIPIT_API_KEY and STARSHIPIT_SUBSCRIPTION_KEY are set; the local stand-in on the local
 * server; anywhere else null (logged once): orders are not sent, the back office says so, and a tracking number
 * typed by hand still ships an order.
 */
export function selectShippingPlatform(env: ServerEnv): ShippingPlatform | null {
  if (env.STARSHIPIT_API_KEY && env.STARSHIPIT_SUBSCRIPTION_KEY) {
    return createStarshipit({
      apiKey: env.STARSHIPIT_API_KEY,
      subscriptionKey: env.STARSHIPIT_SUBSCRIPTION_KEY,
      webhookSecret: env.STARSHIPIT_WEBHOOK_SECRET,
      baseUrl: env.STARSHIPIT_API_BASE_URL,
    });
  }
  if (localStandInsAllowed(env)) return createLocalShipping({ webhookSecret: env.STARSHIPIT_WEBHOOK_SECRET });
  warnOnce('shipping-platform', `[providers] ${SHIPPING_PLATFORM_NOT_SET_UP}`);
  return null;
}

// ---------------------------------------------------------------------------------------------------------------------
// Rebuilding the site, so a published review reaches its pages.

export const SITE_BUILDS_NOT_SET_UP =
  'Reviews cannot be published on this site yet: NETLIFY_BUILD_HOOK_URL is not set, so the pages could not be rebuilt to show them. Add a build hook in Netlify and set it for the functions.';

/**
 * The Netlify build hook when NETLIFY_BUILD_HOOK_URL is set; the local server's own rebuild on the local server;
 * anywhere else none, and publishing is refused (a published review the pages never show would be a false promise).
 */
export function selectSiteBuilds(env: ServerEnv): SiteBuilds | null {
  if (env.NETLIFY_BUILD_HOOK_URL) return createNetlifyBuildHook({ hookUrl: env.NETLIFY_BUILD_HOOK_URL });
  if (localStandInsAllowed(env)) return localSiteBuilds;
  return null;
}

// The books: Xero.

export const ACCOUNTING_NOT_SET_UP = 'Xero is not set up for this site (XERO_CLIENT_ID, XERO_CLIENT_SECRET and XERO_TOKEN_KEY): nothing is posted to the books. See docs/deploy.md.';

/**
 * Xero when XERO_CLIENT_ID and XERO_CLIENT_SECRET are set; the local TEST organisation on the local server; anywhere
 * else null (logged once): nothing is posted, and the back office and the doctor say so.
 */
export function selectAccounting(env: ServerEnv): AccountingProvider | null {
  if (env.XERO_CLIENT_ID && env.XERO_CLIENT_SECRET) {
    return createXero({ clientId: env.XERO_CLIENT_ID, clientSecret: env.XERO_CLIENT_SECRET, baseUrl: env.XERO_API_BASE_URL, identityUrl: env.XERO_IDENTITY_URL });
  }
  if (localStandInsAllowed(env)) return createLocalXero();
  warnOnce('accounting', `[providers] ${ACCOUNTING_NOT_SET_UP}`);
  return null;
}
