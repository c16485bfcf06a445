/**
 * Home's featured-book button: Add to Cart with the price, drawn from the build's copy and then the live
 * price and stock; a disabled 'Coming Soon' when out of stock or no longer for sale, with a link to the book
 * page, where the shopper can ask to be emailed when it is available.
 */
import { formatPrice } from '@/lib/format';
import { addWithFeedback } from '@/features/cart/actions';
import { cartProductOf } from '@/features/cart/cart';
import { isInStock, type Product } from './product';
import { useLiveProduct } from './use-live-catalog';

const ADDED = 'Added to cart!';

export default function FeaturedBookActions({ book }: { book: Product }) {
  const live = useLiveProduct(book.id, book);
  const current = live.data;
  if (!current || !isInStock(current)) {
    // The book page's purchase panel takes the address for "tell me when it's back".
    return (
      <>
        <button type="button" className="btn-gold" disabled>
          Coming Soon
        </button>
        <a href="/book" className="btn-secondary">
          Email me when it's available
        </a>
      </>
    );
  }
  return (
    <button
      type="button"
      className="btn-gold"
      data-purchase="add"
      data-purchase-scope
      data-product={JSON.stringify(cartProductOf(current))}
      data-added-message={ADDED}
      onClick={() => addWithFeedback(current, 1, ADDED)}
    >
      Add to Cart – {formatPrice(current.price)}
    </button>
  );
}
