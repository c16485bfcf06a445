import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARS, readServerEnv, isProductionDeploy } from '@/config/env';

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

  it('knows a production deploy from Netlify’s CONTEXT', () => {
    expect(isProductionDeploy(readServerEnv({ CONTEXT: 'production' }))).toBe(true);
    expect(isProductionDeploy(readServerEnv({ CONTEXT: 'deploy-preview' }))).toBe(false);
    expect(isProductionDeploy(readServerEnv({}))).toBe(false);
  });
});
