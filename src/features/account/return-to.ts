/**
 * Where to go after signing in: every sign-in prompt (the header's Sign In, the wishlist's, a page that needs an
 * account) names the page it came from, and the visitor lands back there. The address travels as
 * `/auth?return_to=<path>`, then in session storage across the sign-in provider's redirect.
 */
import { STORAGE_KEYS } from '@/config/constants';

const RETURN_PARAM = 'return_to';

/** A path of this site that signing in may return to: same origin, and not the sign-in pages themselves. */
function isReturnPath(path: string | null | undefined): path is string {
  return !!path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && !/^\/auth(\/|\?|#|$)/.test(path);
}

/** The sign-in page's address that brings the visitor back to `path`. */
export const signInPath = (path: string): string => (isReturnPath(path) && path !== '/' ? `/auth?${RETURN_PARAM}=${encodeURIComponent(path)}` : '/auth');

/** The page the visitor is on, as a sign-in return path. */
export const currentPath = () => window.location.pathname + window.location.search + window.location.hash;

/** On /auth: remembers the page named in the address for after the provider's redirect. */
export function rememberReturnPath(search: string): void {
  const path = new URLSearchParams(search).get(RETURN_PARAM);
  if (!isReturnPath(path)) return;
  try {
    sessionStorage.setItem(STORAGE_KEYS.signInReturnTo, path);
  } catch {
    // Without session storage the visitor lands on the home page after signing in.
  }
}

/** Sends a signed-out visitor to /auth, to come back to this page. */
export function signInAndReturn(): void {
  window.location.assign(signInPath(currentPath()));
}

/** The remembered page, once, or the home page. */
export function takeReturnPath(): string {
  try {
    const path = sessionStorage.getItem(STORAGE_KEYS.signInReturnTo);
    sessionStorage.removeItem(STORAGE_KEYS.signInReturnTo);
    if (isReturnPath(path)) return path;
  } catch {
    // fall through
  }
  return '/';
}
