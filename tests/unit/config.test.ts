import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARS, readServerEnv } from '@/config/env';
import { localStandInsAllowed } from '../../functions/_lib/runtime';

describe('environment variables', () => {
  it('.env.example lists every declared variable, each with a comment, and nothing else', () => {
    const lines = readFileSync('.env.example', 'utf8').split('\n');
    const names = lines.filter((l) => /^[A-Z0-9_]+=/.test(l)).map((l) => l.split('=')[0]);
    expect(names.sort()).toEqual(Object.keys(ENV_VARS).sort());
    for (const name of names) {
      const index = lines.findIndex((l) => l.startsWith(`${name}=`));
      expect(lines[index - 1], `${name} needs a comment line above it`).toMatch(/^# \S/);
    }
  });

  it('runs with nothing set, and treats empty values as unset', () => {
    expect(readServerEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    expect(readServerEnv({ STRIPE_SECRET_KEY: '  ' }).STRIPE_SECRET_KEY).toBeUndefined();
    expect(readServerEnv({ SITE_URL: 'not a url' }).SITE_URL).toBeUndefined();
  });

  it('allows the local stand-ins only with the local server’s signal and none of Netlify’s run-time variables', () => {
    expect(localStandInsAllowed(readServerEnv({ SHOP_LOCAL_SERVER: '1' }))).toBe(true);
    expect(localStandInsAllowed(readServerEnv({}))).toBe(false);
    // CONTEXT exists only at build time; it says nothing either way at run time.
    expect(localStandInsAllowed(readServerEnv({ CONTEXT: 'deploy-preview' }))).toBe(false);
    for (const name of ['SITE_ID', 'SITE_NAME', 'URL']) {
      expect(localStandInsAllowed(readServerEnv({ SHOP_LOCAL_SERVER: '1', [name]: 'x' })), name).toBe(false);
    }
  });
});
