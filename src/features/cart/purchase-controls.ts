/**
 * The purchase controls, written once for every page: Add to Cart, Buy Now, the quantity field and its − and +
 * buttons, Add to Wishlist, and the offer's live price and stock. The markup is drawn by the page at build (or
 * by an island that draws the same markup: the store grid, a product added since the build) and carries no
 * handler of its own; this one delegated script answers it, writing to the same cart store the islands read
 * and opening the drawer (drawer.ts) in the same task as the tap. So no page needs React for its first tap.
 *
 * The markup says what is what: a `data-purchase-scope` element carries the product as the build drew it
 * (`data-product`, JSON), and its controls carry `data-purchase` = add | buy | wishlist | quantity | decrease
 * | increase | stock-note | line-price | price | release-line (an add button may carry its own
 * `data-added-message`); `data-show-when` lists the offer states (offer-state.ts: in-stock, sold-out, preorder,
 * preorder-full) in which an element shows. A title on pre-order is added by the same `add` control, labelled
 * Pre-order. Once the live read has arrived (`$liveCatalog`), the scopes show its price, stock and pre-order
 * state; a scope with `data-not-found-view` around it gives way to that view when the read fails or the product
 * is no longer for sale. The quantity stops at the copies available (stock, or pre-order copies left), with
 * "Only N left" in the stock note (the rules are cart.ts's, as the cart page's field uses them).
 */
import { settledAuth } from '@/features/account/auth';
import { hasSavedSession } from '@/lib/supabase/client';
import { formatPrice } from '@/lib/format';
import { $liveCatalog, arrivedLiveProduct, liveCatalog } from '@/features/catalog/live-catalog';
import { canBuy, offerState, showsIn } from '@/features/catalog/offer-state';
import { releaseLine } from '@/features/catalog/preorder-text';
import { showNotFound } from '@/features/catalog/not-found-view';
import { quantityLineText, quoteQuantity, quoteRequestPath } from '@/features/catalog/quantity-prices';
import { askToSignInForWishlist } from '@/features/wishlist/sign-in-prompt';
import { toast } from '@/features/toast/store';
import { addedMessage, addWithFeedback, buyNow } from './actions';
import { lineLimit, quantityLimit, stockLimitNote, toQuantity, typedQuantity, type CartProduct } from './cart';
import { copiesAvailable } from '@/features/catalog/product';
import { startCartDrawer } from './drawer';
import { afterLoadWhenIdle } from '@/lib/idle';

const PURCHASE_ATTRIBUTE = 'data-purchase';
const SCOPE_ATTRIBUTE = 'data-purchase-scope';
const mark = (role: string) => `[${PURCHASE_ATTRIBUTE}="${role}"]`;

type Action = 'add' | 'buy' | 'wishlist' | 'decrease' | 'increase';

function builtProduct(scope: Element): CartProduct | null {
  try {
    const built = JSON.parse(scope.getAttribute('data-product') ?? '') as CartProduct;
    return typeof built?.id === 'string' ? built : null;
  } catch {
    return null;
  }
}

/**
 * The product a scope shows, with the live price, stock and pre-order state when they have arrived (nothing
 * available when no longer for sale).
 */
function productOf(scope: Element): CartProduct | null {
  const built = builtProduct(scope);
  if (!built) return null;
  const live = arrivedLiveProduct(built.id);
  if (live === undefined) return built;
  const { releaseDate: _built, preorderLeft: _left, ...rest } = built;
  if (live === null) return { ...rest, stock: 0 };
  return { ...rest, price: live.price, stock: live.stock, ...(live.releaseDate !== undefined && { releaseDate: live.releaseDate, preorderLeft: live.preorderLeft ?? 0 }) };
}

/**
 * Writes a property only when it differs: most live reads say what the build said, and an equal write still
 * makes a slow phone recompute the page's style and layout.
 */
function set<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
  if (target[key] !== value) target[key] = value;
}

const quantityField = (scope: Element) => scope.querySelector<HTMLInputElement>(`input${mark('quantity')}`);

/** The most copies a product can take now (its copies available); without one, the cart's own limit. */
const limitFor = (product: CartProduct | null) => (product ? lineLimit(product) : quantityLimit(undefined));

/** The most copies the scope's product can take now (its live copies available when they have arrived). */
const limitOf = (scope: Element) => limitFor(productOf(scope));

/** Shows a quantity in the field and what follows it. */
function showQuantity(scope: Element, quantity: number): void {
  const field = quantityField(scope);
  if (!field) return;
  field.value = String(quantity);
  drawQuantity(scope, field, quantity);
}

