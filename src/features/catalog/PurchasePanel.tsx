/**
 * Quantity, Add to Cart and Buy Now for one product: shared by the product page and the book page. The
 * `data-purchase` marks let these controls work before (and without) hydration (purchase-controls.ts). Out of
 * stock, it offers "Email me when it's available" (drawn by React: the island hydrates when the live stock says
 * sold out, or when the visitor reaches for the field on a page built sold out).
 */
import { useState } from 'react';
import { addedMessage, addWithFeedback, buyNow } from '@/features/cart/actions';
import { cartProductOf } from '@/features/cart/cart';
import BackInStockForm from '@/features/forms/BackInStockForm';
import WishlistButton from '@/features/wishlist/WishlistButton';
import QuantityStepper from './QuantityStepper';
import { quantityLineText } from './quantity-prices';
import { isInStock, type Product } from './product';

export default function PurchasePanel({ product }: { product: Product }) {
  const [quantity, setQuantity] = useState(1);
  const inStock = isInStock(product);
  return (
    <div className="space-y-4" data-purchase-scope data-product={JSON.stringify(cartProductOf(product))}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <QuantityStepper id={`quantity-${product.id}`} value={quantity} onChange={setQuantity} disabled={!inStock} stock={product.stock} quoteTitle={product.title} purchase />
        {/* The price follows the quantity. The purchase controls fill it before hydration, so the text React finds
            may be theirs: kept, not redrawn, until the quantity handed over changes it. */}
        <p aria-live="polite" className="font-semibold text-navy" data-purchase="line-price" suppressHydrationWarning>
          {inStock ? quantityLineText(product.price, product.quantityPrices, quantity) : null}
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-primary px-7" disabled={!inStock} data-purchase="add" onClick={() => addWithFeedback(product, quantity, addedMessage(quantity))}>
          {inStock ? 'Add to Cart' : 'Out of Stock'}
        </button>
        <button type="button" className="btn-gold px-7" disabled={!inStock} data-purchase="buy" onClick={() => buyNow(product, quantity)}>
          Buy Now
        </button>
        <WishlistButton productId={product.id} productTitle={product.title} />
      </div>
      {!inStock && <BackInStockForm productId={product.id} title={product.title} />}
    </div>
  );
}
