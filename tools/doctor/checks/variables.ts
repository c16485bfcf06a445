/**
 * The deploy's environment variables, against the list the project declares once (`ENV_VARS` in
 * src/config/env.ts, which .env.example mirrors). Every declared variable is required for a hosted deploy
 * except the optional services below and the testing-only Stripe endpoint.
 */
import { ENV_VARS, readServerEnv, type EnvVarName } from '../../../src/config/env';
import { formatAbn, isValidAbn } from '../../../src/lib/abn';
import type { CheckResult, DoctorContext } from '../types';
import { listOf } from './common';

/** Services a deploy can go without, and what the shop does then. */
export const OPTIONAL_VARIABLES = {
  AUSPOST_API_KEY: 'shipping is priced from the fixed rate card, not Australia Post',
  GOOGLE_PLACES_API_KEY: 'shoppers type their address by hand (no suggestions)',
  NOTIFY_EMAIL_TO: "the publisher's notices (paid orders, contact messages, new subscribers) go to EMAIL_FROM",
  PUBLIC_GA4_ID: 'no analytics',
  STARSHIPIT_API_KEY: 'paid orders do not go to Starshipit: labels are bought in MyPost Business and tracking numbers typed in /admin',
  STARSHIPIT_SUBSCRIPTION_KEY: 'paid orders do not go to Starshipit (it needs both keys)',
  STARSHIPIT_WEBHOOK_SECRET: "Starshipit's tracking events are refused: an order is completed only when marked delivered",
} as const satisfies Partial<Record<EnvVarName, string>>;

/** Set only to point the functions at a stand-in; a real deploy leaves it unset. */
export const TESTING_ONLY_VARIABLES = ['STRIPE_API_BASE_URL', 'STARSHIPIT_API_BASE_URL', 'XERO_API_BASE_URL', 'XERO_IDENTITY_URL'] as const satisfies readonly EnvVarName[];

/**
 * Neither required nor warned of here: Xero's app, whose own line says what unset means (nothing is posted to the
 * books, as before), and its settings, each with Xero's Australian default.
 */
export const UNLISTED_VARIABLES = [
  'XERO_CLIENT_ID',
  'XERO_CLIENT_SECRET',
  'XERO_TOKEN_KEY',
  'XERO_START_DATE',
  'XERO_SALES_ACCOUNT',
  'XERO_SHIPPING_ACCOUNT',
  'XERO_CLEARING_ACCOUNT',
  'XERO_BANK_ACCOUNT',
  'XERO_FEES_ACCOUNT',
  'XERO_FEES_TAX_TYPE',
  'XERO_TAX_TYPE',
  'XERO_EXPORT_TAX_TYPE',
  'XERO_CONTACT',
] as const satisfies readonly EnvVarName[];

/** Settings with a default the shop uses when unset: neither required nor worth a warning. */
export const DEFAULTED_VARIABLES = ['REVIEW_REQUEST_DELAY_DAYS'] as const satisfies readonly EnvVarName[];

export const REQUIRED_VARIABLES: readonly EnvVarName[] = (Object.keys(ENV_VARS) as EnvVarName[]).filter(
  (name) => !(name in OPTIONAL_VARIABLES) && !([...TESTING_ONLY_VARIABLES, ...DEFAULTED_VARIABLES, ...UNLISTED_VARIABLES] as readonly string[]).includes(name),
);

/** Which Netlify scope a variable needs: what the build writes into pages, or what the functions read. */
function scopeOf(name: EnvVarName): string {
  // The build writes it into the pages; the functions make every link in an email and every return page from it.
  if (name === 'SITE_URL') return 'scopes Builds and Functions, then redeploy';
  if (ENV_VARS[name].context === 'client') return 'scope Builds, then redeploy: it is read at build time';
  if (name === 'STRIPE_SECRET_KEY') return 'scopes Functions and Builds: the production build refuses to run without it';
  return 'scope Functions';
}

/** Declared as a URL in the env module, so a value that is not one is as good as unset to the shop. */
const URL_VARIABLES = ['SITE_URL', 'PUBLIC_SUPABASE_URL', 'SUPABASE_URL'] as const;

