/** What the shop's buttons do: add with feedback, and Buy Now. */
import { toast } from '@/features/toast/store';
import { addToCart, type AddResult } from './store';
import type { CartProduct } from './cart';
import { isPreorder } from '@/features/catalog/product';
import { PREORDERS_FULL_LABEL } from '@/features/catalog/preorder-text';

const OUT_OF_STOCK_MESSAGE = 'This product is out of stock';

/** What the shopper is told after adding `quantity` from a product's quantity field (one: the product's own default). */
export const addedMessage = (quantity: number): string | undefined => (quantity > 1 ? `${quantity} item(s) added to cart` : undefined);

/** Adds to the cart and says so; refuses an out-of-stock product (or one whose pre-orders are full) with the shop's message. */
export function addWithFeedback(product: CartProduct, quantity = 1, successTitle?: string): AddResult {
  const result = addToCart(product, quantity);
  if (result.ok) toast({ title: successTitle ?? `${product.title} added to cart` });
  else toast({ title: isPreorder(product) ? PREORDERS_FULL_LABEL : OUT_OF_STOCK_MESSAGE, variant: 'error' });
  return result;
}

/** Adds the chosen quantity, then goes straight to checkout. */
export function buyNow(product: CartProduct, quantity = 1): void {
  if (addWithFeedback(product, quantity).ok) window.location.assign('/checkout');
}
