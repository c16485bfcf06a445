/**
 * Sends a form to /api/send-notification, which checks the bot-check token, stores the row and tells the
 * publisher. The answer says which message the visitor sees.
 */
import type { NotificationRequest } from './notification';

export const SUBMIT_PATH = '/api/send-notification';

/** stored: 200; duplicate: 409 (already subscribed); refused: 403 (the bot-check failed); failed: anything else. */
export type SubmitOutcome = 'stored' | 'duplicate' | 'refused' | 'failed';

export async function submitForm(body: NotificationRequest, fetchImpl: typeof fetch = fetch): Promise<SubmitOutcome> {
  try {
    const response = await fetchImpl(SUBMIT_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.ok) return 'stored';
    if (response.status === 409) return 'duplicate';
    if (response.status === 403) return 'refused';
    const detail = await response.text().catch(() => '');
    console.error(`[${body.type}] ${response.status} ${detail}`.trim());
    return 'failed';
  } catch (error) {
    console.error(`[${body.type}] The request failed.`, error);
    return 'failed';
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
