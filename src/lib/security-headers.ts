/**
 * The Content-Security-Policy, written once here and served from the `_headers` file the build writes into
 * the publish folder (Netlify serves it with netlify.toml's other headers). Inline scripts are allowed by
 * hash only: the build reads every inline script of every page it wrote and allows exactly those, so a
 * change to a script or an Astro upgrade that changes its island runtime cannot leave one out. It stays a
 * header, not Astro's `<meta>` policy: a meta policy cannot say `frame-ancestors`.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { GTAG_SCRIPT_URL } from '../config/constants';

/**
 * Everything but the inline scripts' hashes, for the build's Supabase project. Exact hosts where the shop knows
 * them: Google Analytics 4's one tag host (any GTM container on a wildcard could run script), the project's own
 * Supabase URL (https and, for realtime, wss) from the build's PUBLIC_SUPABASE_URL (unset, the embedded backend
 * answers on the site's own origin). GA4's hits go to the regional *.google-analytics.com and
 * *.analytics.google.com collectors Google lists for it (img-src already allows any https image).
 */
export function cspDirectives(supabaseUrl: string | undefined): Readonly<Record<string, readonly string[]>> {
  const supabase = supabaseUrl ? new URL(supabaseUrl) : undefined;
  const gtag = new URL(GTAG_SCRIPT_URL).origin;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", gtag, 'https://challenges.cloudflare.com'],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(supabase ? [`https://${supabase.host}`, `wss://${supabase.host}`] : []), 'https://*.google-analytics.com', 'https://*.analytics.google.com', gtag],
    'frame-src': ['https://challenges.cloudflare.com', 'https://checkout.stripe.com'],
    'form-action': ["'self'", 'https://checkout.stripe.com'],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The inline scripts of a page, as the browser runs them (JSON-LD and other data blocks are not scripts). */
export function inlineScripts(html: string): string[] {
  return Array.from(html.matchAll(/<script\b(?![^>]*\bsrc=)(?![^>]*\btype="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/gi), (match) => match[1] ?? '');
}

export const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The policy allowing these inline scripts, sorted so the same pages give the same header. */
export function contentSecurityPolicy(scripts: Iterable<string>, supabaseUrl?: string): string {
  const hashes = [...new Set(Array.from(scripts, scriptHash))].sort();
  return Object.entries(cspDirectives(supabaseUrl))
    .map(([name, sources]) => [name, ...(name === 'script-src' ? [sources[0], ...hashes, ...sources.slice(1)] : sources)].join(' '))
    .join('; ');
}

/** The `_headers` file: the policy for every path. */
export const headersFile = (csp: string) =>
  `# Written by the build (src/lib/security-headers.ts) from the pages it wrote; netlify.toml has the other headers.\n/*\n  Content-Security-Policy: ${csp}\n`;

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).map((entry) => join(entry.parentPath, entry.name));
}

/** `supabaseUrl`: the build's PUBLIC_SUPABASE_URL, the one Supabase project the pages may talk to. */
export function securityHeaders(supabaseUrl = process.env.PUBLIC_SUPABASE_URL): AstroIntegration {
  return {
    name: 'security-headers',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const scripts = new Set<string>();
        for (const file of await htmlFiles(out)) for (const script of inlineScripts(await readFile(file, 'utf8'))) scripts.add(script);
        await writeFile(join(out, '_headers'), headersFile(contentSecurityPolicy(scripts, supabaseUrl || undefined)));
        logger.info(`_headers: Content-Security-Policy allowing ${scripts.size} inline script(s) by hash`);
      },
    },
  };
}
