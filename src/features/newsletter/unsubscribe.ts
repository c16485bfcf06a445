/**
 * The unsubscribe page's one step: post the link's token (from the fragment) to the one-click unsubscribe
 * function, exactly as a mail program does from the List-Unsubscribe header, and say what happened.
 */
import { NEWSLETTER } from '@/config/constants';
import { SITE } from '@/config/site';
import { postForSentence, tokenFromFragment } from './email-link';

const NO_TOKEN = `This link is missing its unsubscribe code. Please use the link in your newsletter, or write to ${SITE.email} and we will take you off the list.`;
const FAILED = `We could not unsubscribe you just now. Please try the link again in a moment, or write to ${SITE.email}.`;

export async function unsubscribeFromLink(status: Element | null): Promise<void> {
  if (!status) return;
  const token = tokenFromFragment(window.location.hash);
  if (!token) {
    status.textContent = NO_TOKEN;
    return;
  }
  try {
    const said = await postForSentence(`${NEWSLETTER.unsubscribeApiPath}?token=${encodeURIComponent(token)}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    status.textContent = said ?? FAILED;
  } catch {
    status.textContent = FAILED;
  }
}
