/**
 * The functions as Netlify deploys them: bundled by Netlify's own bundler (@netlify/zip-it-and-ship-it, the
 * library `netlify deploy` uses), then each bundle loaded from its own folder and called. A bundling problem
 * (an import alias the bundler does not resolve, a file it leaves out) fails here, not in a deploy.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { zipFunctions } from '@netlify/zip-it-and-ship-it';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionConfig, FunctionHandler, ScheduledFunctionConfig } from '../../functions/_lib/http';
import { startTestShop, type TestShop } from '../helpers/shop';

const sourceNames = readdirSync('functions')
  .filter((file) => /^[a-z0-9-]+\.ts$/.test(file))
  .map((file) => file.replace(/\.ts$/, ''));

let out: string;
let results: Awaited<ReturnType<typeof zipFunctions>>;
let t: TestShop;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'function-bundles-'));
  // As netlify.toml configures them: the functions folder, esbuild; unzipped so the bundles can be loaded here.
  results = await zipFunctions('functions', out, { archiveFormat: 'none', basePath: process.cwd(), repositoryRoot: process.cwd(), config: { '*': { nodeBundler: 'esbuild' } } });
  t = await startTestShop();
}, 240_000);
afterAll(async () => {
  await t?.close();
  await rm(out, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.SITE_ID;
});

/** Loads one bundled function the way Netlify's entry point does: its module inside the bundle's folder. */
async function bundled(name: string): Promise<{ default: FunctionHandler; config: FunctionConfig }> {
  const result = results.find((r) => r.name === name);
  if (!result) throw new Error(`no bundle for ${name}`);
  return import(pathToFileURL(join(result.path, 'functions', `${name}.mjs`)).href);
}

const call = async (name: string, body: unknown) => {
  const response = await (await bundled(name)).default(new Request(`${t.url}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('the deploy bundles', () => {
  it('every function is bundled as a modern (Request → Response) function with its path, or its schedule and no path', async () => {
    expect(results.map((r) => r.name).sort()).toEqual([...sourceNames].sort());
    for (const result of results) {
      expect(result.runtimeAPIVersion, result.name).toBe(2);
      const source = (await import(`../../functions/${result.name}.ts`)) as { config: FunctionConfig | ScheduledFunctionConfig };
      // Netlify's bundler reads each function's in-source config (its path, or its schedule) from the bundle.
      if ('schedule' in source.config) {
        expect(result.schedule, result.name).toBe(source.config.schedule);
        expect((result.config as { path?: string[] }).path, result.name).toBeUndefined();
      } else {
        expect((result.config as { path?: string[] }).path, result.name).toEqual([source.config.path]);
      }
    }
  });

  // Each bundle carries its own copy of what it imports (about forty of them): loading them all takes a while.
  it('every bundle loads on its own and exports its handler', { timeout: 120_000 }, async () => {
    for (const name of sourceNames) {
      const module = await bundled(name);
      expect(typeof module.default, name).toBe('function');
    }
  });

  it('bundled health and payment-config answer', async () => {
    const health = await (await bundled('health')).default(new Request(`${t.url}/api/health`));
    expect(health.status).toBe(200);
    expect(await call('payment-config', {})).toEqual({ status: 200, body: { mode: 'local-test', publishableKey: null } });
  });

  it("bundled visitor-region answers from the geolocation Netlify passes in the function's context", async () => {
    const ask = async (code?: string) => (await (await bundled('visitor-region')).default(new Request(`${t.url}/api/visitor-region`), { geo: { country: { code } } })).json();
    expect(await ask('GB')).toEqual({ country: 'GB', consentRequired: true });
    expect(await ask('AU')).toEqual({ country: 'AU', consentRequired: false });
  });

  it('bundled create-checkout prices a cart on the embedded backend, and refuses where Netlify’s variables say deploy', async () => {
    const body = {
      cartItems: [{ id: 'book-10-reasons', quantity: 2 }],
      shippingDetails: { fullName: 'Bundle Test', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } },
      customerEmail: 'bundle@example.com',
    };
    const answer = await call('create-checkout', body);
    expect(answer).toMatchObject({ status: 200, body: { url: expect.stringContaining('/api/test-payment?session=cs_local_') } });
    const { data } = await t.service().from('orders').select('total_amount').eq('id', answer.body.orderId).single();
    expect(data).toEqual({ total_amount: 59 });

    process.env.SITE_ID = 'deployed-site';
    expect((await call('create-checkout', body)).status).toBe(503);
  });
});
