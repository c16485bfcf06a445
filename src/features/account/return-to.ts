/** Where to go after signing in: a page that sent a signed-out visitor to /auth (e.g. /admin) asks to come back. */
import { STORAGE_KEYS } from '@/config/constants';

/** Sends a signed-out visitor to /auth, remembering this page. */
export function signInAndReturn(): void {
  try {
    sessionStorage.setItem(STORAGE_KEYS.signInReturnTo, window.location.pathname + window.location.search + window.location.hash);
  } catch {
    // Without session storage the visitor lands on the home page after signing in.
  }
  window.location.assign('/auth');
}

/** The remembered page, once (a same-site path only), or the home page. */
export function takeReturnPath(): string {
  try {
    const path = sessionStorage.getItem(STORAGE_KEYS.signInReturnTo);
    sessionStorage.removeItem(STORAGE_KEYS.signInReturnTo);
    if (path?.startsWith('/') && !path.startsWith('//')) return path;
  } catch {
    // fall through
  }
  return '/';
}
