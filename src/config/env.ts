/**
 * Every environment variable the hosted mode uses, declared once.
 * `astro.config.mjs` turns the client ones into Astro `envField`s; the functions read the server ones
 * through `readServerEnv`. `.env.example` lists exactly these (a test keeps it so).
 * No variable is needed locally: without them the embedded backend and local stand-ins run.
 */
import { z } from '../lib/zod';

interface EnvVar {
  context: 'client' | 'server';
  description: string;
}

const server = (description: string): EnvVar => ({ context: 'server', description });
const client = (description: string): EnvVar => ({ context: 'client', description });

export const ENV_VARS = {
  SITE_URL: server('Public origin of the deployed site, used for canonical URLs, the sitemap and every link in an email (e.g. https://www.example.com.au).'),
  PUBLIC_SUPABASE_URL: client('Hosted Supabase project URL. Unset: the embedded backend on the local server.'),
  PUBLIC_SUPABASE_ANON_KEY: client('Hosted Supabase anon (public) key, sent by the browser; RLS protects the data.'),
  PUBLIC_GA4_ID: client('Google Analytics 4 measurement ID (G-XXXX). Unset: no analytics script is loaded.'),
  PUBLIC_TURNSTILE_SITE_KEY: server('Cloudflare Turnstile site key for the invisible bot-check on the newsletter and contact forms, served to them by /api/human-check.'),
  SUPABASE_URL: server('Hosted Supabase project URL for the functions (usually the same as PUBLIC_SUPABASE_URL).'),
  SUPABASE_SERVICE_ROLE_KEY: server('Supabase service-role key. Secret: only the functions use it, to create orders and fulfil them.'),
  STRIPE_SECRET_KEY: server('Stripe secret key (sk_live_… or sk_test_…). Unset: the local test-payment page (refused in production).'),
  STRIPE_PUBLISHABLE_KEY: server('Stripe publishable key (pk_…), served to the checkout by the payment-config function.'),
  STRIPE_WEBHOOK_SECRET: server('Signing secret of the Stripe webhook endpoint /api/stripe-webhook (whsec_…).'),
  STRIPE_API_BASE_URL: server('Optional: point the Stripe client at stripe-mock or another Stripe-compatible endpoint (testing only). Unset in production.'),
  AUSPOST_API_KEY: server(
    'Australia Post Postage Assessment Calculator API key, for domestic and international parcel prices. Unset: the fixed fallback rate table (abroad, content/shipping/international-rates.json).',
  ),
  GOOGLE_PLACES_API_KEY: server('Google Places API (New) key for address autocomplete. Unset: manual address entry only.'),
  TURNSTILE_SECRET_KEY: server(
    'Cloudflare Turnstile secret key for server-side token verification. Required in a deploy: without it the contact form and newsletter answer 503. Unset locally: the check is off (logged).',
  ),
  RESEND_API_KEY: server('Resend API key for order confirmations and notifications. Unset: emails go to the local outbox.'),
  EMAIL_FROM: server('Sender address for emails, on a domain verified with Resend.'),
  NOTIFY_EMAIL_TO: server("The publisher's address: told of every paid order, contact message and newsletter subscription."),
  NEWSLETTER_SIGNING_SECRET: server(
    'A long random string that signs the confirmation and unsubscribe links of the newsletter, the availability emails and the checkout reminder (e.g. openssl rand -hex 32). Required in a deploy to send any of them; never change it, or the links in emails already sent stop working. Unset locally: a fixed local key.',
  ),
  SHOP_POSTAL_ADDRESS: server(
    "The publisher's postal address (e.g. PO Box 123, Parramatta NSW 2124), printed at the foot of every marketing email and confirmation, as Australia's Spam Act asks. Required in a deploy to send them. Unset locally: a labelled stand-in.",
  ),
  SHOP_LEGAL_NAME: server(
    "The seller's legal name as registered for its ABN (e.g. Awesome Catholic Kids Publishing Pty Ltd), printed on every tax invoice and adjustment note. Required in a deploy. Unset locally: a labelled stand-in.",
  ),
  SHOP_ABN: server(
    "The seller's Australian Business Number, 11 digits (e.g. 51 824 753 556), printed on every tax invoice and adjustment note; the doctor checks its check digits. Required in a deploy. Unset locally: a labelled stand-in.",
  ),
  STARSHIPIT_API_KEY: server(
    'Starshipit API key (Settings > API, the StarShipIT-Api-Key). With the subscription key, paid orders go to Starshipit and labels print from /admin. Unset: tracking numbers are typed by hand.',
  ),
  STARSHIPIT_SUBSCRIPTION_KEY: server('Starshipit subscription key (Settings > API, the Ocp-Apim-Subscription-Key).'),
  STARSHIPIT_API_BASE_URL: server('Optional: point the Starshipit client at another address (testing only). Unset in production: https://api.starshipit.com.'),
  STARSHIPIT_WEBHOOK_SECRET: server(
    'The webhook secret key set in Starshipit (Settings > Tracking & notifications) for the endpoint /api/shipping-webhook: its tracking events are refused without a matching X-Starshipit-Signature.',
  ),
  REVIEW_REQUEST_DELAY_DAYS: server(
    'Days after delivery before a buyer is asked for a review (a whole number; 0 asks at delivery). Unset: 3. An order shipped without tracking events counts as delivered 10 days after shipping.',
  ),
  NETLIFY_BUILD_HOOK_URL: server(
    'A build hook of the site (Netlify: Site configuration > Build & deploy > Build hooks): publishing a review in /admin calls it, so the rebuilt pages show the review. Required in a deploy to show new reviews. Unset locally: the local server rebuilds dist/ itself.',
  ),
  XERO_CLIENT_ID: server(
    "The Xero app's client id (developer.xero.com > My Apps, a Web app whose redirect URI is <site>/api/xero-callback). With the secret and XERO_TOKEN_KEY, /admin > Accounts connects the shop to Xero. Unset locally: the TEST organisation.",
  ),
  XERO_CLIENT_SECRET: server("The Xero app's client secret."),
  XERO_TOKEN_KEY: server(
    'The key that seals the Xero refresh token in the database (AES-256-GCM): 32 random bytes in base64 (openssl rand -base64 32). Changing it means connecting to Xero again. Unset locally: a fixed local key.',
  ),
  XERO_START_DATE: server('The first day (yyyy-mm-dd, Sydney) whose sales are posted to Xero when it is connected; earlier months were imported by hand. Unset: the day of connecting.'),
  XERO_SALES_ACCOUNT: server("Optional: the Xero account code of book sales and refunds. Unset: 200 (Sales, Xero's Australian default)."),
  XERO_SHIPPING_ACCOUNT: server('Optional: the Xero account code of shipping charged. Unset: 200 (Sales).'),
  XERO_CLEARING_ACCOUNT: server(
    'Optional: the code of the Xero bank account that stands for the Stripe balance (sales paid in, refunds paid out). Unset: STRIPE, a bank account to add in Xero with that code.',
  ),
  XERO_BANK_ACCOUNT: server("Optional: the code of the Xero bank account Stripe's payouts arrive in. Unset: 090 (Business Bank Account, Xero's Australian default)."),
  XERO_FEES_ACCOUNT: server("Optional: the Xero account code of Stripe's fees. Unset: 404 (Bank Fees)."),
  XERO_FEES_TAX_TYPE: server("Optional: the Xero tax type of Stripe's fees, which carry GST in Australia. Unset: INPUT (GST on Expenses)."),
  XERO_TAX_TYPE: server('Optional: the Xero tax type of sales in Australia. Unset: OUTPUT (GST on Income).'),
  XERO_EXPORT_TAX_TYPE: server('Optional: the Xero tax type of sales abroad. Unset: EXEMPTEXPORT (GST Free Exports).'),
  XERO_CONTACT: server('Optional: the Xero contact every card order is invoiced to (schools and parishes are each their own). Unset: Online shop customers.'),
  XERO_API_BASE_URL: server('Optional: point the Xero client at another address (testing only). Unset in production: https://api.xero.com.'),
  XERO_IDENTITY_URL: server("Optional: point Xero's token endpoint at another address (testing only). Unset in production: https://identity.xero.com."),
} as const satisfies Record<string, EnvVar>;

