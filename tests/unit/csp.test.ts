/**
 * The Content-Security-Policy as Netlify serves it: the built `_headers` file merged with netlify.toml's headers
 * (by Netlify's own parser), against every inline script of every built page.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllHeaders } from '@netlify/headers-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cspDirectives, headersFile, inlineScripts, scriptHash } from '@/lib/security-headers';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? htmlFiles(path) : path.endsWith('.html') ? [path] : [];
  });
}

/** Every value served for `/` under this name: more than one would be two policies, each enforced. */
async function servedPolicies(headersFiles: string[]): Promise<string[]> {
  const { headers, errors } = await parseAllHeaders({ headersFiles, netlifyConfigPath: 'netlify.toml', configHeaders: undefined, minimal: false });
  expect(errors).toEqual([]);
  return headers
    .filter((rule) => 'forRegExp' in rule && rule.forRegExp.test('/'))
    .flatMap((rule) =>
      Object.entries(rule.values)
        .filter(([name]) => name.toLowerCase() === 'content-security-policy')
        .map(([, value]) => value),
    );
}

describe('Content-Security-Policy against the built site', () => {
  let csp = '';
  beforeAll(async () => {
    const policies = await servedPolicies(['dist/_headers']);
    expect(policies, 'one policy, from the built _headers only').toHaveLength(1);
    csp = policies[0] ?? '';
  });

  it('allows every inline script of every page by its hash', () => {
    const pages = htmlFiles('dist');
    expect(pages.length).toBeGreaterThan(0);
    const missing = new Set<string>();
    for (const page of pages) for (const script of inlineScripts(readFileSync(page, 'utf8'))) if (!csp.includes(scriptHash(script))) missing.add(`${scriptHash(script)} (first in ${page})`);
    expect([...missing], 'the built _headers must allow these').toEqual([]);
  });

  it("allows Google Analytics 4's hosts: its tag, and hits to the regional collectors", () => {
    const directive = (name: string) =>
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .find(([key]) => key === name) ?? [];
    // The one tag host the shop loads from, never a wildcard: any GTM container could run script from one.
    expect(directive('script-src')).toContain('https://www.googletagmanager.com');
    expect(csp).not.toContain('*.googletagmanager.com');
    for (const host of ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com']) {
      expect(directive('connect-src')).toContain(host);
    }
    // No Supabase project but the build's own (none for the embedded backend, on the site's own origin).
    expect(csp).not.toContain('*.supabase.co');
    expect(directive('img-src')).toContain('https:');
    expect(directive('frame-ancestors')).toEqual(['frame-ancestors', "'none'"]);
  });

  it('allows no inline script or eval wholesale', () => {
    expect(csp).not.toContain("'unsafe-eval'");
    expect(/script-src[^;]*'unsafe-inline'/.test(csp)).toBe(false);
  });
});

describe('the policy the build writes', () => {
  it("names the build's own Supabase project in connect-src, https and wss, and no other", () => {
    const connect = cspDirectives('https://abcdefghijklmnop.supabase.co/')['connect-src'];
    expect(connect).toEqual(expect.arrayContaining(['https://abcdefghijklmnop.supabase.co', 'wss://abcdefghijklmnop.supabase.co']));
    expect(connect?.some((source) => source.includes('*.supabase.co'))).toBe(false);
    expect(contentSecurityPolicy([], 'https://abcdefghijklmnop.supabase.co')).toContain("connect-src 'self' https://abcdefghijklmnop.supabase.co wss://abcdefghijklmnop.supabase.co ");
    expect(cspDirectives(undefined)['connect-src']?.some((source) => source.includes('supabase'))).toBe(false);
  });

  it('fails a page whose inline script it was not built from', () => {
    const csp = contentSecurityPolicy(['a()']);
    expect(csp).toContain(scriptHash('a()'));
    expect(csp).not.toContain(scriptHash('b()'));
  });

  it('reads inline scripts only: not a script file, not JSON-LD', () => {
    const html = '<script>a()</script><script type="module" src="/x.js"></script><script type="application/ld+json">{}</script><script type="module">b()</script>';
    expect(inlineScripts(html)).toEqual(['a()', 'b()']);
  });

  it('is served by Netlify as written, and netlify.toml sets no second one', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'csp-')), '_headers');
    const csp = contentSecurityPolicy(['a()']);
    writeFileSync(file, headersFile(csp));
    expect(await servedPolicies([file])).toEqual([csp]);
  });
});
