/**
 * The unsubscribe page's one step: post the link's token (from the fragment) to the one-click unsubscribe
 * function, exactly as a mail program does from the List-Unsubscribe header, and say what happened.
 */
import { NEWSLETTER } from '@/config/constants';
import { SITE } from '@/config/site';

const NO_TOKEN = `This link is missing its unsubscribe code. Please use the link in your newsletter, or write to ${SITE.email} and we will take you off the list.`;
const FAILED = `We could not unsubscribe you just now. Please try the link again in a moment, or write to ${SITE.email}.`;

export async function unsubscribeFromLink(status: Element | null): Promise<void> {
  if (!status) return;
  let token = '';
  try {
    token = decodeURIComponent(window.location.hash.replace(/^#/, '')).trim();
  } catch {
    // A fragment a mail program mangled past reading (a stray %): treated as missing.
  }
  if (!token) {
    status.textContent = NO_TOKEN;
    return;
  }
  try {
    const response = await fetch(`${NEWSLETTER.unsubscribeApiPath}?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    const body = (await response.json().catch(() => ({}))) as { message?: unknown; error?: unknown };
    const said = response.ok ? body.message : body.error;
    status.textContent = typeof said === 'string' ? said : FAILED;
  } catch {
    status.textContent = FAILED;
  }
}
