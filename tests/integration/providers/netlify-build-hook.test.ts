/**
 * The Netlify build hook adapter against a local server answering as Netlify documents build hooks: POST
 * /build_hooks/<id> (optionally `?trigger_title=`, shown in the deploy list) answers 200 with an empty body and
 * queues a build; an unknown hook answers 404.
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import { createNetlifyBuildHook } from '../../../functions/_lib/providers/site-builds';
import { useFakeProvider } from '../../helpers/fake-provider';

const HOOK_ID = '5f2a0c1e9d3b4a6f8e7d1c2b';
const fake = useFakeProvider();

async function fakeNetlify(): Promise<string> {
  const { url } = await fake.start(({ method, url: target }, response) => {
    if (method !== 'POST' || target.pathname !== `/build_hooks/${HOOK_ID}`) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    response.writeHead(200).end();
  });
  return url;
}

describe('Netlify build hook adapter', () => {
  it('asks for a build with a POST to the hook, titled with the reason', async () => {
    const base = await fakeNetlify();
    await createNetlifyBuildHook({ hookUrl: `${base}/build_hooks/${HOOK_ID}` }).rebuild('Review published by publisher@example.com');
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0]!.method).toBe('POST');
    expect(fake.seen[0]!.url.searchParams.get('trigger_title')).toBe('Review published by publisher@example.com');
    expect(fake.seen[0]!.body).toBe('{}');
  });

  it('throws a ProviderError for a hook Netlify does not know (404)', async () => {
    const base = await fakeNetlify();
    const error = await createNetlifyBuildHook({ hookUrl: `${base}/build_hooks/000000000000000000000000` })
      .rebuild('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'netlify-build-hook', status: 404, code: 'rejected' });
  });

  it('gives up after its deadline when Netlify does not answer', async () => {
    const { url } = await fake.start(() => {});
    const error = await createNetlifyBuildHook({ hookUrl: `${url}/build_hooks/${HOOK_ID}`, timeoutMs: 200 })
      .rebuild('x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout', status: 504 });
  });
});
