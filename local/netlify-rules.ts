/**
 * netlify.toml's redirects and headers, and the publish folder's `_redirects` and `_headers`, read by Netlify's own
 * parsers and matched by its own redirect engine (netlify-redirector, as in `netlify dev` and @netlify/dev), so
 * placeholders, splats, query, country and cookie conditions, status and force behave as on the live site.
 */
import { join } from 'node:path';
import { parseAllHeaders } from '@netlify/headers-parser';
import { parseAllRedirects } from '@netlify/redirect-parser';
import redirector from 'netlify-redirector';

/** What Netlify does with a path: serve it as it is, send a redirect, serve another path with a status, or its 404. */
export type RedirectDecision = { kind: 'as-is' } | { kind: 'not-found' } | { kind: 'redirect'; status: number; location: string } | { kind: 'rewrite'; status: number; to: string };

export interface NetlifyRules {
  /** The header rules matching a path, merged in order (a later rule wins). */
  headersFor(path: string): Record<string, string>;
  /**
   * Netlify serves an existing file before a rule, unless the rule is forced. `pageExists` asks the server at
   * hand (dist/ for `npm start`, Astro for `npm run dev`), and only when a rule matches.
   */
  decide(url: URL, visitor: Headers, pageExists: (path: string) => Promise<boolean>): Promise<RedirectDecision>;
}

/**
 * `configPath` is the netlify.toml to follow (a test passes a copy); `publishDir` holds `_redirects` and `_headers`
 * (dist/ for `npm start`, public/ for `npm run dev`); `country` is the visitor's, which Netlify reads from the IP.
 */
export async function readNetlifyRules(options: { configPath: string; publishDir?: string; country?: (visitor: Headers) => string | undefined }): Promise<NetlifyRules> {
  const { configPath, publishDir, country = () => undefined } = options;
  const files = (name: string) => (publishDir ? [join(publishDir, name)] : []);
  const [redirects, headers] = await Promise.all([
    parseAllRedirects({ redirectsFiles: files('_redirects'), netlifyConfigPath: configPath, configRedirects: [], minimal: false }),
    parseAllHeaders({ headersFiles: files('_headers'), netlifyConfigPath: configPath, configHeaders: [], minimal: false }),
  ]);
  const errors: Error[] = [...redirects.errors, ...headers.errors];
  // A broken rule stops the server with the parser's words rather than being dropped without a word, as on a deploy.
  if (errors.length) throw new Error(`Netlify rules in ${configPath} or the publish folder:\n${errors.map((e) => e.message).join('\n')}`);
  // The engine reads the parser's rules under the names Netlify's edge uses.
  const rules = (redirects.redirects as Record<string, unknown>[]).map(({ from, query, ...rule }) => ({ ...rule, origin: from, params: query }));
  const matcher = await redirector.parseJSON(JSON.stringify(rules), { jwtSecret: '', jwtRoleClaim: '' });
  const headerRules = headers.headers as Array<{ forRegExp: RegExp; values: Record<string, string> }>;

  function match(url: URL, visitor: Headers) {
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return null;
    }
    const cookies = Object.fromEntries((visitor.get('cookie') ?? '').split(/;\s*/).map((pair) => [pair.split('=', 1)[0], pair.slice(pair.indexOf('=') + 1)]));
    // Netlify's edge hands the engine the visitor's language and country as these headers (its cookies win).
    const language = cookies.nf_lang ?? (visitor.get('accept-language') || 'en').slice(0, 2);
    const all: Record<string, string> = { 'x-language': language, 'x-country': cookies.nf_country ?? country(visitor) ?? 'us', ...Object.fromEntries(visitor) };
    const getHeader = (name: string) => all[name.toLowerCase()] ?? '';
    const getCookie = (name: string) => cookies[name] ?? '';
    return matcher.match({ scheme: url.protocol.slice(0, -1), host: url.hostname, path, query: url.search.slice(1), headers: all, cookieValues: cookies, getHeader, getCookie });
  }

  return {
    headersFor: (path) => Object.assign({}, ...headerRules.filter((rule) => rule.forRegExp.test(path)).map((rule) => rule.values)),
    async decide(url, visitor, pageExists) {
      const rule = match(url, visitor);
      if (!rule || (!rule.force && (await pageExists(url.pathname)))) return { kind: 'as-is' };
      if (rule.force404) return { kind: 'not-found' };
      const status = rule.status ?? 301;
      // The visitor's query string goes along unless the rule writes its own, as on Netlify.
      if (status >= 300 && status < 400) return { kind: 'redirect', status, location: rule.to.includes('?') ? rule.to : rule.to + url.search };
      return { kind: 'rewrite', status, to: rule.to };
    },
  };
}
