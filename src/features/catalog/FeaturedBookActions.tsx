/**
 * Home's featured-book button: Add to Cart with the price, drawn from the build's copy and then the live
 * price and stock; a disabled 'Coming Soon' when out of stock or no longer for sale.
 */
import { formatPrice } from '@/lib/format';
import { addWithFeedback } from '@/features/cart/actions';
import { isInStock, type Product } from './product';
import { useLiveProduct } from './use-live-catalog';

export default function FeaturedBookActions({ book }: { book: Product }) {
  const live = useLiveProduct(book.id, book);
  const current = live.data;
  if (!current || !isInStock(current)) {
    return (
      <button type="button" className="btn-gold" disabled>
        Coming Soon
      </button>
    );
  }
  return (
    <button type="button" className="btn-gold" onClick={() => addWithFeedback(current, 1, 'Added to cart!')}>
      Add to Cart – {formatPrice(current.price)}
    </button>
  );
}
