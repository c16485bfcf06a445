/**
 * The cart drawer that slides in from the right after every add — the item just added, a few others, the
 * total, and the newest message in its own flow — drawn without React: a native modal <dialog> (focus kept
 * inside, Escape and a tap outside close it, the page behind inert) filled from the cart store. It opens in
 * the same task as the tap that added, so the shopper sees it on the next frame.
 *
 * While it is open no toast is shown over it: the newest one shows inside it, and every message raised while
 * it was open goes when it closes (the toaster, toaster.ts, shows them only while the drawer is closed).
 */
import { LIMITS } from '@/config/constants';
import { formatPrice } from '@/lib/format';
import { $toasts, removeToast } from '@/features/toast/store';
import { element, toastBody } from '@/features/toast/toaster';
import { copiesAvailable } from '@/features/catalog/product';
import { shipsOnceText } from '@/features/catalog/preorder-text';
import { awaitedPreorder, linePrice, stockLimitNote } from './cart';
import { lineNoteElement, lineNotes } from './line-notes';
import { $cartLines, $drawerOpen, $itemCount, $lastAdded, $quantitySaving, $subtotal, closeDrawer } from './store';

const TITLE_ID = 'cart-drawer-title';
const CLOSE_ICON = '<svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><path d="M6 6l12 12M18 6 6 18"/></svg>';

const MARKUP = `
<div class="flex items-center justify-between border-b border-slate-200 px-5 py-4">
  <h2 id="${TITLE_ID}" class="font-display text-xl font-bold text-navy">Item added to your cart</h2>
  <button type="button" class="rounded-full p-2 text-navy hover:bg-sky" aria-label="Close cart" data-drawer-close>${CLOSE_ICON}</button>
</div>
<div role="status" class="px-5 pt-3 empty:hidden" data-drawer-notice></div>
<div class="flex-1 overflow-y-auto px-5 py-4" data-drawer-items></div>
<div class="space-y-3 border-t border-slate-200 px-5 py-4">
  <p class="text-sm font-semibold text-emerald-800 empty:hidden" data-drawer-saving></p>
  <p class="flex justify-between text-lg font-bold text-navy"><span>Total</span><span data-drawer-total></span></p>
  <a href="/cart" class="btn-secondary w-full" data-drawer-leave data-drawer-count>View my cart</a>
  <a href="/checkout" class="btn-primary w-full" data-drawer-leave>Check out</a>
  <button type="button" class="w-full py-2 font-semibold text-navy underline underline-offset-4" data-drawer-close>Continue shopping</button>
</div>`;

function part<T extends Element = HTMLElement>(root: ParentNode, name: string): T {
  return root.querySelector(`[data-drawer-${name}]`) as T;
}

