import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRedirect, headersFor, readNetlifyConfig } from '../../local/netlify-config';
import { resolveStaticFile } from '../../local/static-files';
import { RateLimiter } from '../../local/functions';

describe('netlify.toml as the local server reads it', () => {
  const config = readNetlifyConfig(join(process.cwd(), 'netlify.toml'));

  it('redirects /checkout-v2 to /checkout permanently', () => {
    expect(findRedirect(config, '/checkout-v2')).toMatchObject({ to: '/checkout', status: 301 });
    expect(findRedirect(config, '/checkout')).toBeUndefined();
  });

  it('applies the security headers to every path', () => {
    const headers = headersFor(config, '/store/product/book-10-reasons');
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining(['Content-Security-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy']),
    );
  });
});

describe('static file resolution', () => {
  const root = mkdtempSync(join(tmpdir(), 'dist-'));
  mkdirSync(join(root, 'blog'));
  writeFileSync(join(root, 'index.html'), 'home');
  writeFileSync(join(root, 'about.html'), 'about');
  writeFileSync(join(root, 'blog', 'post.html'), 'post');

  it('maps pretty URLs to files', async () => {
    expect(await resolveStaticFile(root, '/')).toBe(join(root, 'index.html'));
    expect(await resolveStaticFile(root, '/about')).toBe(join(root, 'about.html'));
    expect(await resolveStaticFile(root, '/blog/post')).toBe(join(root, 'blog', 'post.html'));
    expect(await resolveStaticFile(root, '/nope')).toBeUndefined();
  });

  it('never leaves the site folder', async () => {
    expect(await resolveStaticFile(root, '/../../etc/passwd')).toBeUndefined();
    expect(await resolveStaticFile(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
    expect(await resolveStaticFile(root, '/%E0%A4%A')).toBeUndefined();
  });
});

describe('local rate limit', () => {
  it('allows the window limit, then refuses until the window passes', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const limit = { windowLimit: 2, windowSize: 60, aggregateBy: ['ip' as const] };
    expect(limiter.allow('a', limit)).toBe(true);
    expect(limiter.allow('a', limit)).toBe(true);
    expect(limiter.allow('a', limit)).toBe(false);
    expect(limiter.allow('b', limit)).toBe(true);
    now = 60_000;
    expect(limiter.allow('a', limit)).toBe(true);
  });
});
