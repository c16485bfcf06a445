/**
 * A toast that survives one navigation: set before redirecting, shown by the next page. Sign-in and
 * sign-out redirect straight after their success message.
 */
import { toast, type ToastMessage } from './store';

const KEY = 'flashToast';

export function flashToast(message: Pick<ToastMessage, 'title'> & Partial<Pick<ToastMessage, 'description' | 'variant'>>): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(message));
  } catch {
    // Without session storage the message is simply not carried over.
  }
}

export function showFlashToast(): void {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return;
    sessionStorage.removeItem(KEY);
    const message = JSON.parse(raw) as { title?: unknown; description?: unknown; variant?: unknown };
    if (typeof message.title !== 'string') return;
    toast({
      title: message.title,
      description: typeof message.description === 'string' ? message.description : undefined,
      variant: message.variant === 'error' || message.variant === 'info' ? message.variant : 'success',
    });
  } catch {
    // An unreadable flash message is dropped.
  }
}
