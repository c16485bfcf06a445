/** Quantity, Add to Cart and Buy Now for one product: shared by the product page and the book page. */
import { useState } from 'react';
import { addWithFeedback, buyNow } from '@/features/cart/actions';
import WishlistButton from '@/features/wishlist/WishlistButton';
import QuantityStepper from './QuantityStepper';
import { isInStock, type Product } from './product';

export default function PurchasePanel({ product }: { product: Product }) {
  const [quantity, setQuantity] = useState(1);
  const inStock = isInStock(product);
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-4">
        <QuantityStepper id={`quantity-${product.id}`} value={quantity} onChange={setQuantity} disabled={!inStock} />
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-primary px-7" disabled={!inStock} onClick={() => addWithFeedback(product, quantity, quantity > 1 ? `${quantity} item(s) added to cart` : undefined)}>
          {inStock ? 'Add to Cart' : 'Out of Stock'}
        </button>
        <button type="button" className="btn-gold px-7" disabled={!inStock} onClick={() => buyNow(product, quantity)}>
          Buy Now
        </button>
        <WishlistButton productId={product.id} productTitle={product.title} />
      </div>
    </div>
  );
}
