import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNetlifyRules } from '../../local/netlify-rules';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? htmlFiles(path) : path.endsWith('.html') ? [path] : [];
  });
}

const csp = (await readNetlifyRules({ configPath: 'netlify.toml' })).headersFor('/')['Content-Security-Policy'] ?? '';

describe('Content-Security-Policy against the built site', () => {
  it('allows every inline script of every page by its hash', () => {
    const pages = htmlFiles('dist');
    expect(pages.length).toBeGreaterThan(0);
    const missing = new Set<string>();
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      for (const match of html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)) {
        const hash = `'sha256-${createHash('sha256')
          .update(match[1] ?? '')
          .digest('base64')}'`;
        if (!csp.includes(hash)) missing.add(`${hash} (first in ${page})`);
      }
    }
    expect([...missing], 'add these to script-src in netlify.toml').toEqual([]);
  });

  it("allows Google Analytics 4's hosts: its tag, and hits to the regional collectors", () => {
    const directive = (name: string) =>
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .find(([key]) => key === name) ?? [];
    expect(directive('script-src')).toContain('https://*.googletagmanager.com');
    for (const host of ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com']) {
      expect(directive('connect-src')).toContain(host);
    }
    expect(directive('img-src')).toContain('https:');
  });

  it('allows no inline script or eval wholesale', () => {
    expect(csp).not.toContain("'unsafe-eval'");
    expect(/script-src[^;]*'unsafe-inline'/.test(csp)).toBe(false);
  });
});
