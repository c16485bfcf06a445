/**
 * The cart, shared by every island: lines persisted to localStorage under `cart` after each change,
 * restored on load and kept in step across tabs; the drawer flag; the last added product.
 */
import { atom, computed } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import { STORAGE_KEYS } from '@/config/constants';
import { copiesAvailable } from '@/features/catalog/product';
import { addLine, cartProductOf, decodeCart, itemCountOf, quantitySavingOf, removeLine, setLineQuantity, subtotalOf, withLiveStock, type CartLine, type CartProduct } from './cart';

export const $cartLines = persistentAtom<CartLine[]>(STORAGE_KEYS.cart, [], {
  encode: JSON.stringify,
  decode: decodeCart,
  listen: true,
});

export const $subtotal = computed($cartLines, subtotalOf);
/** What the quantity prices reached take off the cart. */
export const $quantitySaving = computed($cartLines, quantitySavingOf);
export const $itemCount = computed($cartLines, itemCountOf);
export const $drawerOpen = atom(false);
export const $lastAdded = atom<CartProduct | null>(null);

export type AddResult = { ok: true } | { ok: false; reason: 'out_of_stock' };

/** Adds to the cart and opens the drawer; a product with no copies available (sold out, pre-orders full) is refused. */
export function addToCart(product: CartProduct, quantity = 1): AddResult {
  if (copiesAvailable(product) <= 0) return { ok: false, reason: 'out_of_stock' };
  $cartLines.set(addLine($cartLines.get(), product, quantity));
  $lastAdded.set(cartProductOf(product));
  $drawerOpen.set(true);
  return { ok: true };
}

export function updateQuantity(productId: string, quantity: number): void {
  $cartLines.set(setLineQuantity($cartLines.get(), productId, quantity));
}

/** Takes the live price, stock and pre-order state into the cart's lines (the cart page and the checkout read them from the live catalog). */
export function refreshLiveStock(live: Parameters<typeof withLiveStock>[1]): void {
  const lines = $cartLines.get();
  const next = withLiveStock(lines, live);
  if (next !== lines) $cartLines.set(next);
}

export function removeFromCart(productId: string): void {
  $cartLines.set(removeLine($cartLines.get(), productId));
}

export function clearCart(): void {
  $cartLines.set([]);
}

export const closeDrawer = () => $drawerOpen.set(false);