/** What follows the quantity shown: − and + at their ends, the stock note, and the price of that many copies. */
function drawQuantity(scope: Element, field: HTMLInputElement, quantity: number): void {
  const product = productOf(scope);
  const decrease = scope.querySelector<HTMLButtonElement>(mark('decrease'));
  if (decrease) set(decrease, 'disabled', field.disabled || quantity <= 1);
  const increase = scope.querySelector<HTMLButtonElement>(mark('increase'));
  if (increase) set(increase, 'disabled', field.disabled || quantity >= limitFor(product));
  const note = scope.querySelector(mark('stock-note'));
  if (note) set(note, 'textContent', field.disabled ? '' : (stockLimitNote(quantity, product ? copiesAvailable(product) : undefined) ?? ''));
  const price = scope.querySelector(mark('line-price'));
  if (price && product) set(price, 'textContent', field.disabled ? '' : (quantityLineText(product.price, product.quantityPrices, quantity) ?? ''));
}

/** More copies typed than one order takes: the stock note becomes a link to ask a quote for that many. */
function offerQuote(scope: Element, typed: number): void {
  const product = productOf(scope);
  const note = scope.querySelector(mark('stock-note'));
  const over = product ? quoteQuantity(typed, lineLimit(product)) : null;
  if (!note || !product || over === null) return;
  const link = document.createElement('a');
  link.href = quoteRequestPath(product.title, over);
  link.className = 'text-navy underline underline-offset-4';
  link.textContent = `Request a quote for ${over} copies`;
  note.replaceChildren(link);
}

/** Draws a scope from its product as it now stands: price, what shows in its state (stock, pre-order), the controls. */
function drawScope(scope: Element): void {
  const product = productOf(scope);
  if (!product) return;
  for (const price of scope.querySelectorAll(mark('price'))) set(price, 'textContent', formatPrice(product.price));
  const state = offerState(product);
  for (const el of scope.querySelectorAll<HTMLElement>('[data-show-when]')) set(el, 'hidden', !showsIn(el.dataset.showWhen, state));
  for (const control of scope.querySelectorAll<HTMLButtonElement | HTMLInputElement>(`${mark('add')}, ${mark('buy')}, ${mark('quantity')}`)) set(control, 'disabled', !canBuy(state));
  // The build wrote the release date from the book file; a date moved since is written again.
  const built = builtProduct(scope)?.releaseDate;
  if (product.releaseDate !== undefined && product.releaseDate !== built) {
    for (const line of scope.querySelectorAll(mark('release-line'))) set(line, 'textContent', releaseLine(product.releaseDate));
  }
  const field = quantityField(scope);
  if (!field) return;
  const quantity = toQuantity(field.value, lineLimit(product));
  if (field.value !== '' && String(quantity) !== field.value) field.value = String(quantity);
  drawQuantity(scope, field, quantity);
}

/** The live read has arrived or failed: every offer on the page follows it. */
function drawLive(): void {
  const state = $liveCatalog.get();
  if (state.status === 'pending') return;
  for (const scope of document.querySelectorAll(`[${SCOPE_ATTRIBUTE}]`)) {
    drawScope(scope);
    const id = builtProduct(scope)?.id;
    const view = scope.closest<HTMLElement>('[data-not-found-view]')?.dataset.notFoundView;
    if (!view || !id) continue;
    if (state.status === 'failed') console.error('Failed to fetch product details', state.error);
    // The copy from the build must not stay up with working buttons.
    if (state.status === 'failed' || arrivedLiveProduct(id) === null) showNotFound(view);
  }
  // The sold-out form sits beside the scope it belongs to (an island cannot be inside the offer's markup).
  for (const el of document.querySelectorAll<HTMLElement>('[data-offer-of]')) {
    const live = arrivedLiveProduct(el.dataset.offerOf ?? '');
    if (live !== undefined) set(el, 'hidden', !showsIn(el.dataset.showWhen, live ? offerState(live) : 'sold-out'));
  }
}

type WishState = 'idle' | 'adding' | 'added';

/** Draws Add to Wishlist (WishlistButton's markup) in a state. */
function drawWish(button: HTMLButtonElement, title: string, state: WishState): void {
  const added = state === 'added';
  button.disabled = state !== 'idle';
  button.querySelector('svg')?.setAttribute('fill', added ? 'currentColor' : 'none');
  if (button.hasAttribute('data-wishlist-heart')) {
    button.setAttribute('aria-pressed', String(added));
    button.setAttribute('aria-label', added ? `${title}: Added to Wishlist` : `Add ${title} to wishlist`);
    return;
  }
  const label = button.querySelector('[data-wishlist-label]');
  if (label) label.textContent = added ? 'Added to Wishlist' : state === 'adding' ? 'Adding...' : 'Add to Wishlist';
}

/** The signed-in visitor's id, once the saved session has been looked up; null signed out. */
async function signedInUser(): Promise<string | null> {
  if (!hasSavedSession()) return null;
  return (await settledAuth()).user?.id ?? null;
}

