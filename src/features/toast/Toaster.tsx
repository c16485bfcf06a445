/**
 * Shows the toast store with Radix Toast: one at a time, 5 s, paused while hovered or focused,
 * swipe right past 50 px to close, F8 to reach the region from the keyboard.
 */
import * as Toast from '@radix-ui/react-toast';
import { useStore } from '@nanostores/react';
import { TIMINGS, TOAST } from '@/config/constants';
import { $toasts, dismissToast, removeToast } from './store';
import { VARIANT_STYLES } from './variants';
import { $drawerOpen } from '@/features/cart/store';

/**
 * Where toasts appear. Never over the header's menu and cart buttons: at the bottom (bottom-left from
 * 640 px). While the cart drawer is open a toast would cover part of it on a phone, so none is shown here:
 * the drawer shows the newest in its own flow, and what it showed is gone when it closes (drawer.ts). The
 * mobile menu is a modal dialog in the top layer, above any toast.
 */
const CORNER = 'bottom-0 right-0 sm:right-auto sm:left-0';

export default function Toaster() {
  const toasts = useStore($toasts);
  const drawerOpen = useStore($drawerOpen);
  return (
    <Toast.Provider duration={TIMINGS.toastDurationMs} swipeDirection="right" swipeThreshold={TOAST.swipeThresholdPx} label="Notification">
      {(drawerOpen ? [] : toasts).map((t) => (
        <Toast.Root
          key={t.id}
          open={t.open}
          type={t.variant === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) {
              dismissToast(t.id);
              // Leave time for the exit animation before the toast leaves the store.
              window.setTimeout(() => removeToast(t.id), 200);
            }
          }}
          className={`toast-root pointer-events-auto flex w-full items-start gap-3 rounded-xl border-l-4 p-4 shadow-lg ring-1 ring-slate-200 ${VARIANT_STYLES[t.variant]}`}
        >
          <div className="flex-1">
            <Toast.Title className="font-semibold text-slate-900">{t.title}</Toast.Title>
            {t.description && <Toast.Description className="mt-1 text-sm text-slate-700">{t.description}</Toast.Description>}
          </div>
          {t.action && (
            <Toast.Action altText={t.action.label} asChild>
              <a href={t.action.href} className="btn-primary px-3 py-1 text-sm">
                {t.action.label}
              </a>
            </Toast.Action>
          )}
          <Toast.Close className="rounded-full px-2 text-lg leading-none text-slate-600 hover:bg-slate-100" aria-label="Close">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport hotkey={[TOAST.hotkey]} className={`fixed z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none ${CORNER}`} />
    </Toast.Provider>
  );
}
