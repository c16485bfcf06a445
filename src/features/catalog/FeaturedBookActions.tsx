/** Home's featured-book button: Add to Cart with the live price, or a disabled 'Coming Soon' when out of stock. */
import { formatPrice } from '@/lib/format';
import { addWithFeedback } from '@/features/cart/actions';
import { isInStock } from './product';
import { useLiveProduct } from './use-live-catalog';

export default function FeaturedBookActions({ productId }: { productId: string }) {
  const live = useLiveProduct(productId, null);
  const book = live.data;
  if (!book) {
    return (
      <button type="button" className="btn-gold" disabled>
        {live.status === 'loading' ? 'Add to Cart' : 'Coming Soon'}
      </button>
    );
  }
  if (!isInStock(book)) {
    return (
      <button type="button" className="btn-gold" disabled>
        Coming Soon
      </button>
    );
  }
  return (
    <button type="button" className="btn-gold" onClick={() => addWithFeedback(book, 1, 'Added to cart!')}>
      Add to Cart – {formatPrice(book.price)}
    </button>
  );
}
