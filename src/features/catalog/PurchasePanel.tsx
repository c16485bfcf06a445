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
import QuantityField from './QuantityField';
import { quantityLineText } from './quantity-prices';

export default function PurchasePanel({ product }: { product: Product }) {
  const state = offerState(product);
  const buyable = canBuy(state);
  const id = `quantity-${product.id}`;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <QuantityField
          id={id}
          label="Quantity"
          decrease={{ disabled: true, 'data-purchase': 'decrease' }}
          increase={{ disabled: !buyable, 'data-purchase': 'increase' }}
          input={{ defaultValue: '1', disabled: !buyable, 'data-purchase': 'quantity' }}
          note={{ 'data-purchase': 'stock-note' }}
        />
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
