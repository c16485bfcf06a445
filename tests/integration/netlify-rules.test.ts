/**
 * The local server follows the redirect and header rules a publisher may add to netlify.toml (or to the publish
 * folder's _redirects and _headers) as Netlify's documentation says the live site does
 * (https://docs.netlify.com/routing/redirects/ and /routing/headers/): placeholders, splats, query and country
 * conditions, rewrites, shadowing and force, a 404 with its own page, headers by path pattern. It runs on a copy
 * of netlify.toml with rules added and a small publish folder, so the shop's own files stay as they are.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_COUNTRY_HEADER, type LocalServer, startLocalServer } from '../../local/server';

const ADDED_RULES = `
[[redirects]]
  from = "/news/:year/:slug"
  to = "/blog/:slug"
  status = 301

[[redirects]]
  from = "/old-shop/*"
  to = "/store/:splat"
  status = 301

[[redirects]]
  from = "/search"
  to = "/store/tag/:tag"
  status = 302
  query = { tag = ":tag" }

[[redirects]]
  from = "/welcome"
  to = "/about"
  status = 200

[[redirects]]
  from = "/shadowed"
  to = "/about"
  status = 301

[[redirects]]
  from = "/forced"
  to = "/about"
  status = 200
  force = true

[[redirects]]
  from = "/abroad-only"
  to = "/abroad"
  status = 200
  conditions = { Country = ["US"] }

[[redirects]]
  from = "/healthz"
  to = "/api/health"
  status = 200

[[redirects]]
  from = "/members/*"
  to = "/members/not-found"
  status = 404

[[headers]]
  for = "/downloads/*"
  [headers.values]
    X-Robots-Tag = "noindex"
`;

const PAGES: Record<string, string> = {
  'index.html': 'home',
  'about.html': 'about',
  'shadowed.html': 'the shadowed page',
  'forced.html': 'the forced-over page',
  'abroad.html': 'abroad',
  '404.html': 'site not found',
  'members/not-found.html': 'members not found',
  'downloads/price-list.txt': 'prices',
  _redirects: '/from-file  /about  302\n',
  _headers: '/about\n  X-From-File: yes\n',
};

let server: LocalServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'netlify-rules-'));
  const configPath = join(dir, 'netlify.toml');
  writeFileSync(configPath, readFileSync('netlify.toml', 'utf8') + ADDED_RULES);
  const publish = join(dir, 'publish');
  for (const [file, body] of Object.entries(PAGES)) {
    mkdirSync(dirname(join(publish, file)), { recursive: true });
    writeFileSync(join(publish, file), body);
  }
  server = await startLocalServer({ projectRoot: process.cwd(), port: 0, configPath, distDir: publish });
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, server.url), { redirect: 'manual', headers });

async function answer(path: string, headers?: Record<string, string>) {
  const response = await get(path, headers);
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

describe('redirect rules added to a copy of netlify.toml, as Netlify applies them', () => {
  it('fills a placeholder of the path into the target', async () => {
    expect(await answer('/news/2024/advent-crafts')).toMatchObject({ status: 301, location: '/blog/advent-crafts' });
  });

  it('carries a splat into the target, and the query string along', async () => {
    expect(await answer('/old-shop/books/the-saints?ref=mail')).toMatchObject({ status: 301, location: '/store/books/the-saints?ref=mail' });
  });

  it('matches on a query parameter and uses its value; without it the rule does not apply', async () => {
    expect(await answer('/search?tag=saints')).toMatchObject({ status: 302, location: '/store/tag/saints?tag=saints' });
    expect(await answer('/search')).toMatchObject({ status: 404, body: 'site not found' });
  });

  it('serves another page under the same address for a 200 rewrite', async () => {
    expect(await answer('/welcome')).toEqual({ status: 200, location: null, body: 'about' });
  });

  it('serves an existing file before a rule that is not forced (shadowing), and the rule’s target when it is', async () => {
    expect(await answer('/shadowed')).toEqual({ status: 200, location: null, body: 'the shadowed page' });
    expect(await answer('/forced')).toEqual({ status: 200, location: null, body: 'about' });
  });

  it('answers 404 with the rule’s own page, and the site’s 404 page where no rule or file matches', async () => {
    expect(await answer('/members/no-one')).toEqual({ status: 404, location: null, body: 'members not found' });
    expect(await answer('/no-such-page')).toEqual({ status: 404, location: null, body: 'site not found' });
  });

  it('applies a country condition by the visitor’s country', async () => {
    expect(await answer('/abroad-only', { [LOCAL_COUNTRY_HEADER]: 'US' })).toMatchObject({ status: 200, body: 'abroad' });
    expect(await answer('/abroad-only', { [LOCAL_COUNTRY_HEADER]: 'AU' })).toMatchObject({ status: 404, body: 'site not found' });
  });

  it('rewrites onto a function', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true });
  });

  it('follows the publish folder’s _redirects as well', async () => {
    expect(await answer('/from-file')).toMatchObject({ status: 302, location: '/about' });
  });

  it('keeps the rules netlify.toml already has', async () => {
    expect(await answer('/checkout-v2')).toMatchObject({ status: 301, location: '/checkout' });
  });
});

describe('header rules by path pattern', () => {
  it('adds a header to the paths its pattern matches only', async () => {
    expect((await get('/downloads/price-list.txt')).headers.get('x-robots-tag')).toBe('noindex');
    expect((await get('/about')).headers.get('x-robots-tag')).toBeNull();
  });

  it('adds the publish folder’s _headers and netlify.toml’s headers for every path', async () => {
    const about = (await get('/about')).headers;
    expect(about.get('x-from-file')).toBe('yes');
    expect(about.get('x-frame-options')).toBe('DENY');
    expect((await get('/')).headers.get('x-from-file')).toBeNull();
  });
});
