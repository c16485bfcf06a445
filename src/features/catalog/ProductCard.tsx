/**
 * A product in the store grid: image and title to its page, price, clamped description, wishlist, add and buy
 * (or, for a title on pre-order, its release date and Pre-order). Its buttons are markup: the purchase controls
 * (src/features/cart/purchase-controls.ts) answer them and show the ones the live answer calls for.
 */
import { formatPrice } from '@/lib/format';
import { productPath } from '@/lib/paths';
import WishlistButton from '@/features/wishlist/WishlistButton';
import CoverImage from './CoverImage';
import { purchaseScope, ReleaseLine } from './ProductOffer';
import { canBuy, offerState, showWhen } from './offer-state';
import { PREORDER_LABEL, PREORDERS_FULL_LABEL } from './preorder-text';
import type { Product } from './product';

interface Props {
  product: Product;
  /** The first card of a grid at the top of its page: its cover is the largest thing in the first screen. */
  priority?: boolean;
}

export default function ProductCard({ product, priority = false }: Props) {
  const href = productPath(product.id);
  const state = offerState(product);
  const buyable = canBuy(state);
  return (
    <article className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" {...purchaseScope(product)}>
      <div className="relative">
        {/* biome-ignore lint/a11y/useAnchorContent: the cover repeats the title link for pointers; it is hidden from keyboards and screen readers on purpose. */}
        <a href={href} tabIndex={-1} aria-hidden="true">
          <CoverImage product={product} alt="" sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" className="aspect-square w-full object-cover" priority={priority} />
        </a>
        <div className="absolute top-3 right-3">
          <WishlistButton productId={product.id} productTitle={product.title} variant="heart" />
        </div>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 className="text-lg font-bold">
          <a href={href} className="hover:underline">
            {product.title}
          </a>
        </h2>
        <p className="mt-1 text-xl font-bold text-navy" data-purchase="price">
          {formatPrice(product.price)}
        </p>
        <p className="mt-2 line-clamp-3 flex-1 text-slate-700">{product.description}</p>
        <p className="mt-2 text-sm font-semibold text-red-800" {...showWhen('sold-out', state)}>
          Out of Stock
        </p>
        <ReleaseLine product={product} state={state} className="mt-2 text-sm font-semibold text-navy" />
        <div className="mt-4 grid grid-cols-2 gap-2">
          <button type="button" className="btn-primary px-3 text-sm" disabled={!buyable} data-purchase="add" aria-label={`Add to Cart: ${product.title}`} {...showWhen('in-stock sold-out', state)}>
            Add to Cart
          </button>
          <button type="button" className="btn-secondary px-3 text-sm" disabled={!buyable} data-purchase="buy" aria-label={`Buy Now: ${product.title}`} {...showWhen('in-stock sold-out', state)}>
            Buy Now
          </button>
          {/* The same action as Add to Cart, another label: one button across the card. */}
          <button
            type="button"
            className="btn-primary col-span-2 px-3 text-sm"
            disabled={!buyable}
            data-purchase="add"
            aria-label={`${PREORDER_LABEL}: ${product.title}`}
            {...showWhen('preorder', state)}
          >
            {PREORDER_LABEL}
          </button>
          <button type="button" className="btn-primary col-span-2 px-3 text-sm" disabled {...showWhen('preorder-full', state)}>
            {PREORDERS_FULL_LABEL}
          </button>
        </div>
      </div>
    </article>
  );
}

export function ProductCardSkeleton() {
  return (
    <div className="animate-pulse overflow-hidden rounded-2xl bg-white ring-1 ring-slate-200" aria-hidden="true" data-testid="product-skeleton">
      <div className="aspect-square bg-slate-200" />
      <div className="space-y-3 p-5">
        <div className="h-5 w-3/4 rounded bg-slate-200" />
        <div className="h-5 w-1/4 rounded bg-slate-200" />
        <div className="h-16 rounded bg-slate-200" />
      </div>
    </div>
  );
}
