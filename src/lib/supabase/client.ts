/**
 * The one place that knows which Supabase the browser talks to: the hosted project when
 * PUBLIC_SUPABASE_URL is set at build, else the embedded backend on the site's own origin.
 * supabase-js is loaded on first use, so pages that never touch data never download it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { PUBLIC_SUPABASE_ANON_KEY, PUBLIC_SUPABASE_URL } from 'astro:env/client';
import { STORAGE_KEYS } from '@/config/constants';
import { EMBEDDED_ANON_KEY } from './embedded-keys';

let client: Promise<SupabaseClient> | undefined;

function supabaseSettings(origin: string): { url: string; anonKey: string; embedded: boolean } {
  if (PUBLIC_SUPABASE_URL && PUBLIC_SUPABASE_ANON_KEY) return { url: PUBLIC_SUPABASE_URL, anonKey: PUBLIC_SUPABASE_ANON_KEY, embedded: false };
  return { url: origin, anonKey: EMBEDDED_ANON_KEY, embedded: true };
}

/** The browser's client, created on first use (islands call this only in the browser). */
export function getSupabase(): Promise<SupabaseClient> {
  client ??= import('@supabase/supabase-js').then(({ createClient }) => {
    const { url, anonKey } = supabaseSettings(window.location.origin);
    return createClient(url, anonKey, {
      auth: { flowType: 'pkce', persistSession: true, autoRefreshToken: true, detectSessionInUrl: false, storageKey: STORAGE_KEYS.authSession },
    });
  });
  return client;
}

/** Whether this browser holds a saved session, read without loading supabase-js. */
export function hasSavedSession(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.authSession) !== null;
  } catch {
    return false;
  }
}
