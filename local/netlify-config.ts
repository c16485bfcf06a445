/**
 * Reads the redirects and headers of netlify.toml, so the local server behaves as the deploy does.
 * Supports what this project uses: exact paths and a trailing `/*` splat.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { z } from 'zod';

const netlifyToml = z.object({
  redirects: z.array(z.object({ from: z.string(), to: z.string(), status: z.number().default(301), force: z.boolean().default(false) })).default([]),
  headers: z.array(z.object({ for: z.string(), values: z.record(z.string(), z.string()) })).default([]),
});

export type NetlifyConfig = z.infer<typeof netlifyToml>;
export type Redirect = NetlifyConfig['redirects'][number];

export function readNetlifyConfig(file: string): NetlifyConfig {
  return netlifyToml.parse(parse(readFileSync(file, 'utf8')));
}

export function pathMatches(pattern: string, path: string): boolean {
  return pattern.endsWith('/*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

export function findRedirect(config: NetlifyConfig, path: string): Redirect | undefined {
  return config.redirects.find((rule) => pathMatches(rule.from, path));
}

export function headersFor(config: NetlifyConfig, path: string): Record<string, string> {
  return Object.assign({}, ...config.headers.filter((rule) => pathMatches(rule.for, path)).map((rule) => rule.values));
}

/** What Netlify does with a path: serve it as it is, send a redirect, or serve another path with a status. */
export type RedirectDecision = { kind: 'as-is' } | { kind: 'redirect'; status: number; location: string } | { kind: 'rewrite'; status: number; to: string };

/**
 * Netlify serves an existing page before a redirect rule, unless the rule is forced. `pageExists` asks
 * the server at hand (dist/ for `npm start`, Astro's routes for `npm run dev`), and only when a rule matches.
 */
export async function decideRedirect(config: NetlifyConfig, url: URL, pageExists: (path: string) => Promise<boolean>): Promise<RedirectDecision> {
  const rule = findRedirect(config, url.pathname);
  if (!rule || (!rule.force && (await pageExists(url.pathname)))) return { kind: 'as-is' };
  if (rule.status >= 300 && rule.status < 400) return { kind: 'redirect', status: rule.status, location: rule.to + url.search };
  return { kind: 'rewrite', status: rule.status, to: rule.to };
}
