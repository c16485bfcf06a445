/**
 * Quantity, Add to Cart, Buy Now and Add to Wishlist for one product: markup only, shared by the product page,
 * the book page and the product page of a book added since the build. Every tap, keystroke and live price on it
 * is answered by one script, the purchase controls (src/features/cart/purchase-controls.ts), through the
 * `data-purchase` marks; the enclosing `data-purchase-scope` says which product it is.
 */
import WishlistButton from '@/features/wishlist/WishlistButton';
import { isInStock, type Product } from './product';
import { quantityLineText } from './quantity-prices';

const STEP = 'h-10 w-10 text-lg font-bold text-navy hover:bg-sky disabled:opacity-40';

export default function PurchasePanel({ product }: { product: Product }) {
  const inStock = isInStock(product);
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
              disabled={!inStock}
              aria-describedby={`${id}-stock`}
              data-purchase="quantity"
              className="h-10 w-14 border-x border-slate-300 text-center font-semibold"
            />
            <button type="button" className={`${STEP} rounded-r-full`} aria-label="Increase quantity" disabled={!inStock} data-purchase="increase">
              +
            </button>
          </div>
          {/* Always there, so what appears in it is read out. */}
          <span id={`${id}-stock`} aria-live="polite" className="text-sm font-semibold text-amber-900" data-purchase="stock-note" />
        </div>
        <p aria-live="polite" className="font-semibold text-navy" data-purchase="line-price">
          {inStock ? quantityLineText(product.price, product.quantityPrices, 1) : null}
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-primary px-7" disabled={!inStock} data-purchase="add">
          <span data-show-when="in-stock" hidden={!inStock}>
            Add to Cart
          </span>
          <span data-show-when="sold-out" hidden={inStock}>
            Out of Stock
          </span>
        </button>
        <button type="button" className="btn-gold px-7" disabled={!inStock} data-purchase="buy">
          Buy Now
        </button>
        <WishlistButton productId={product.id} productTitle={product.title} />
      </div>
    </div>
  );
}
