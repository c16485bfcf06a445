/**
 * The layout's overlays are mounted only when first needed: the cart drawer (drawer.ts, no React) when
 * something is added, and the toasts (toaster.ts, no React) when a message is raised while the drawer is closed or
 * one was carried over from the page before. Until then a page runs nothing for them. Their code is in the page
 * scripts' one chunk (page-chunk.ts) already, so they are imported, not fetched on demand.
 */
import { showFlashToast } from '@/features/toast/flash';
import { $toasts } from '@/features/toast/store';
import { startToaster } from '@/features/toast/toaster';
import { startCartDrawer } from './drawer';
import { $drawerOpen } from './store';

export function mountOverlaysWhenNeeded(container: HTMLElement): void {
  let drawer = false;
  let toaster = false;
  const check = () => {
    if (!drawer && $drawerOpen.get()) {
      drawer = true;
      startCartDrawer();
    }
    // After the drawer's own bookkeeping: messages it showed are gone by the time it has closed.
    if (!toaster && !$drawerOpen.get() && $toasts.get().some((t) => t.open)) {
      queueMicrotask(() => {
        if (toaster || $drawerOpen.get() || !$toasts.get().some((t) => t.open)) return;
        toaster = true;
        startToaster(container);
      });
    }
    if (drawer && toaster) for (const stop of stops) stop();
  };
  const stops = [$drawerOpen.listen(check), $toasts.listen(check)];
  check();
  // After the first paint: the tab's first read of session storage is a slow call on a slow phone (about 40 ms
  // at 4× CPU), and a message carried over from the page before is read after the page is drawn anyway.
  requestAnimationFrame(() => setTimeout(showFlashToast));
}
