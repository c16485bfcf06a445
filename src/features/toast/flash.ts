/**
 * A toast that survives one navigation: set before redirecting, shown by the next page. Sign-in and
 * sign-out redirect straight after their success message.
 */
import { toast, type ToastMessage } from './store';

const KEY = 'flashToast';

type FlashMessage = Pick<ToastMessage, 'title'> & Partial<Pick<ToastMessage, 'description' | 'variant'>>;

/** Stores the message for the next page and goes there. */
export function redirectWithToast(path: string, message: FlashMessage, { replace = false } = {}): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...message, setAt: Date.now() }));
  } catch {
    // Without session storage the message is simply not carried over.
  }
  if (replace) window.location.replace(path);
  else window.location.assign(path);
}

/** The tab's session storage, or null where the browser blocks it (reading the property then throws). */
function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Shows the stored message, once. A page loaded before the message was stored leaves it alone: the
 * page that is redirecting may still be hydrating its overlays when it stores it.
 */
export function showFlashToast(storage: Storage | null = sessionStore(), pageLoadedAt: number = performance.timeOrigin): void {
  const raw = storage?.getItem(KEY);
  if (!storage || !raw) return;
  try {
    const message = JSON.parse(raw) as { title?: unknown; description?: unknown; variant?: unknown; setAt?: unknown };
    if (typeof message.setAt === 'number' && message.setAt >= pageLoadedAt) return;
    storage.removeItem(KEY);
    if (typeof message.title !== 'string') return;
    toast({
      title: message.title,
      description: typeof message.description === 'string' ? message.description : undefined,
      variant: message.variant === 'error' || message.variant === 'info' ? message.variant : 'success',
    });
  } catch {
    // An unreadable flash message is dropped.
    storage.removeItem(KEY);
  }
}
