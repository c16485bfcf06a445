/**
 * Public, read-only data (the catalog) through PostgREST alone: the same query builder supabase-js wraps,
 * at a fraction of its size, so a visitor reading a product page never downloads the auth client.
 * Requests go as the anon role; RLS lets anyone read products.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { supabaseSettings } from './client';

let rest: PostgrestClient | undefined;

export function getPublicRest(): PostgrestClient {
  if (!rest) {
    const { url, anonKey } = supabaseSettings(window.location.origin);
    rest = new PostgrestClient(`${url}/rest/v1`, { headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` } });
  }
  return rest;
}
