/**
 * Tells the publisher about a new subscriber or message through /api/send-notification.
 * The row is already stored when this runs, so a failure here is only logged (spec section 7).
 */
import type { NotificationRequest } from './notification';

export const NOTIFICATION_PATH = '/api/send-notification';

export async function sendNotification(body: NotificationRequest, fetchImpl: typeof fetch = fetch): Promise<void> {
  try {
    const response = await fetchImpl(NOTIFICATION_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      keepalive: true,
    });
    if (!response.ok) {
      const detail = await response.text().catch(() => '');
      console.error(`[send-notification] ${response.status} ${detail}`.trim());
    }
  } catch (error) {
    console.error('[send-notification] The notification request failed.', error);
  }
}