async function wish(button: HTMLButtonElement, product: CartProduct): Promise<void> {
  const userId = await signedInUser();
  if (!userId) return askToSignInForWishlist({ productId: product.id, title: product.title });
  drawWish(button, product.title, 'adding');
  try {
    const { addToWishlist } = await import('@/features/wishlist/wishlist');
    const result = await addToWishlist(userId, product.id);
    if (result === 'failed') {
      drawWish(button, product.title, 'idle');
      toast({ title: 'Failed to add to wishlist', variant: 'error' });
      return;
    }
    drawWish(button, product.title, 'added');
    if (result === 'added') toast({ title: 'Added to your wishlist!', description: `${product.title} added to wishlist` });
  } catch (error) {
    console.error(error);
    drawWish(button, product.title, 'idle');
    toast({ title: 'Something went wrong', variant: 'error' });
  }
}

/** Signed in: the wishlist buttons say which books are on the list already. */
async function drawSavedWishes(): Promise<void> {
  const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>(`button${mark('wishlist')}`));
  if (buttons.length === 0) return;
  const userId = await signedInUser();
  if (!userId) return;
  const { isInWishlist } = await import('@/features/wishlist/wishlist');
  for (const button of buttons) {
    const scope = button.closest(`[${SCOPE_ATTRIBUTE}]`);
    const product = scope && builtProduct(scope);
    if (!product) continue;
    isInWishlist(userId, product.id).then(
      (added) => added && drawWish(button, product.title, 'added'),
      (error) => console.error('Failed to check wishlist', error),
    );
  }
}

function act(action: Action, control: HTMLElement, scope: Element): void {
  const product = productOf(scope);
  if (!product) return;
  const field = quantityField(scope);
  const quantity = field ? toQuantity(field.value, lineLimit(product)) : 1;
  switch (action) {
    case 'add':
      addWithFeedback(product, quantity, control.getAttribute('data-added-message') ?? addedMessage(quantity));
      return;
    case 'buy':
      buyNow(product, quantity);
      return;
    case 'decrease':
      showQuantity(scope, Math.max(1, quantity - 1));
      return;
    case 'increase':
      showQuantity(scope, Math.min(lineLimit(product), quantity + 1));
      return;
    case 'wishlist':
      if (control instanceof HTMLButtonElement) void wish(control, product);
      return;
  }
}

function onClick(event: MouseEvent): void {
  const control = event.target instanceof Element ? event.target.closest<HTMLElement>(`[${PURCHASE_ATTRIBUTE}]`) : null;
  if (!control || control.matches(':disabled')) return;
  const scope = control.closest(`[${SCOPE_ATTRIBUTE}]`);
  const action = control.getAttribute(PURCHASE_ATTRIBUTE) as Action;
  if (!scope || !['add', 'buy', 'wishlist', 'decrease', 'increase'].includes(action)) return;
  if ((action === 'add' || action === 'buy') && $liveCatalog.get().status === 'pending') void actOnLiveStock(action, control, scope);
  else act(action, control, scope);
}

/** How long a tap waits for the live stock before it goes by the page's (the checkout checks the stock again). */
const LIVE_STOCK_WAIT_MS = 1500;

/**
 * The page shows the stock the build saw: a tap on Add to Cart or Buy Now before the live stock has arrived waits
 * for it (briefly, the button marked busy), so a book sold out since the build is refused there and then rather
 * than at checkout.
 */
async function actOnLiveStock(action: Action, control: HTMLElement, scope: Element): Promise<void> {
  control.setAttribute('aria-busy', 'true');
  await Promise.race([liveCatalog().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LIVE_STOCK_WAIT_MS))]);
  control.removeAttribute('aria-busy');
  act(action, control, scope);
}

const isQuantityField = (target: EventTarget | null): target is HTMLInputElement => target instanceof HTMLInputElement && target.getAttribute(PURCHASE_ATTRIBUTE) === 'quantity';

/** A quantity typed: the field's rule (typedQuantity), then what follows it, and a quote for more than one order takes. */
function typed(event: Event): void {
  const field = event.target;
  if (!isQuantityField(field)) return;
  const scope = field.closest(`[${SCOPE_ATTRIBUTE}]`);
  if (!scope) return;
  const { shown, quantity, asked } = typedQuantity(field.value, limitOf(scope));
  if (shown !== field.value) field.value = shown;
  if (quantity !== null) drawQuantity(scope, field, quantity);
  // The number as typed, before the field stopped it at the limit.
  if (asked !== null) offerQuote(scope, asked);
}

/** Leaving the field, or Enter: anything that is not a quantity becomes one. */
function settle(event: Event): void {
  const field = event.target;
  if (!isQuantityField(field) || (event instanceof KeyboardEvent && event.key !== 'Enter')) return;
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
  // Says the controls answer from here on (a tap before this script has run does nothing).
  document.documentElement.setAttribute('data-purchase-controls', 'live');
  startCartDrawer();
  document.addEventListener('click', onClick);
  document.addEventListener('input', typed);
  document.addEventListener('focusout', settle);
  document.addEventListener('keydown', settle);
  $liveCatalog.subscribe(drawLive);
  afterLoadWhenIdle(() => void drawSavedWishes());
}
