/**
 * The toasts, drawn without React from the toast store: one at a time (the store keeps one), each for 5 s,
 * paused while pointed at or focused; × or a swipe right past 50 px closes it, F8 reaches them from the
 * keyboard. At the bottom (bottom-left from 640 px), never over the header's menu and cart buttons. While the
 * cart drawer is open none shows on the page: a toast would cover part of it on a phone, so the drawer shows the
 * newest in its own flow, drawn by the same `toastBody`, and what it showed is gone when it closes (drawer.ts).
 * The mobile menu is a modal dialog in the top layer, above any toast.
 */
import { TIMINGS, TOAST } from '@/config/constants';
import { $drawerOpen } from '@/features/cart/store';
import { $toasts, dismissToast, removeToast, type ToastMessage } from './store';
import { VARIANT_STYLES } from './variants';

/** Time for the closing animation before the toast leaves the store. */
const EXIT_MS = 200;

/** An element with its classes and text, for the overlays drawn without React (this and the cart drawer). */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A message's words and its action: on the page as a toast, in the cart drawer as its notice. */
export function toastBody(message: ToastMessage, place: 'page' | 'drawer'): HTMLElement {
  if (place === 'drawer') {
    const line = element('p', `rounded-lg border-l-4 px-3 py-2 text-sm font-semibold text-slate-900 ring-1 ring-slate-200 ${VARIANT_STYLES[message.variant]}`, message.title);
    if (message.action) {
      const link = element('a', 'ml-2 font-semibold text-navy underline', message.action.label);
      link.href = message.action.href;
      line.append(link);
    }
    return line;
  }
  const text = element('div', 'flex-1');
  text.append(element('p', 'font-semibold text-slate-900', message.title));
  if (message.description) text.append(element('p', 'mt-1 text-sm text-slate-700', message.description));
  return text;
}

function drawToast(message: ToastMessage): HTMLDivElement {
  const item = element('div', `toast-root pointer-events-auto flex w-full touch-pan-y items-start gap-3 rounded-xl border-l-4 p-4 shadow-lg ring-1 ring-slate-200 ${VARIANT_STYLES[message.variant]}`);
  item.setAttribute('role', message.variant === 'error' ? 'alert' : 'status');
  item.setAttribute('aria-atomic', 'true');
  item.tabIndex = 0;
  item.dataset.state = 'open';
  item.append(toastBody(message, 'page'));
  if (message.action) {
    const action = element('a', 'btn-primary px-3 py-1 text-sm', message.action.label);
    action.href = message.action.href;
    item.append(action);
  }
  const close = element('button', 'rounded-full px-2 text-lg leading-none text-slate-600 hover:bg-slate-100');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.innerHTML = '<span aria-hidden="true">×</span>';
  close.addEventListener('click', () => dismissToast(message.id));
  item.append(close);

  // Shown for its time, the clock stopped while the visitor points at it or is in it.
  let left = TIMINGS.toastDurationMs;
  let since = 0;
  let timer: number | undefined;
  const run = () => {
    since = Date.now();
    timer = window.setTimeout(() => dismissToast(message.id), left);
  };
  const pause = () => {
    if (timer === undefined) return;
    window.clearTimeout(timer);
    timer = undefined;
    left -= Date.now() - since;
  };
  item.addEventListener('pointerenter', pause);
  item.addEventListener('focusin', pause);
  item.addEventListener('pointerleave', () => item.contains(document.activeElement) || run());
  item.addEventListener('focusout', (event) => item.contains(event.relatedTarget as Node | null) || run());
  run();

  // Swiped right past the threshold: gone; less: back in place.
  let startX: number | null = null;
  item.addEventListener('pointerdown', (event) => {
    if (!(event.target as Element).closest('a, button')) startX = event.clientX;
  });
  item.addEventListener('pointermove', (event) => {
    if (startX === null) return;
    const moved = Math.max(0, event.clientX - startX);
    item.dataset.swipe = 'move';
    item.style.setProperty('--toast-swipe-x', `${moved}px`);
  });
  const release = (event: PointerEvent) => {
    if (startX === null) return;
    const moved = event.clientX - startX;
    startX = null;
    item.dataset.swipe = moved > TOAST.swipeThresholdPx ? 'end' : 'cancel';
    if (moved > TOAST.swipeThresholdPx) dismissToast(message.id);
  };
  item.addEventListener('pointerup', release);
  item.addEventListener('pointercancel', release);
  return item;
}

/** Draws the toast store into `container` from now on. */
export function startToaster(container: HTMLElement): void {
  const region = element('section', '');
  region.setAttribute('aria-label', `Notifications (${TOAST.hotkey})`);
  const list = element('div', 'fixed bottom-0 right-0 z-[100] m-0 flex w-full max-w-sm flex-col gap-2 p-4 outline-none sm:right-auto sm:left-0');
  list.tabIndex = -1;
  region.append(list);
  container.append(region);
  const shown = new Map<number, HTMLDivElement>();

  const draw = () => {
    const toasts = $drawerOpen.get() ? [] : $toasts.get();
    for (const [id, item] of shown) {
      if (toasts.some((t) => t.id === id)) continue;
      item.remove();
      shown.delete(id);
    }
    for (const message of toasts) {
      const item = shown.get(message.id) ?? drawToast(message);
      if (!shown.has(message.id)) {
        shown.set(message.id, item);
        list.append(item);
      }
      if (!message.open && item.dataset.state === 'open') {
        item.dataset.state = 'closed';
        window.setTimeout(() => removeToast(message.id), EXIT_MS);
      }
    }
  };
  $toasts.listen(draw);
  $drawerOpen.listen(draw);
  draw();
  document.addEventListener('keydown', (event) => {
    if (event.key === TOAST.hotkey) list.focus();
  });
}
