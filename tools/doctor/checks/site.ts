/**
 * The live site itself: its home page must carry the security headers a deploy of this commit sets for `/*`, as
 * Netlify serves them: the [[headers]] of netlify.toml, and the Content-Security-Policy the build writes into
 * dist/_headers (with the hashes of the pages' inline scripts). Headers set in Netlify's UI, an edge function, a
 * proxy or a CDN in front can drop or change them. And the functions must answer at /api/health.
 */
import { join } from 'node:path';
import { readNetlifyRules } from '../../../local/netlify-rules';
import type { CheckResult, DoctorContext } from '../types';
import { isCheckResult, listOf, reach } from './common';

/** The headers a deploy must not lose; netlify.toml or the build's dist/_headers must set each for `/*`. */
export const SECURITY_HEADERS = ['Content-Security-Policy', 'Strict-Transport-Security', 'X-Frame-Options', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy'] as const;

const HEADERS_NAME = 'Security headers';

/** A CSP as directive → sorted sources, so two policies compare by meaning, not by spacing or order. */
function directives(policy: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources.sort().join(' '));
  }
  return map;
}

/** Which directives of the live CSP differ from the one the deploy sets (from `source`), in words. */
function cspDifferences(expected: string, live: string, source: string): string[] {
  const want = directives(expected);
  const have = directives(live);
  const differences: string[] = [];
  for (const [name, sources] of want) {
    if (!have.has(name)) differences.push(`${name} is missing`);
    else if (have.get(name) !== sources) {
      const liveSources = new Set(have.get(name)!.split(' '));
      const wantSources = new Set(sources.split(' '));
      const lacking = [...wantSources].filter((source) => !liveSources.has(source));
      const extra = [...liveSources].filter((source) => source && !wantSources.has(source));
      differences.push(`${name} ${[lacking.length && `lacks ${lacking.join(' ')}`, extra.length && `adds ${extra.join(' ')}`].filter(Boolean).join(' and ')}`);
    }
  }
  for (const name of have.keys()) if (!want.has(name)) differences.push(`${name} is not in the policy ${source} sets`);
  return differences;
}

const normalise = (value: string) => value.trim().replace(/\s+/g, ' ');

export async function checkSecurityHeaders(context: DoctorContext): Promise<CheckResult> {
  // What the deploy serves: netlify.toml's headers and the build's dist/_headers (the Content-Security-Policy, with
  // the hashes of the pages' inline scripts), so the policy is compared with a build of the same commit.
  const configPath = join(context.rootDir, 'netlify.toml');
  const expected = (await readNetlifyRules({ configPath, publishDir: join(context.rootDir, 'dist') })).headersFor('/');
  const inToml = new Set(Object.keys((await readNetlifyRules({ configPath })).headersFor('/')).map((name) => name.toLowerCase()));
  const source = (name: string) => (inToml.has(name.toLowerCase()) ? 'netlify.toml' : "the build's dist/_headers");
  const notInToml = SECURITY_HEADERS.filter((name) => !Object.keys(expected).some((key) => key.toLowerCase() === name.toLowerCase()));
  if (notInToml.length) {
    return {
      name: HEADERS_NAME,
      status: 'fail',
      detail: `neither netlify.toml nor the build's dist/_headers sets ${listOf(notInToml)} for /*`,
      fix: `Run npm run build (it writes the Content-Security-Policy into dist/_headers); restore any other of ${listOf(notInToml)} under [[headers]] for = "/*" in netlify.toml.`,
    };
  }

  const home = new URL('/', context.site).href;
  const answer = await reach(context, { name: HEADERS_NAME, what: home }, home, { headers: { accept: 'text/html' } });
  if (isCheckResult(answer)) return answer;
  if (!answer.ok) {
    return {
      name: HEADERS_NAME,
      status: 'fail',
      detail: `${home} answered ${answer.status}`,
      fix: 'Check the site address (--site) and that the latest deploy is published (Netlify → Deploys).',
    };
  }

  const problems: string[] = [];
  for (const [name, value] of Object.entries(expected)) {
    const live = answer.headers.get(name);
    if (live === null) problems.push(`${name} is missing`);
    else if (normalise(live) !== normalise(value)) {
      problems.push(
        name.toLowerCase() === 'content-security-policy'
          ? `Content-Security-Policy differs from what ${source(name)} sets: ${cspDifferences(value, live, source(name)).join('; ')}`
          : `${name} is "${live}", ${source(name)} says "${value}"`,
      );
    }
  }
  const where = answer.url !== home ? ` (${home} → ${answer.url})` : '';
  if (problems.length === 0) {
    return { name: HEADERS_NAME, status: 'pass', detail: `all ${Object.keys(expected).length} headers netlify.toml and the build's dist/_headers set for /* are served as set${where}` };
  }
  return {
    name: HEADERS_NAME,
    status: 'fail',
    detail: `${problems.join('\n')}${where}`,
    fix: [
      "Netlify serves the [[headers]] of netlify.toml and the _headers file the build writes into dist/ (the Content-Security-Policy): deploy this commit, built by Netlify's npm run build (Netlify → Deploys → Trigger deploy), with netlify.toml at the repository root.",
      'If the site still lacks or changes them, look for what overrides them: headers set in the Netlify UI, an edge function, or a proxy/CDN in front of the site.',
    ].join('\n'),
  };
}

const FUNCTIONS_NAME = 'Functions';

export async function checkFunctions(context: DoctorContext): Promise<CheckResult> {
  const health = new URL('/api/health', context.site).href;
  const answer = await reach(context, { name: FUNCTIONS_NAME, what: health }, health, { headers: { accept: 'application/json' } });
  if (isCheckResult(answer)) return answer;
  if (answer.ok && (answer.body as { ok?: unknown } | undefined)?.ok === true) return { name: FUNCTIONS_NAME, status: 'pass', detail: `${health} answers` };
  return {
    name: FUNCTIONS_NAME,
    status: 'fail',
    detail: `${health} answered ${answer.status}${answer.body === undefined ? ' (not the health function)' : ''}: the functions are not deployed at /api/`,
    fix: 'Netlify → Logs → Functions should list them; netlify.toml sets [functions] directory = "functions". Redeploy and check the deploy log for bundling errors.',
  };
}
