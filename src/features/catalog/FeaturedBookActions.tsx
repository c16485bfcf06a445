/**
 * Home's featured-book button, as markup: Add to Cart with the price; a disabled 'Coming Soon' when out of stock
 * or no longer for sale, with a link to the book page, where the shopper can ask to be emailed when it is
 * available. The purchase controls (src/features/cart/purchase-controls.ts) answer the tap and show the one
 * that the live price and stock call for.
 */
import { formatPrice } from '@/lib/format';
import { purchaseScope } from './ProductOffer';
import { isInStock, type Product } from './product';

export default function FeaturedBookActions({ book }: { book: Product }) {
  const inStock = isInStock(book);
  return (
    <div className="contents" {...purchaseScope(book)}>
      <button type="button" className="btn-gold" data-purchase="add" data-added-message="Added to cart!" data-show-when="in-stock" hidden={!inStock}>
        Add to Cart – <span data-purchase="price">{formatPrice(book.price)}</span>
      </button>
      <button type="button" className="btn-gold" disabled data-show-when="sold-out" hidden={inStock}>
        Coming Soon
      </button>
      {/* The book page's purchase panel takes the address for "tell me when it's back". */}
      <a href="/book" className="btn-secondary" data-show-when="sold-out" hidden={inStock}>
        Email me when it's available
      </a>
    </div>
  );
}
