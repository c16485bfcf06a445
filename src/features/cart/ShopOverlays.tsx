/**
 * The layout's overlays: the cart drawer and the toasts, each loaded when first needed (a page mounts this
 * on its first add or toast: overlays.ts).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { $drawerOpen } from './store';
import { $toasts } from '@/features/toast/store';

const CartDrawer = lazy(() => import('./CartDrawer'));
const Toaster = lazy(() => import('@/features/toast/Toaster'));

function useOnceTrue(subscribe: (cb: () => void) => () => void, check: () => boolean): boolean {
  const [seen, setSeen] = useState(check);
  useEffect(() => {
    if (seen) return;
    return subscribe(() => check() && setSeen(true));
  }, [seen]);
  return seen;
}

export default function ShopOverlays() {
  const drawerNeeded = useOnceTrue(
    (cb) => $drawerOpen.subscribe(cb),
    () => $drawerOpen.get(),
  );
  const toastsNeeded = useOnceTrue(
    (cb) => $toasts.subscribe(cb),
    () => $toasts.get().length > 0,
  );
  return (
    <Suspense fallback={null}>
      {drawerNeeded && <CartDrawer />}
      {toastsNeeded && <Toaster />}
    </Suspense>
  );
}
