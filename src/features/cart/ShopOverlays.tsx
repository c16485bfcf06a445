/**
 * The layout's overlays: the cart drawer and the toasts. Each is loaded only when first needed, so pages
 * where nobody adds to the cart or sees a toast never download them.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { $drawerOpen } from './store';
import { $toasts } from '@/features/toast/store';
import { showFlashToast } from '@/features/toast/flash';

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
  useEffect(() => showFlashToast(), []);
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
