/**
 * `npm run doctor`: a pre-flight for a deploy. Given the deployed site's address and the environment the deploy
 * has, it asks each provider's own API what code alone cannot know (is the webhook there, is the domain
 * verified, is the key accepted), reads the live site's headers, and prints a checklist with a fix for every
 * failure. Every provider address can be pointed elsewhere (DOCTOR_*_API_URL), for tests and rehearsals.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAustraliaPost, checkAustraliaPostInternational } from './checks/australia-post';
import { checkBuildHook } from './checks/build-hook';
import { checkCustomsData } from './checks/customs-data';
import { checkGooglePlaces } from './checks/google-places';
import { checkResend } from './checks/resend';
import { checkSampleContent } from './checks/sample-content';
import { checkFunctions, checkSecurityHeaders } from './checks/site';
import { checkStarshipit } from './checks/starshipit';
import { checkStripeKeys } from './checks/stripe-keys';
import { checkStripeWebhook } from './checks/stripe-webhook';
import { checkSupabaseAuth } from './checks/supabase-auth';
import { checkTurnstile } from './checks/turnstile';
import { checkVariables } from './checks/variables';
import { checkXero } from './checks/xero';
import { createRequester } from './http';
import type { Check, CheckResult, CheckStatus, DoctorContext, ProviderEndpoints } from './types';

export const DEFAULT_TIMEOUT_MS = 10_000;

/** The checks in the order the checklist prints them. */
export const CHECKS: readonly Check[] = [
  checkVariables,
  checkSiteAddress,
  checkSecurityHeaders,
  checkFunctions,
  checkSupabaseAuth,
  checkStripeKeys,
  checkStripeWebhook,
  checkResend,
  checkTurnstile,
  checkAustraliaPost,
  checkAustraliaPostInternational,
  checkCustomsData,
  checkGooglePlaces,
  checkStarshipit,
  checkBuildHook,
  checkXero,
  checkSampleContent,
];

/** Where the doctor reaches each provider; DOCTOR_*_API_URL points one elsewhere (tests, rehearsals). */
export function providerEndpoints(env: Readonly<Record<string, string | undefined>>): ProviderEndpoints {
  return {
    // Without an override, the Stripe the functions themselves would use.
    stripe: env.DOCTOR_STRIPE_API_URL ?? env.STRIPE_API_BASE_URL ?? 'https://api.stripe.com',
    resend: env.DOCTOR_RESEND_API_URL ?? 'https://api.resend.com',
    turnstile: env.DOCTOR_TURNSTILE_API_URL ?? 'https://challenges.cloudflare.com',
    auspost: env.DOCTOR_AUSPOST_API_URL ?? 'https://digitalapi.auspost.com.au',
    places: env.DOCTOR_GOOGLE_PLACES_API_URL ?? 'https://places.googleapis.com',
    // Without an override, the Starshipit the functions themselves would use.
    starshipit: env.DOCTOR_STARSHIPIT_API_URL ?? env.STARSHIPIT_API_BASE_URL ?? 'https://api.starshipit.com',
  };
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface DoctorOptions {
  /** The deploy's environment. Empty values count as unset. */
  env: Readonly<Record<string, string | undefined>>;
  /** The deployed site; defaults to SITE_URL, then Netlify's URL. */
  site?: string;
  /** Netlify's deploy context; defaults to CONTEXT. */
  deployContext?: string;
  /** The project folder (netlify.toml, content/); defaults to this repository. */
  rootDir?: string;
  /** Per request; defaults to DOCTOR_TIMEOUT_MS, then 10 s. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface DoctorReport {
  site: URL;
  deployContext: string | undefined;
  results: CheckResult[];
  counts: Record<CheckStatus, number>;
  /** 1 when any check failed, else 0. */
  exitCode: number;
  /** The printed checklist. */
  text: string;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function cleaned(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value?.trim() ? value.trim() : undefined]));
}

function siteOf(value: string | undefined): URL {
  if (!value) throw new UsageError('Which site? Pass --site https://your-shop.example, or set SITE_URL.');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--site ${value} is not a URL: pass the deployed site's address, e.g. https://your-shop.example`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--site ${value} is not a web address (https://…)`);
  return new URL(url.origin);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Netlify serves every site over https; plain http is only for a rehearsal on this machine. */
async function checkSiteAddress(context: DoctorContext): Promise<CheckResult[]> {
  if (context.site.protocol === 'https:' || LOOPBACK.has(context.site.hostname)) return [];
  return [
    {
      name: 'Site address',
      status: 'fail',
      detail: `${context.site.origin} is plain http: Stripe's webhook, sign-in redirects and Strict-Transport-Security expect https`,
      fix: `Run the doctor with --site https://${context.site.host}`,
    },
  ];
}

export function createContext(options: DoctorOptions): DoctorContext {
  const env = cleaned(options.env);
  const site = siteOf(options.site?.trim() || env.SITE_URL || env.URL);
  const deployContext = options.deployContext?.trim() || env.CONTEXT;
  const timeoutMs = options.timeoutMs ?? (Number(env.DOCTOR_TIMEOUT_MS) > 0 ? Number(env.DOCTOR_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS);
  return {
    env,
    site,
    deployContext,
    production: deployContext === 'production',
    endpoints: providerEndpoints(env),
    request: createRequester(timeoutMs, options.fetch),
    rootDir: options.rootDir ?? ROOT,
  };
}

const MARK: Record<CheckStatus, string> = { pass: '✓', fail: '✗', warn: '!', skip: '-' };

function indent(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first : rest) + line)
    .join('\n');
}

export function formatReport(site: URL, deployContext: string | undefined, results: readonly CheckResult[]): string {
  const counts = countOf(results);
  const contextLine = deployContext ? `CONTEXT=${deployContext}` : 'CONTEXT not given: held to a preview (CONTEXT=production for the live site)';
  const lines = [`Pre-flight for ${site.origin} (${contextLine})`, ''];
  for (const result of results) {
    const detail = result.status === 'skip' ? `skipped: ${result.detail}` : result.detail;
    lines.push(indent(`${result.name}: ${detail}`, `${MARK[result.status]} `, '    '));
    if (result.fix && (result.status === 'fail' || result.status === 'warn')) lines.push(indent(result.fix, '    fix: ', '         '));
  }
  const summary = [`${counts.pass} passed`, `${counts.fail} failed`, `${counts.warn} warning${counts.warn === 1 ? '' : 's'}`, `${counts.skip} skipped`].join(', ');
  lines.push('', `${summary}${counts.fail ? ' — fix each ✗ line, then run the doctor again.' : counts.warn ? ' — ready, once each ! line is what you intend.' : ' — ready to go live.'}`);
  return lines.join('\n');
}

function countOf(results: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const result of results) counts[result.status]++;
  return counts;
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const context = createContext(options);
  // The checks ask different services, so they run at once; the list keeps their order.
  const settled = await Promise.all(
    CHECKS.map(async (check): Promise<CheckResult[]> => {
      try {
        const result = await check(context);
        return Array.isArray(result) ? result : [result];
      } catch (error) {
        return [{ name: check.name.replace(/^check/, ''), status: 'fail', detail: `the check itself failed: ${error instanceof Error ? error.message : String(error)}` }];
      }
    }),
  );
  const results = settled.flat();
  const counts = countOf(results);
  return {
    site: context.site,
    deployContext: context.deployContext,
    results,
    counts,
    exitCode: counts.fail > 0 ? 1 : 0,
    text: formatReport(context.site, context.deployContext, results),
  };
}
