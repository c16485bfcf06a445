/**
 * The layout's overlays, the cart drawer and the toasts, are mounted only when first needed: when something
 * is added to the cart, a toast is raised, or a toast was carried over from the page before. Until then a
 * page runs no React for them.
 */
import { showFlashToast } from '@/features/toast/flash';
import { $toasts } from '@/features/toast/store';
import { $drawerOpen } from './store';

const needed = () => $drawerOpen.get() || $toasts.get().length > 0;

export function mountOverlaysWhenNeeded(container: HTMLElement): void {
  const mount = () => void import('./mount-overlays').then(({ mountOverlays }) => mountOverlays(container));
  showFlashToast();
  if (needed()) {
    mount();
    return;
  }
  const check = () => {
    if (!needed()) return;
    for (const stop of stops) stop();
    mount();
  };
  const stops = [$drawerOpen.listen(check), $toasts.listen(check)];
}
