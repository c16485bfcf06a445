/**
 * Add to Wishlist, as a full button (book and product pages) or a heart (store cards), as markup: the purchase
 * controls (src/features/cart/purchase-controls.ts) answer it. Signed out, it asks the visitor to sign in;
 * signed in, it adds the book and shows whether it is already on the list (`drawWish` there redraws this).
 */
const HEART = 'M12 21s-7.5-4.6-9.5-9.3C1 8 3.5 4.5 7 4.5c2 0 3.5 1.1 5 3 1.5-1.9 3-3 5-3 3.5 0 6 3.5 4.5 7.2C19.5 16.4 12 21 12 21z';

interface Props {
  productId: string;
  productTitle: string;
  variant?: 'button' | 'heart';
}

export default function WishlistButton({ productTitle, variant = 'button' }: Props) {
  if (variant === 'heart') {
    return (
      <button
        type="button"
        data-purchase="wishlist"
        data-wishlist-heart=""
        aria-pressed={false}
        aria-label={`Add ${productTitle} to wishlist`}
        className="grid h-10 w-10 place-items-center rounded-full bg-white/95 text-rose-700 shadow ring-1 ring-slate-200 hover:bg-rose-50 disabled:cursor-default"
      >
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d={HEART} />
        </svg>
      </button>
    );
  }
  return (
    <button type="button" data-purchase="wishlist" className="btn-secondary">
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d={HEART} />
      </svg>
      <span data-wishlist-label="">Add to Wishlist</span>
    </button>
  );
}
