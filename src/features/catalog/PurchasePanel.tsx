/**
 * Quantity, Add to Cart (Pre-order, for a title on pre-order), Buy Now and Add to Wishlist for one product:
 * markup only, shared by the product page, the book page and the product page of a book added since the build. Every tap, keystroke and live price on it
 * is answered by one script, the purchase controls (src/features/cart/purchase-controls.ts), through the
 * `data-purchase` marks; the enclosing `data-purchase-scope` says which product it is.
 */
import WishlistButton from '@/features/wishlist/WishlistButton';
import { canBuy, offerState, showWhen } from './offer-state';
import { PREORDER_LABEL, PREORDERS_FULL_LABEL } from './preorder-text';
import type { Product } from './product';
import { quantityLineText } from './quantity-prices';

const STEP = 'h-10 w-10 text-lg font-bold text-navy hover:bg-sky disabled:opacity-40';

export default function PurchasePanel({ product }: { product: Product }) {
  const state = offerState(product);
  const buyable = canBuy(state);
  const id = `quantity-${product.id}`;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="inline-flex flex-wrap items-center gap-x-3 gap-y-1">
          <div className="inline-flex items-center rounded-full border border-slate-400 bg-white">
            <button type="button" className={`${STEP} rounded-l-full`} aria-label="Decrease quantity" disabled data-purchase="decrease">
              −
            </button>
            <label htmlFor={id} className="sr-only">
              Quantity
            </label>
            <input
              id={id}
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              defaultValue="1"
              disabled={!buyable}
              aria-describedby={`${id}-stock`}
              data-purchase="quantity"
              className="h-10 w-14 border-x border-slate-300 text-center font-semibold"
            />
            <button type="button" className={`${STEP} rounded-r-full`} aria-label="Increase quantity" disabled={!buyable} data-purchase="increase">
              +
            </button>
          </div>
          {/* Always there, so what appears in it is read out. */}
          <span id={`${id}-stock`} aria-live="polite" className="text-sm font-semibold text-amber-900" data-purchase="stock-note" />
        </div>
        <p aria-live="polite" className="font-semibold text-navy" data-purchase="line-price">
          {buyable ? quantityLineText(product.price, product.quantityPrices, 1) : null}
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-primary px-7" disabled={!buyable} data-purchase="add">
          <span {...showWhen('in-stock', state)}>Add to Cart</span>
          <span {...showWhen('sold-out', state)}>Out of Stock</span>
          <span {...showWhen('preorder', state)}>{PREORDER_LABEL}</span>
          <span {...showWhen('preorder-full', state)}>{PREORDERS_FULL_LABEL}</span>
        </button>
        {/* A pre-order has the one button: Buy Now would say nothing of when it ships. */}
        <button type="button" className="btn-gold px-7" disabled={!buyable} data-purchase="buy" {...showWhen('in-stock sold-out', state)}>
          Buy Now
        </button>
        <WishlistButton productId={product.id} productTitle={product.title} />
      </div>
    </div>
  );
}
