/**
 * Loads every handler in functions/: those with a `config.path` are routed by it, as Netlify does, including
 * the per-function rate limit (in memory here); those with a `config.schedule` are run on it (schedules.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FunctionConfig, FunctionHandler, ScheduledFunctionConfig } from '../functions/_lib/http';
import { LOCAL_SERVER_SIGNAL } from '../functions/_lib/runtime';

export interface MountedFunction {
  name: string;
  config: FunctionConfig;
  handler: FunctionHandler;
}

export interface ScheduledFunction {
  name: string;
  config: ScheduledFunctionConfig;
  handler: FunctionHandler;
}

export interface LoadedFunctions {
  routed: MountedFunction[];
  scheduled: ScheduledFunction[];
}

type FunctionModule = { default: FunctionHandler; config?: Partial<FunctionConfig & ScheduledFunctionConfig> };

export async function loadFunctions(dir: string): Promise<LoadedFunctions> {
  // The positive signal the local stand-ins (TEST payments, the email outbox) require; a deploy never sets it.
  process.env[LOCAL_SERVER_SIGNAL] = '1';
  const files = readdirSync(dir).filter((file) => /^[a-z0-9-]+\.ts$/.test(file));
  const loaded: LoadedFunctions = { routed: [], scheduled: [] };
  for (const file of files) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as FunctionModule;
    const name = file.replace(/\.ts$/, '');
    const { config } = module;
    if (typeof module.default !== 'function' || !config || Boolean(config.path) === Boolean(config.schedule)) {
      throw new Error(`functions/${file} must export a default handler and a config with either a path or a schedule`);
    }
    if (config.path) loaded.routed.push({ name, config: config as FunctionConfig, handler: module.default });
    else loaded.scheduled.push({ name, config: config as ScheduledFunctionConfig, handler: module.default });
  }
  return loaded;
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
