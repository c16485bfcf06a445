/**
 * Loads every handler in functions/ and routes requests to it by its `config.path`, as Netlify does,
 * including the per-function rate limit (in memory here).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FunctionConfig, FunctionHandler } from '../functions/_lib/http';
import { LOCAL_SERVER_SIGNAL } from '../functions/_lib/runtime';

export interface MountedFunction {
  name: string;
  config: FunctionConfig;
  handler: FunctionHandler;
}

export async function loadFunctions(dir: string): Promise<MountedFunction[]> {
  // The positive signal the local stand-ins (TEST payments, the email outbox) require; a deploy never sets it.
  process.env[LOCAL_SERVER_SIGNAL] = '1';
  const files = readdirSync(dir).filter((file) => /^[a-z0-9-]+\.ts$/.test(file));
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as { default: FunctionHandler; config: FunctionConfig };
      if (typeof module.default !== 'function' || !module.config?.path) {
        throw new Error(`functions/${file} must export a default handler and a config with a path`);
      }
      return { name: file.replace(/\.ts$/, ''), config: module.config, handler: module.default };
    }),
  );
}

/**
 * Netlify's limit per function and client address, counted as Netlify counts it, in a sliding window: at most
 * `windowLimit` requests answered in any `windowSize` seconds. (A fixed window would let twice the limit through
 * across its edge.) A refused request is not counted.
 */
export class RateLimiter {
  readonly #answered = new Map<string, number[]>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  allow(key: string, limit: FunctionConfig['rateLimit']): boolean {
    if (!limit) return true;
    const t = this.now();
    const recent = (this.#answered.get(key) ?? []).filter((at) => t - at < limit.windowSize * 1000);
    const allowed = recent.length < limit.windowLimit;
    if (allowed) recent.push(t);
    this.#answered.set(key, recent);
    return allowed;
  }
}
