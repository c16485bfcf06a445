/**
 * Sends a form to /api/send-notification, which checks the bot-check token, stores the row and tells the
 * publisher. The answer says which message the visitor sees.
 */
import { postJson } from '@/lib/post-json';
import type { NotificationRequest } from './notification';

const SUBMIT_PATH = '/api/send-notification';

/**
 * stored: 200 (for a sign-up: whatever the address, new or already on the list, so the answer tells a stranger
 * nothing); refused: 403 (the bot-check failed); rejected: another 4xx whose message the visitor can act on (a book
 * that can be bought now, or is not in the shop); failed: anything else.
 */
type SubmitOutcome = 'stored' | 'refused' | 'rejected' | 'failed';

export interface SubmitAnswer {
  outcome: SubmitOutcome;
  /** The server's own words, for a rejection. */
  message?: string;
}

export async function submitForm(body: NotificationRequest): Promise<SubmitAnswer> {
  try {
    const answer = await postJson(SUBMIT_PATH, body);
    if (answer.ok) return { outcome: 'stored' };
    if (answer.status === 403) return { outcome: 'refused' };
    const message = typeof answer.body.error === 'string' ? answer.body.error : undefined;
    if ((answer.status === 404 || answer.status === 422) && message) return { outcome: 'rejected', message };
    console.error(`[${body.type}] ${answer.status} ${JSON.stringify(answer.body)}`);
    return { outcome: 'failed' };
  } catch (error) {
    console.error(`[${body.type}] The request failed.`, error);
    return { outcome: 'failed' };
  }
}

/**
 * The value of a named field as it is now: read from the form itself, so what a visitor typed before the
 * page's script woke up is sent too.
 */
export function fieldValue(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value.trim() : '';
}
