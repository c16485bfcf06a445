/** Sign-in and sign-out as the screens use them; errors come back as messages. */
import { getSupabase } from '@/lib/supabase/client';

export async function signInWithGoogle(): Promise<void> {
  const { error } = await (await getSupabase()).auth.signInWithOAuth({
    provider: 'google',
    // No offline access or consent prompt: the shop never uses a Google refresh token, and asking for one
    // would show Google's consent screen at every sign-in.
    options: { redirectTo: `${window.location.origin}/auth/callback` },
  });
  if (error) throw new Error(error.message || 'Failed to sign in with Google');
}

/** Reads the callback address: an error from the provider, or the one-time code to exchange. */
export function readCallback(location: Pick<Location, 'search' | 'hash'>): { error: string } | { code: string } {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const error = query.get('error_description') ?? fragment.get('error_description') ?? query.get('error') ?? fragment.get('error');
  if (error) return { error };
  const code = query.get('code');
  return code ? { code } : { error: 'No sign-in code was returned.' };
}

/** Exchanges the one-time code for a session; answers the signed-in user's id. */
export async function completeSignIn(code: string): Promise<string> {
  const { data, error } = await (await getSupabase()).auth.exchangeCodeForSession(code);
  if (error) throw new Error(error.message);
  return data.user.id;
}

export async function signOut(): Promise<void> {
  const { error } = await (await getSupabase()).auth.signOut();
  if (error) throw new Error(error.message || 'Failed to sign out');
}
