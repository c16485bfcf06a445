/**
 * The functions' database access: supabase-js with the service-role key, against hosted Supabase or the
 * embedded backend (the local server sets SUPABASE_URL and the local key). Never sent to a browser.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { DB_OUTCOME_KEYS, DB_OUTCOMES, type DbOutcome } from '../../src/lib/db-outcomes';
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

type KeyedFunction = keyof typeof DB_OUTCOME_KEYS;
type KeyedAnswer<F extends KeyedFunction, S extends Record<DbOutcome<F>, z.ZodRawShape>> = {
  [W in DbOutcome<F>]: z.output<z.ZodObject<S[W] & Record<(typeof DB_OUTCOME_KEYS)[F], z.ZodLiteral<W>>>>;
}[DbOutcome<F>];

/**
 * The schema of a function's jsonb answer, one shape for each outcome word in its list (DB_OUTCOMES) and no other:
 * a word added to or renamed in the list fails the type-check here until its shape is written.
 */
export function outcomeAnswer<F extends KeyedFunction, S extends Record<DbOutcome<F>, z.ZodRawShape>>(fn: F, shapes: S & Record<Exclude<keyof S, DbOutcome<F>>, never>): z.ZodType<KeyedAnswer<F, S>> {
  const key = DB_OUTCOME_KEYS[fn];
  const options = (DB_OUTCOMES[fn] as readonly DbOutcome<F>[]).map((word) => z.object({ ...(shapes[word] as z.ZodRawShape), [key]: z.literal(word) }));
  return z.discriminatedUnion(key, options as [z.ZodObject, ...z.ZodObject[]]) as unknown as z.ZodType<KeyedAnswer<F, S>>;
}

/** The signed-in shopper behind a request's bearer token, if any and if valid. */
export async function userIdFromRequest(db: SupabaseClient, request: Request): Promise<string | null> {
  const token = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (!token) return null;
  const { data, error } = await db.auth.getUser(token);
  return error || !data.user ? null : data.user.id;
}
