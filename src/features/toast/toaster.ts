/**
 * The toasts, drawn without React from the toast store: one at a time (the store keeps one), each for 5 s,
 * paused while pointed at or focused; × or a swipe right past 50 px closes it, F8 reaches them from the
 * keyboard. Where it sits (placeToasts): at the top, just under the sticky header (at the left from 640 px) and
 * the page's heading, tabs and open record's head, so never over the header's menu and cart buttons nor over where the person is; at
 * the bottom instead when there it would cover what the person is working in. While the cart drawer is open none
 * shows on the page: a toast would cover part of it on a phone, so the drawer shows the newest in its own flow,
 * drawn by the same `toastBody`, and what it showed is gone when it closes (drawer.ts). The mobile menu is a modal
 * dialog in the top layer, above any toast.
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

/** Fields a person types or chooses in: moving into one of them while a toast shows moves the toast off it. */
const FIELD = 'input, textarea, select, [contenteditable="true"]';

type Box = Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right'>;
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** What a toast must leave in sight: the page's heading and its tabs (the back office's sections), and the open record's head (an order's number and actions). */
const PAGE_TOP = 'main h1, main nav, main article > header';

/**
 * Puts the stack at the top, under the header (whose bottom moves while the page scrolls past the banners above
 * it) and under what `PAGE_TOP` names while it shows, unless it would cover `subject` there or not fit: then at
 * the bottom, unless that covers what `PAGE_TOP` names or `subject` (a phone's record with its actions low in the
 * window): then just under the header, over the heading rather than the control in use. Each place is tried first
 * clear of the whole form `subject` is in, then clear of `subject` alone. The top is the default
 * because a toast usually follows a press, and what the press changed (a list, the figures, the field with the
 * error) is below it or where the person already looks; the bottom edge of a phone is where a form's next field or
 * a panel's figures are. `subject` is what the person is working in: the field they are in, else the control that
 * raised the toast.
 */
export function placeToasts(list: HTMLElement, subject: Element | null, header: Element | null = document.querySelector('body > header')): void {
  const headerBottom = Math.max(0, header?.getBoundingClientRect().bottom ?? 0);
  const kept = Array.from(document.querySelectorAll(PAGE_TOP), (element) => element.getBoundingClientRect()).filter((box) => box.bottom > headerBottom && box.top < window.innerHeight);
  const first = list.firstElementChild as HTMLElement | null;
  const last = list.lastElementChild as HTMLElement | null;
  const places = [`${Math.max(headerBottom, ...kept.map((box) => box.bottom))}px`, 'bottom', `${headerBottom}px`];
  // A form's button raised it: the form's fields are in use too (a note just saved), unless no place clears the form.
  const used = subject ? [subject, subject.closest('form') ?? subject].map((box) => box.getBoundingClientRect()) : [];
  for (const around of [used, used.slice(0, 1)])
    for (const [index, place] of places.entries()) {
      list.style.top = place === 'bottom' ? 'auto' : place;
      list.style.bottom = place === 'bottom' ? '0px' : 'auto';
      if (!first || !last) return;
      // The toasts' own boxes, not the list's padding around them; by offsets, since a toast sliding in is moved
      // sideways by a transform its final place does not have.
      const at = list.getBoundingClientRect();
      const toasts = { top: at.top + first.offsetTop, bottom: at.top + last.offsetTop + last.offsetHeight, left: at.left + first.offsetLeft, right: at.left + first.offsetLeft + first.offsetWidth };
      const covers = [...(index === 1 ? kept : []), ...around].some((box) => overlaps(toasts, box));
      if (toasts.bottom <= window.innerHeight && !covers) return;
    }
  list.style.top = 'auto';
  list.style.bottom = '0px';
}

/** Draws the toast store into `container` from now on. */
export function startToaster(container: HTMLElement): void {
  const region = element('section', '');
  region.setAttribute('aria-label', `Notifications (${TOAST.hotkey})`);
  const list = element('div', 'pointer-events-none fixed right-0 z-[100] m-0 flex w-full max-w-sm flex-col gap-2 p-4 outline-none sm:right-auto sm:left-0');
  list.tabIndex = -1;
  region.append(list);
  container.append(region);
  const shown = new Map<number, HTMLDivElement>();

  // What raised the toasts on show: the focused control, else the one last pressed (Safari does not focus a
  // pressed button). Kept while any toast shows, so a later scroll or field still keeps it uncovered.
  let pressed: Element | null = null;
  let trigger: Element | null = null;
  document.addEventListener(
    'pointerdown',
    (event) => {
      if (!list.contains(event.target as Node)) pressed = event.target as Element;
    },
    true,
  );
  const focused = () => {
    const active = document.activeElement;
    return active && active !== document.body && !list.contains(active) ? active : null;
  };
  const subject = () => {
    const active = focused();
    if (active?.matches(FIELD)) return active;
    return trigger?.isConnected ? trigger : null;
  };
  let frame = 0;
  const place = () => {
    if (frame || shown.size === 0) return;
    frame = window.requestAnimationFrame(() => {
      frame = 0;
      placeToasts(list, subject());
    });
  };

  const draw = () => {
    const toasts = $drawerOpen.get() ? [] : $toasts.get();
    for (const [id, item] of shown) {
      if (toasts.some((t) => t.id === id)) continue;
      item.remove();
      shown.delete(id);
    }
    if (shown.size === 0) trigger = null;
    for (const message of toasts) {
      const item = shown.get(message.id) ?? drawToast(message);
      if (!shown.has(message.id)) {
        shown.set(message.id, item);
        list.append(item);
        trigger = focused() ?? (pressed?.isConnected ? pressed : null);
        placeToasts(list, subject());
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
  // Placed again after the move has scrolled the page (a focused field is scrolled into view after focusin).
  document.addEventListener('focusin', place);
  window.addEventListener('scroll', place, { passive: true });
  window.addEventListener('resize', place);
  // And as the page's content is drawn (the back office's heading and tabs appear after the sign-in's toast).
  new MutationObserver(place).observe(document.querySelector('main') ?? document.body, { childList: true, subtree: true });
  document.addEventListener('keydown', (event) => {
    if (event.key === TOAST.hotkey) list.focus();
  });
}
