/**
 * Where to go after signing in: every sign-in prompt (the header's Sign In, the wishlist's, a page that needs an
 * account) names the page it came from, and the visitor lands back there. The address travels as
 * `/auth?return_to=<path>`, then in session storage across the sign-in provider's redirect.
 */
import { STORAGE_KEYS } from '@/config/constants';

const RETURN_PARAM = 'return_to';

/** /auth and everything under it: returning there would only ask the visitor to sign in again. */
const SIGN_IN_PAGES = /^\/auth(\/|$)/;

const shopOrigin = () => window.location.origin;

/**
 * The one rule for where signing in may lead, or null. `value` is resolved against the shop's origin the way a
 * browser resolves it (dropping tabs and newlines, reading `\` as `/`, `//host` as another host), kept only when it
 * stays on that origin and is not a sign-in page, and given back as the resolved path, query and fragment, never
 * as it came.
 */
export function returnPath(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  const path = url.pathname + url.search + url.hash;
  // The path must resolve to the same address again: `/.//host` resolves to the path `//host`, which a browser
  // sent there would read as another host.
  if (url.origin !== new URL(origin).origin || new URL(path, origin).href !== url.href) return null;
  return SIGN_IN_PAGES.test(url.pathname) ? null : path;
}

/** The sign-in page's address that brings the visitor back to `path` (at build time, pass the site's origin). */
export function signInPath(path: string, origin: string = shopOrigin()): string {
  const back = returnPath(path, origin);
  return back && back !== '/' ? `/auth?${RETURN_PARAM}=${encodeURIComponent(back)}` : '/auth';
}

/** The page the visitor is on, as a sign-in return path. */
export const currentPath = () => window.location.pathname + window.location.search + window.location.hash;

/** On /auth: remembers the page named in the address for after the provider's redirect. */
export function rememberReturnPath(search: string, origin: string = shopOrigin()): void {
  const path = returnPath(new URLSearchParams(search).get(RETURN_PARAM), origin);
  if (!path) return;
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
export function takeReturnPath(origin: string = shopOrigin()): string {
  try {
    const path = sessionStorage.getItem(STORAGE_KEYS.signInReturnTo);
    sessionStorage.removeItem(STORAGE_KEYS.signInReturnTo);
    // Checked again on the way out: the stored value is only as trustworthy as anything else in the tab's storage.
    return returnPath(path, origin) ?? '/';
  } catch {
    return '/';
  }
}
