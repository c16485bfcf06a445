/**
 * Where the functions are running, as far as the local stand-ins are concerned. The stand-ins (the TEST
 * payment page, the email outbox file) need a positive signal that only the local server gives; anywhere
 * Netlify's run-time variables are present they are refused, so a deploy that lacks a secret fails closed
 * (503, 404) instead of taking orders with no money moved.
 */
import type { ServerEnv } from '../../src/config/env';

/** Netlify gives deployed functions these (and not CONTEXT, which exists only at build time). */
const NETLIFY_RUNTIME_VARIABLES = ['SITE_ID', 'SITE_NAME', 'URL'] as const;

/** The variable the local server sets to say "this process is the local server". */
export const LOCAL_SERVER_SIGNAL = 'SHOP_LOCAL_SERVER';

/** True only on the local server, never in a deploy: the one gate for every local stand-in. */
export function localStandInsAllowed(env: ServerEnv): boolean {
  return env.SHOP_LOCAL_SERVER === '1' && !NETLIFY_RUNTIME_VARIABLES.some((name) => Boolean(env[name]));
}

/**
 * A service the request needs is not configured here. `message` names what is missing, for the log;
 * `userMessage` is what the visitor is told, with status 503.
 */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';

  constructor(
    message: string,
    readonly userMessage = 'This part of the shop is not set up yet. Please try again later or contact us.',
  ) {
    super(message);
  }
}

/**
 * The shop's public origin, for the links in emails and the pages a payment returns to: SITE_URL, else the
 * address Netlify gives a deployed function (`URL`, the site's main address); the request's own origin only on
 * the local server. Never a deploy's request Host, which whoever sends the request chooses.
 */
export function siteOrigin(env: ServerEnv, request: Request): string {
  const configured = env.SITE_URL ?? env.URL;
  if (configured) return new URL(configured).origin;
  if (localStandInsAllowed(env)) return new URL(request.url).origin;
  throw new ConfigurationError('SITE_URL is not set for the functions: links in emails and payment pages cannot be made.');
}
