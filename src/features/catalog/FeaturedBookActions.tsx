/**
 * Home's featured-book button, as markup: Add to Cart with the price (Pre-order, with the release date, for a
 * title on pre-order); a disabled 'Coming Soon' when out of stock or no longer for sale ('Pre-orders are full'
 * once its pre-orders are), with a link to the book page, where the shopper can ask to be emailed when it is
 * available. The purchase controls (src/features/cart/purchase-controls.ts) answer the tap and show the one
 * that the live price and stock call for.
 */
import { formatPrice } from '@/lib/format';
import { purchaseScope, ReleaseLine } from './ProductOffer';
import { offerState, showWhen } from './offer-state';
import { PREORDER_LABEL, PREORDERS_FULL_LABEL } from './preorder-text';
import type { Product } from './product';

export default function FeaturedBookActions({ book }: { book: Product }) {
  const state = offerState(book);
  return (
    <div className="contents" {...purchaseScope(book)}>
      <button type="button" className="btn-gold" data-purchase="add" data-added-message="Added to cart!" {...showWhen('in-stock', state)}>
        Add to Cart – <span data-purchase="price">{formatPrice(book.price)}</span>
      </button>
      <button type="button" className="btn-gold" data-purchase="add" data-added-message="Added to cart!" {...showWhen('preorder', state)}>
        {PREORDER_LABEL} – <span data-purchase="price">{formatPrice(book.price)}</span>
      </button>
      <button type="button" className="btn-gold" disabled {...showWhen('sold-out', state)}>
        Coming Soon
      </button>
      <button type="button" className="btn-gold" disabled {...showWhen('preorder-full', state)}>
        {PREORDERS_FULL_LABEL}
      </button>
      {/* The book page's purchase panel takes the address for "tell me when it's back". */}
      <a href="/book" className="btn-secondary" {...showWhen('sold-out preorder-full', state)}>
        Email me when it's available
      </a>
      <ReleaseLine product={book} state={state} className="w-full font-semibold text-navy" />
    </div>
  );
}
