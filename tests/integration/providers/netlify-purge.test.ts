/**
 * The Netlify purge adapter against a local server answering as Netlify's API documents POST /api/v1/purge:
 * a bearer token, `{ site_id, cache_tags }`, 202 `{ "status": "ok" }`; 401 for a bad token, 404 for an unknown
 * site, 400 for bad parameters, each with `{ "message": … }`.
 */
import { describe, expect, it } from 'vitest';
import { createNetlifyPurge } from '../../../functions/_lib/providers/netlify-purge';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import { sendJson, useFakeProvider } from '../../helpers/fake-provider';

const TOKEN = 'nfp_purge_token_for_this_site';
const SITE_ID = '5b3b5a2e-5f6a-4a8e-9c1d-0123456789ab';

const fake = useFakeProvider({ parseBody: (raw) => (raw ? (JSON.parse(raw) as Record<string, unknown>) : {}) });

async function fakeNetlify(): Promise<string> {
  const { url } = await fake.start(({ method, path, headers, body }, response) => {
    if (method !== 'POST' || path !== '/api/v1/purge') return sendJson(response, 404, { message: 'Not Found' });
    if (headers.authorization !== `Bearer ${TOKEN}`) return sendJson(response, 401, { message: 'Access Denied' });
    const tags = body.cache_tags;
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) return sendJson(response, 400, { message: 'Invalid request parameters' });
    if (body.site_id !== SITE_ID) return sendJson(response, 404, { message: 'Site not found' });
    sendJson(response, 202, { status: 'ok' });
  });
  return url;
}

describe('Netlify purge adapter', () => {
  it('purges the tags of its own site with its token', async () => {
    const baseUrl = await fakeNetlify();
    await createNetlifyPurge({ token: TOKEN, siteId: SITE_ID, baseUrl }).purgeTags(['catalog']);
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]!.headers['content-type']).toBe('application/json');
    expect(fake.seen[0]!.body).toEqual({ site_id: SITE_ID, cache_tags: ['catalog'] });
  });

  it('sends nothing for no tags', async () => {
    const baseUrl = await fakeNetlify();
    await createNetlifyPurge({ token: TOKEN, siteId: SITE_ID, baseUrl }).purgeTags([]);
    expect(fake.seen).toHaveLength(0);
  });

  it.each([
    ['a token Netlify refuses', { token: 'wrong', siteId: SITE_ID }, 401, 'Access Denied'],
    ['a site that does not exist', { token: TOKEN, siteId: 'nope' }, 404, 'Site not found'],
  ])('throws a ProviderError with Netlify’s message for %s', async (_case, options, status, message) => {
    const baseUrl = await fakeNetlify();
    const error = await createNetlifyPurge({ ...options, baseUrl })
      .purgeTags(['catalog'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'netlify-purge', status, code: 'rejected' });
    expect((error as Error).message).toContain(message);
  });

  it('gives up after its deadline when Netlify does not answer', async () => {
    const { url } = await fake.start(() => {});
    const error = await createNetlifyPurge({ token: TOKEN, siteId: SITE_ID, baseUrl: url, timeoutMs: 200 })
      .purgeTags(['catalog'])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout', status: 504 });
  });
});