export type EnvVarName = keyof typeof ENV_VARS;

const optional = z.string().trim().min(1).optional().catch(undefined);
// An address that is not a URL counts as unset.
const url = z.url().optional().catch(undefined);

/** Server-side variables, parsed from `process.env`; empty strings count as unset. */
const serverEnvSchema = z.object({
  // Every declared variable, read as an address when its name says it is one.
  ...(Object.fromEntries(Object.keys(ENV_VARS).map((name) => [name, name.endsWith('_URL') ? url : optional])) as Record<EnvVarName, typeof optional>),
  /** Set by Netlify at build time only ("production", "deploy-preview", "branch-deploy"); functions never see it. */
  CONTEXT: optional,
  /** Set by Netlify in every deployed function: their presence means "this is a deploy", whatever else is set. */
  SITE_ID: optional,
  SITE_NAME: optional,
  URL: optional,
  /** Set by Netlify in every deployed function: the token for its site's purge API (cached answers by tag). */
  NETLIFY_PURGE_API_TOKEN: optional,
  /** Set to "1" by the local server (npm start, npm run dev, the tests) and by nothing else. */
  SHOP_LOCAL_SERVER: optional,
  NODE_ENV: optional,
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

export function readServerEnv(source: Record<string, string | undefined> = process.env): ServerEnv {
  return serverEnvSchema.parse(source);
}
