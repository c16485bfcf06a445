import { useStore } from '@nanostores/react';
import { useHydrated } from '@/lib/use-hydrated';
import { $auth, type AuthState } from './auth';

const LOADING: AuthState = { status: 'loading', user: null, session: null };

/**
 * The auth state for an island. Until the island has hydrated it reads 'loading', as the server rendered it,
 * even if another island already learned the session: the first render must match the HTML.
 */
export function useAuth(): AuthState {
  const auth = useStore($auth);
  return useHydrated() ? auth : LOADING;
}
