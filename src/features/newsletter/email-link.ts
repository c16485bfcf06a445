/**
 * What the pages behind the links in the shop's emails (confirm, unsubscribe) share: reading the signed token from
 * the fragment, and posting it to their function for the sentence to show.
 */

/** The token in the link's fragment; '' for none, or one a mail program mangled past reading (a stray %). */
export function tokenFromFragment(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, '')).trim();
  } catch {
    return '';
  }
}

/** Posts to the link's function: its answer's sentence (its message, or its error), or null when there is none to show. */
export async function postForSentence(path: string, init: Pick<RequestInit, 'headers' | 'body'>): Promise<string | null> {
  const response = await fetch(path, { method: 'POST', ...init });
  const body = (await response.json().catch(() => ({}))) as { message?: unknown; error?: unknown };
  const said = response.ok ? body.message : body.error;
  return typeof said === 'string' ? said : null;
}
