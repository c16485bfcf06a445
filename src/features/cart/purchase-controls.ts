/**
 * The purchase controls without React: Add to Cart, Buy Now, the quantity field and its − and + buttons, and
 * Add to Wishlist's sign-in prompt work from this small script on the pre-rendered markup, writing to the same
 * cart store the islands use and opening the drawer (drawer.ts) in the same task as the tap. React is not
 * fetched for them at all; an island hydrates only when it has something to draw (a live price that differs,
 * a signed-in visitor's wishlist, a search), and from then on its own handlers answer.
 *
 * The markup says what is what: a `data-purchase-scope` element carries the product as the build drew it
 * (`data-product`, JSON), and its controls carry `data-purchase` = add | buy | wishlist | quantity | decrease
 * | increase | stock-note (an add button may carry its own `data-added-message`). Price and stock are the live
 * ones once the live read has arrived (live-catalog.ts), else the build's; the quantity stops at the stock, with
 * "Only N left" in the stock note, as the island's field does (the rule is cart.ts's).
 */
import { hasSavedSession } from '@/lib/supabase/client';
import { arrivedLiveProduct } from '@/features/catalog/live-catalog';
import { askToSignInForWishlist } from '@/features/wishlist/sign-in-prompt';
import { addedMessage, addWithFeedback, buyNow } from './actions';
import { quantityLineText, quoteQuantity, quoteRequestPath } from '@/features/catalog/quantity-prices';
import { quantityLimit, stockLimitNote, toQuantity, type CartProduct } from './cart';
import { startCartDrawer } from './drawer';

export const PURCHASE_ATTRIBUTE = 'data-purchase';
export const SCOPE_ATTRIBUTE = 'data-purchase-scope';

type Action = 'add' | 'buy' | 'wishlist' | 'quantity' | 'decrease' | 'increase';

/** The product a scope shows, with the live price and stock when they have arrived (stock 0 when no longer for sale). */
export function productOf(scope: Element): CartProduct | null {
  try {
    const built = JSON.parse(scope.getAttribute('data-product') ?? '') as CartProduct;
    if (typeof built?.id !== 'string') return null;
    const live = arrivedLiveProduct(built.id);
    if (live === undefined) return built;
    return live === null ? { ...built, stock: 0 } : { ...built, price: live.price, stock: live.stock };
  } catch {
    return null;
  }
}

/** Not yet hydrated: Astro takes the `ssr` mark off an island once React has it. */
const stillStatic = (control: Element) => control.closest('astro-island')?.hasAttribute('ssr') ?? false;

function quantityField(scope: Element): HTMLInputElement | null {
  return scope.querySelector<HTMLInputElement>(`input[${PURCHASE_ATTRIBUTE}="quantity"]`);
}

/** The most copies the scope's product can take now (its live stock when it has arrived). */
const limitOf = (scope: Element) => quantityLimit(productOf(scope)?.stock);

/** Shows a quantity in the field and tells the island's hand-over (the intent directive keeps typed values). */
function showQuantity(scope: Element, quantity: number): void {
  const field = quantityField(scope);
  if (!field) return;
  field.value = String(quantity);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  drawQuantity(scope, field, quantity);
}

/** What follows the quantity shown: − and + at their ends, the stock note, and the price of that many copies. */
function drawQuantity(scope: Element, field: HTMLInputElement, quantity: number): void {
  const stock = productOf(scope)?.stock;
  const decrease = scope.querySelector<HTMLButtonElement>(`[${PURCHASE_ATTRIBUTE}="decrease"]`);
  if (decrease) decrease.disabled = field.disabled || quantity <= 1;
  const increase = scope.querySelector<HTMLButtonElement>(`[${PURCHASE_ATTRIBUTE}="increase"]`);
  if (increase) increase.disabled = field.disabled || quantity >= quantityLimit(stock);
  const note = scope.querySelector(`[${PURCHASE_ATTRIBUTE}="stock-note"]`);
  if (note) note.textContent = field.disabled ? '' : (stockLimitNote(quantity, stock) ?? '');
  const product = productOf(scope);
  const price = scope.querySelector(`[${PURCHASE_ATTRIBUTE}="line-price"]`);
  if (price && product) price.textContent = field.disabled ? '' : (quantityLineText(product.price, product.quantityPrices, quantity) ?? '');
}

