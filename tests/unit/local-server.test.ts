import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNetlifyRules } from '../../local/netlify-rules';
import { resolveStaticFile } from '../../local/static-files';
import { chooseEncoding, compressedFile } from '../../local/compression';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { RateLimiter } from '../../local/functions';

// With the built site's _headers, as the server serves it (the build writes the Content-Security-Policy there).
const rules = await readNetlifyRules({ configPath: join(process.cwd(), 'netlify.toml'), publishDir: 'dist' });

describe('netlify.toml as the local server reads it, through Netlify’s parsers and redirect engine', () => {
  const url = (path: string) => new URL(path, 'http://localhost');
  const decide = (path: string, ...pages: string[]) => rules.decide(url(path), new Headers(), async (p) => pages.includes(p));

  it('applies the security headers to every path', () => {
    const headers = rules.headersFor('/store/product/book-10-reasons');
    expect(Object.keys(headers)).toEqual(expect.arrayContaining(['Content-Security-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy']));
  });

  it('sends a redirect with the query kept when no page answers the path', async () => {
    expect(await decide('/checkout-v2?from=mail')).toEqual({ kind: 'redirect', status: 301, location: '/checkout?from=mail' });
    expect(await decide('/checkout')).toEqual({ kind: 'as-is' });
  });

  it("serves another path with the rule's status: a product added after the build, an unknown post", async () => {
    expect(await decide('/store/product/new-book')).toEqual({ kind: 'rewrite', status: 200, to: '/store/product' });
    expect(await decide('/blog/no-such-post')).toEqual({ kind: 'rewrite', status: 404, to: '/blog/not-found' });
  });

  it('leaves an existing page alone, and asks about pages only when a rule matches', async () => {
    const asked: string[] = [];
    const exists = async (path: string) => {
      asked.push(path);
      return true;
    };
    expect(await rules.decide(url('/blog/why-faith-based-books-matter'), new Headers(), exists)).toEqual({ kind: 'as-is' });
    expect(await rules.decide(url('/about'), new Headers(), exists)).toEqual({ kind: 'as-is' });
    expect(asked).toEqual(['/blog/why-faith-based-books-matter']);
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

describe('compression, as Netlify does it', () => {
  it('prefers brotli, falls back to gzip, honours q=0, and leaves images alone', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', 'text/html; charset=utf-8')).toBe('br');
    expect(chooseEncoding('gzip', 'text/javascript; charset=utf-8')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5', 'text/css')).toBe('gzip');
    expect(chooseEncoding('identity', 'text/css')).toBeUndefined();
    expect(chooseEncoding(undefined, 'text/css')).toBeUndefined();
    expect(chooseEncoding('br', 'image/png')).toBeUndefined();
    expect(chooseEncoding('br', 'image/svg+xml')).toBe('br');
  });

  it('compresses a file once and serves the same bytes until it changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dist-'));
    const file = join(dir, 'app.js');
    const text = 'console.log("hello");\n'.repeat(200);
    writeFileSync(file, text);
    const br = await compressedFile(file, 'br');
    expect(brotliDecompressSync(br).toString()).toBe(text);
    expect(br.length).toBeLessThan(text.length / 10);
    expect(await compressedFile(file, 'br')).toBe(br);
    expect(gunzipSync(await compressedFile(file, 'gzip')).toString()).toBe(text);
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

  it('counts in a sliding window, as Netlify does: never more than the limit in any window, even across a minute’s edge', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const limit = { windowLimit: 30, windowSize: 60, aggregateBy: ['ip' as const, 'domain' as const] };
    expect(limiter.allow('a', limit)).toBe(true);
    now = 59_000;
    for (let i = 0; i < 29; i += 1) expect(limiter.allow('a', limit)).toBe(true);
    expect(limiter.allow('a', limit)).toBe(false);
    // The first request has left the minute; the 29 of 59 s have not.
    now = 61_000;
    expect(limiter.allow('a', limit)).toBe(true);
    expect(limiter.allow('a', limit)).toBe(false);
    now = 120_000;
    expect(limiter.allow('a', limit)).toBe(true);
  });
});