function origin(value: string | undefined): string | undefined {
  try {
    return value ? new URL(value).origin : undefined;
  } catch {
    return undefined;
  }
}

export async function checkVariables(context: DoctorContext): Promise<CheckResult[]> {
  const { env } = context;
  const results: CheckResult[] = [];
  const parsed = readServerEnv(env);

  const missing = REQUIRED_VARIABLES.filter((name) => !env[name]);
  const notUrls = URL_VARIABLES.filter((name) => env[name] && !parsed[name]);
  if (missing.length === 0 && notUrls.length === 0) {
    results.push({ name: 'Required variables', status: 'pass', detail: `all ${REQUIRED_VARIABLES.length} are set` });
  } else {
    const problems = [...(missing.length ? [`not set: ${missing.join(', ')}`] : []), ...(notUrls.length ? [`not a URL: ${notUrls.join(', ')}`] : [])];
    results.push({
      name: 'Required variables',
      status: 'fail',
      detail: problems.join('; '),
      fix: [
        'In Netlify: Site configuration → Environment variables, add (then redeploy):',
        ...[...missing, ...notUrls].map((name) => `  ${name} — ${ENV_VARS[name].description.replace(/\.$/, '')} (${scopeOf(name)})`),
      ].join('\n'),
    });
  }

  const unsetOptional = (Object.keys(OPTIONAL_VARIABLES) as Array<keyof typeof OPTIONAL_VARIABLES>).filter((name) => !env[name]);
  if (unsetOptional.length === 0) {
    results.push({ name: 'Optional variables', status: 'pass', detail: `all ${Object.keys(OPTIONAL_VARIABLES).length} are set` });
  } else {
    results.push({
      name: 'Optional variables',
      status: 'warn',
      detail: unsetOptional.map((name) => `${name} not set: ${OPTIONAL_VARIABLES[name]}`).join('\n'),
      fix: `Fine if intended; otherwise set ${listOf(unsetOptional)} (${listOf([...new Set(unsetOptional.map(scopeOf))])}).`,
    });
  }

  // Every tax invoice prints it: a mistyped ABN makes every one of them wrong.
  const abn = env.SHOP_ABN?.trim();
  if (abn) {
    results.push(
      isValidAbn(abn)
        ? { name: 'ABN', status: 'pass', detail: `${formatAbn(abn)} has valid check digits` }
        : {
            name: 'ABN',
            status: 'fail',
            detail: `SHOP_ABN "${abn}" is not a valid ABN (11 digits whose check digits are right): every tax invoice would print it`,
            fix: 'Copy the ABN from the ABN Lookup (abr.business.gov.au) into SHOP_ABN (scope Functions), then redeploy.',
          },
    );
  }

  const stripeEndpoint = env.STRIPE_API_BASE_URL;
  if (stripeEndpoint) {
    results.push({
      name: 'Stripe endpoint',
      status: context.production ? 'fail' : 'warn',
      detail: `STRIPE_API_BASE_URL is set: the functions send payments to ${stripeEndpoint}, not to Stripe`,
      fix: 'Delete STRIPE_API_BASE_URL from the deploy: it is for pointing tests at a Stripe stand-in.',
    });
  }

  const browserSupabase = origin(env.PUBLIC_SUPABASE_URL);
  const functionsSupabase = origin(env.SUPABASE_URL);
  if (browserSupabase && functionsSupabase && browserSupabase !== functionsSupabase) {
    results.push({
      name: 'Supabase project',
      status: 'warn',
      detail: `the browser uses ${browserSupabase} but the functions use ${functionsSupabase}: sign-ins and orders would live in different projects`,
      fix: 'Give PUBLIC_SUPABASE_URL and SUPABASE_URL the same project URL (Supabase → Project Settings → API), unless this split is deliberate.',
    });
  }

  const canonical = origin(env.SITE_URL);
  if (canonical && canonical !== context.site.origin) {
    results.push({
      name: 'Canonical site',
      status: 'warn',
      detail: `SITE_URL is ${canonical} but the doctor is checking ${context.site.origin}: canonical links and the sitemap name ${canonical}`,
      fix: `Fine for a preview of ${canonical}; for the live shop set SITE_URL=${context.site.origin} (scope Builds) and redeploy.`,
    });
  }
  return results;
}