/** More copies typed than one order takes: the stock note becomes a link to ask a quote for that many, as the island's does. */
function offerQuote(scope: Element, typed: number): void {
  const product = productOf(scope);
  const note = scope.querySelector(`[${PURCHASE_ATTRIBUTE}="stock-note"]`);
  const over = product ? quoteQuantity(typed, quantityLimit(product.stock)) : null;
  if (!note || !product || over === null) return;
  const link = document.createElement('a');
  link.href = quoteRequestPath(product.title, over);
  link.className = 'text-navy underline underline-offset-4';
  link.setAttribute(PURCHASE_ATTRIBUTE, 'quote');
  link.textContent = `Request a quote for ${over} copies`;
  note.replaceChildren(link);
}

function act(action: Action, control: HTMLElement, scope: Element): boolean {
  const product = productOf(scope);
  if (!product) return false;
  const field = quantityField(scope);
  const quantity = field ? toQuantity(field.value, quantityLimit(product.stock)) : 1;
  switch (action) {
    case 'add':
      addWithFeedback(product, quantity, control.getAttribute('data-added-message') ?? addedMessage(quantity));
      return true;
    case 'buy':
      buyNow(product, quantity);
      return true;
    case 'decrease':
      showQuantity(scope, Math.max(1, quantity - 1));
      return true;
    case 'increase':
      showQuantity(scope, Math.min(quantityLimit(product.stock), quantity + 1));
      return true;
    case 'wishlist':
      // A saved session needs the island (the wishlist itself): it hydrates and takes the click.
      if (hasSavedSession()) return false;
      askToSignInForWishlist({ productId: product.id, title: product.title });
      return true;
    default:
      return false;
  }
}

function onClick(event: MouseEvent): void {
  const control = event.target instanceof Element ? event.target.closest<HTMLElement>(`[${PURCHASE_ATTRIBUTE}]`) : null;
  if (!control || control.matches(':disabled') || !stillStatic(control)) return;
  const scope = control.closest(`[${SCOPE_ATTRIBUTE}]`);
  const action = control.getAttribute(PURCHASE_ATTRIBUTE) as Action;
  if (!scope || action === 'quantity') return;
  if (!act(action, control, scope)) return;
  // Answered here: the island's hand-over leaves a click whose default was prevented alone.
  event.preventDefault();
}

/**
 * A quantity typed before React, as the island's field takes it: digits only as they are typed (an emptied
 * field stays empty), text with no digit at all is 1, and anything left that is not a quantity becomes 1 on
 * leaving the field or Enter.
 */
function typed(event: Event): void {
  const field = event.target;
  if (!(field instanceof HTMLInputElement) || field.getAttribute(PURCHASE_ATTRIBUTE) !== 'quantity' || !stillStatic(field)) return;
  const digits = field.value.replace(/\D/g, '');
  if (digits !== field.value) field.value = digits === '' ? '1' : digits;
  // Typed past the stock: the field shows the stock at once, with its note.
  const scope = field.closest(`[${SCOPE_ATTRIBUTE}]`);
  if (!scope || field.value === '') return;
  const typedNumber = Number(field.value);
  // Showing the limit types into the field again (its input event), which then draws it.
  if (typedNumber > limitOf(scope)) showQuantity(scope, limitOf(scope));
  else drawQuantity(scope, field, toQuantity(field.value, limitOf(scope)));
  offerQuote(scope, typedNumber);
}

function settle(event: Event): void {
  const field = event.target;
  if (!(field instanceof HTMLInputElement) || field.getAttribute(PURCHASE_ATTRIBUTE) !== 'quantity' || !stillStatic(field)) return;
  if (event instanceof KeyboardEvent && event.key !== 'Enter') return;
  const scope = field.closest(`[${SCOPE_ATTRIBUTE}]`);
  if (!scope) return;
  const quantity = toQuantity(field.value, limitOf(scope));
  if (String(quantity) !== field.value) showQuantity(scope, quantity);
}

let started = false;

/** Starts the controls for the whole page (once), and the drawer they open. */
export function startPurchaseControls(): void {
  if (started) return;
  started = true;
  startCartDrawer();
  document.addEventListener('click', onClick, true);
  document.addEventListener('input', typed, true);
  document.addEventListener('focusout', settle, true);
  document.addEventListener('keydown', settle, true);
}
