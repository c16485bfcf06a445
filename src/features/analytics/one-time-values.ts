/**
 * Values in an address that only work once or grant something (a payment session, a sign-in code, a token)
 * must not reach analytics: GA4 keeps page locations for months and shows them to anyone with report access.
 */

/** Query keys removed before a location or query string is sent. */
const ONE_TIME_KEYS = new Set(['session_id', 'code', 'state', 'token', 'token_hash', 'access_token', 'refresh_token', 'id_token', 'provider_token', 'provider_refresh_token', 'nonce']);
/** Any other key naming a token, secret, password or key is dropped too. */
const SENSITIVE_KEY = /token|secret|password|api_?key|signature/i;

const isOneTime = (key: string) => ONE_TIME_KEYS.has(key.toLowerCase()) || SENSITIVE_KEY.test(key);

/** `?session_id=cs_1&utm_source=news` → `?utm_source=news`; '' when nothing is left. */
export function withoutOneTimeValues(search: string): string {
  const query = new URLSearchParams(search);
  for (const key of [...query.keys()]) if (isOneTime(key)) query.delete(key);
  const kept = query.toString();
  return kept ? `?${kept}` : '';
}

/** The page location GA4 may record: origin, path and the harmless part of the query, never the fragment. */
export function analyticsPageLocation(location: { origin: string; pathname: string; search: string }): string {
  return `${location.origin}${location.pathname}${withoutOneTimeValues(location.search)}`;
}