function renderItems(container: HTMLElement): void {
  const lastAdded = $lastAdded.get();
  const lines = $cartLines.get();
  const others = lines.filter((line) => line.product.id !== lastAdded?.id).slice(0, LIMITS.drawerOtherLines);
  const parts: HTMLElement[] = [];
  if (lastAdded) {
    const row = element('div', 'flex gap-4');
    const image = element('img', 'h-24 w-24 rounded-lg object-cover ring-1 ring-slate-200');
    Object.assign(image, { src: lastAdded.imageUrl, alt: '', width: 96, height: 96 });
    const text = element('div', '');
    // The line just added, at the price its quantity reaches (a quantity price says which, and what it saves).
    const line = lines.find((l) => l.product.id === lastAdded.id);
    const priced = line ? linePrice(line) : null;
    text.append(element('p', 'font-semibold text-slate-900', lastAdded.title));
    if (line && priced && line.quantity > 1) {
      text.append(element('p', 'mt-1 text-navy', `${line.quantity} × ${formatPrice(priced.unitPrice)} = ${formatPrice(priced.lineTotal)}`));
    } else text.append(element('p', 'mt-1 text-navy', formatPrice(priced?.unitPrice ?? lastAdded.price)));
    // As under the line on the cart page: a pre-order and when it ships, the quantity price, a quote.
    if (line) text.append(...lineNotes(line).map((note) => lineNoteElement(note, 'mt-1')));
    // The add stopped at the stock (cart.ts's rule): say so, as the quantity field does.
    const stockNote = line ? stockLimitNote(line.quantity, copiesAvailable(line.product)) : null;
    if (stockNote) text.append(element('p', 'mt-1 text-sm font-semibold text-amber-900', stockNote));
    row.append(image, text);
    parts.push(row);
  }
  if (others.length > 0) {
    const section = element('div', 'mt-6 border-t border-slate-200 pt-4');
    const list = element('ul', 'mt-2 space-y-2 text-sm');
    for (const line of others) {
      const item = element('li', 'flex justify-between gap-3');
      const name = element('span', '', `${line.product.title} `);
      name.append(element('span', 'text-slate-600', `× ${line.quantity}`));
      // Which of the others are pre-orders, and when they ship.
      name.append(
        ...lineNotes(line)
          .filter((note) => note.kind === 'preorder')
          .map((note) => lineNoteElement(note)),
      );
      item.append(name, element('span', 'font-semibold', formatPrice(linePrice(line).lineTotal)));
      list.append(item);
    }
    section.append(element('h3', 'text-sm font-semibold tracking-wide text-slate-600 uppercase', 'Also in your cart'), list);
    parts.push(section);
  }
  // A pre-order with other books: the books in stock wait for it, said here as on the cart page, before Check out.
  const awaited = lines.length > 1 ? awaitedPreorder(lines) : null;
  if (awaited) {
    const notice = element('p', 'mt-6 rounded-xl bg-sky/60 p-4 text-sm font-semibold text-navy ring-1 ring-sky', shipsOnceText(awaited.title, awaited.releaseDate, true));
    notice.dataset.testid = 'preorder-notice';
    parts.push(notice);
  }
  container.replaceChildren(...parts);
}

function renderNotice(container: HTMLElement): void {
  const latest = $toasts.get().find((t) => t.open);
  container.replaceChildren(...(latest ? [toastBody(latest, 'drawer')] : []));
}

let dialog: HTMLDialogElement | undefined;

function create(): HTMLDialogElement {
  const el = document.createElement('dialog');
  el.className = 'cart-drawer m-0 ms-auto h-full max-h-none w-full max-w-md flex-col bg-white p-0 shadow-2xl backdrop:bg-navy/40 open:flex focus:outline-none';
  el.setAttribute('aria-labelledby', TITLE_ID);
  el.dataset.cartDrawer = '';
  el.innerHTML = MARKUP;
  for (const button of el.querySelectorAll('[data-drawer-close], [data-drawer-leave]')) button.addEventListener('click', closeDrawer);
  // A tap on the backdrop lands on the dialog itself, outside its box.
  el.addEventListener('click', (event) => {
    if (event.target !== el) return;
    const box = el.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) closeDrawer();
  });
  // Escape, or the browser closing it: the store follows.
  el.addEventListener('close', closeDrawer);
  document.body.append(el);
  return el;
}

function render(el: HTMLDialogElement): void {
  renderItems(part(el, 'items'));
  part(el, 'total').textContent = formatPrice($subtotal.get());
  const saving = $quantitySaving.get();
  part(el, 'saving').textContent = saving > 0 ? `Quantity prices save you ${formatPrice(saving)}` : '';
  part(el, 'count').textContent = `View my cart (${$itemCount.get()})`;
  renderNotice(part(el, 'notice'));
}

/** Messages raised while the drawer is open are its own, and go when it closes. */
const shownInDrawer = new Set<number>();
let started = false;

/** Connects the drawer to the cart store (once): it opens whenever the store says so. */
export function startCartDrawer(): void {
  if (started) return;
  started = true;
  $drawerOpen.subscribe((open) => {
    if (open) {
      for (const t of $toasts.get()) shownInDrawer.add(t.id);
      dialog ??= create();
      render(dialog);
      if (!dialog.open) {
        dialog.showModal();
        document.documentElement.style.overflow = 'hidden';
      }
      return;
    }
    if (dialog?.open) dialog.close();
    document.documentElement.style.removeProperty('overflow');
    for (const id of shownInDrawer) removeToast(id);
    shownInDrawer.clear();
  });
  const refresh = () => dialog?.open && render(dialog);
  $cartLines.listen(refresh);
  $toasts.listen(() => {
    if ($drawerOpen.get()) for (const t of $toasts.get()) shownInDrawer.add(t.id);
    if (dialog) renderNotice(part(dialog, 'notice'));
  });
}
