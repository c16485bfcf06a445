/**
 * Reads the redirects and headers of netlify.toml, so the local server behaves as the deploy does.
 * Supports what this project uses: exact paths and a trailing `/*` splat.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { z } from 'zod';

const netlifyToml = z.object({
  redirects: z
    .array(z.object({ from: z.string(), to: z.string(), status: z.number().default(301), force: z.boolean().default(false) }))
    .default([]),
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
