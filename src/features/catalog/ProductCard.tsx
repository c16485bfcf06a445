/**
 * A product in the store grid: image and title to its page, price, clamped description, wishlist, add and buy.
 * Its buttons are markup: the purchase controls (src/features/cart/purchase-controls.ts) answer them.
 */
import { formatPrice } from '@/lib/format';
import { productPath } from '@/lib/paths';
import WishlistButton from '@/features/wishlist/WishlistButton';
import CoverImage from './CoverImage';
import { purchaseScope } from './ProductOffer';
import { isInStock, type Product } from './product';

export default function ProductCard({ product }: { product: Product }) {
  const href = productPath(product.id);
  const inStock = isInStock(product);
  return (
    <article className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" {...purchaseScope(product)}>
      <div className="relative">
        {/* biome-ignore lint/a11y/useAnchorContent: the cover repeats the title link for pointers; it is hidden from keyboards and screen readers on purpose. */}
        <a href={href} tabIndex={-1} aria-hidden="true">
          <CoverImage product={product} alt="" sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" className="aspect-square w-full object-cover" />
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
        <p className="mt-2 text-sm font-semibold text-red-800" data-show-when="sold-out" hidden={inStock}>
          Out of Stock
        </p>
        <div className="mt-4 grid grid-cols-2 gap-2">
          <button type="button" className="btn-primary px-3 text-sm" disabled={!inStock} data-purchase="add" aria-label={`Add to Cart: ${product.title}`}>
            Add to Cart
          </button>
          <button type="button" className="btn-secondary px-3 text-sm" disabled={!inStock} data-purchase="buy" aria-label={`Buy Now: ${product.title}`}>
            Buy Now
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
