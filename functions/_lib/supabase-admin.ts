/**
 * The functions' database access: supabase-js with the service-role key, against hosted Supabase or the
 * embedded backend (the local server sets SUPABASE_URL and the local key). Never sent to a browser.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { ConfigurationError } from './runtime';

let cached: { key: string; client: SupabaseClient } | undefined;

export function serviceClient(env: ServerEnv): SupabaseClient {
  const url = env.SUPABASE_URL ?? env.PUBLIC_SUPABASE_URL;
  const key = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!url || !key) throw new ConfigurationError('SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY must be set for the functions.');
  const cacheKey = `${url}|${key}`;
  if (cached?.key !== cacheKey) {
    cached = { key: cacheKey, client: createClient(url, key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } }) };
  }
  return cached.client;
}

/** One call of a database function: its error thrown, its answer read with `schema`. */
export async function rpc<S extends z.ZodType>(db: SupabaseClient, fn: string, args: Record<string, unknown>, schema: S): Promise<z.output<S>> {
  const { data, error } = await db.rpc(fn, args);
  if (error) throw error;
  return schema.parse(data);
}

/** The signed-in shopper behind a request's bearer token, if any and if valid. */
export async function userIdFromRequest(db: SupabaseClient, request: Request): Promise<string | null> {
  const token = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token) return null;
  const { data, error } = await db.auth.getUser(token);
  return error || !data.user ? null : data.user.id;
}
