/**
 * Sign-in state for every island, fed by supabase-js: loading until the first session lookup, then following
 * auth events (signed in/out, token refreshed, user updated). The subscription starts when the first island
 * reads the store and stops when the last one goes, so there is no provider to forget.
 */
import type { Session, User } from '@supabase/supabase-js';
import { atom, onMount } from 'nanostores';
import { STORAGE_KEYS } from '@/config/constants';
import { getSupabase, hasSavedSession } from '@/lib/supabase/client';

export interface AuthUser {
  id: string;
  email: string;
  avatarUrl: string | null;
  createdAt: string;
}

export type AuthState = { status: 'loading'; user: null; session: null } | { status: 'signed-out'; user: null; session: null } | { status: 'signed-in'; user: AuthUser; session: Session };

export const $auth = atom<AuthState>({ status: 'loading', user: null, session: null });

function toAuthUser(user: User): AuthUser {
  const meta = user.user_metadata ?? {};
  const avatar = typeof meta.avatar_url === 'string' ? meta.avatar_url : typeof meta.picture === 'string' ? meta.picture : null;
  return { id: user.id, email: user.email ?? '', avatarUrl: avatar, createdAt: user.created_at };
}

function fromSession(session: Session | null): AuthState {
  return session ? { status: 'signed-in', user: toAuthUser(session.user), session } : { status: 'signed-out', user: null, session: null };
}

onMount($auth, () => {
  // Islands render once at build with no session; the browser takes over on hydration.
  if (typeof window === 'undefined') return;
  let active = true;
  let unsubscribe: (() => void) | undefined;

  async function follow() {
    window.removeEventListener('storage', onStorage);
    const supabase = await getSupabase();
    if (!active) return;
    const { data } = await supabase.auth.getSession();
    if (active) $auth.set(fromSession(data.session));
    const subscription = supabase.auth.onAuthStateChange((_event, session) => {
      // INITIAL_SESSION, SIGNED_IN, SIGNED_OUT, TOKEN_REFRESHED, USER_UPDATED, PASSWORD_RECOVERY
      if (active) $auth.set(fromSession(session));
    });
    unsubscribe = () => subscription.data.subscription.unsubscribe();
  }
  // A sign-in in another tab saves a session here too.
  function onStorage(event: StorageEvent) {
    if (event.key === STORAGE_KEYS.authSession && event.newValue) void follow();
  }

  // Most visitors never sign in: without a saved session, supabase-js is not even loaded.
  if (hasSavedSession()) void follow();
  else {
    $auth.set({ status: 'signed-out', user: null, session: null });
    window.addEventListener('storage', onStorage);
  }
  return () => {
    active = false;
    window.removeEventListener('storage', onStorage);
    unsubscribe?.();
  };
});

/** The name shown in the header: the part of the email before the @. */
export const displayName = (email: string) => email.split('@')[0] ?? email;

/** Initials for an avatar: the first two letters of the email, uppercase. */
export const initials = (email: string) => email.slice(0, 2).toUpperCase();

/** The sign-in state once it is known (the first session lookup has ended). */
export function settledAuth(): Promise<AuthState> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | undefined;
    let done = false;
    unsubscribe = $auth.subscribe((state) => {
      if (state.status === 'loading' || done) return;
      done = true;
      resolve(state);
      // The first call can come before subscribe has returned its unsubscriber.
      queueMicrotask(() => unsubscribe?.());
    });
  });
}
