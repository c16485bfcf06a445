/** The book page's purchase box: fetched once on load, then Add to Cart / Buy Now / Add to Wishlist. */
import { OfferDetails } from './ProductOffer';
import { useLiveProduct } from './use-live-catalog';

export default function BookPurchase({ productId }: { productId: string }) {
  const live = useLiveProduct(productId, null);
  if (live.status === 'loading') {
    return (
      <p className="text-slate-700" role="status">
        Loading book details...
      </p>
    );
  }
  if (live.status === 'error' || !live.data) {
    return (
      <div role="alert">
        <h2 className="text-2xl font-bold">Book Not Found</h2>
        <p className="mt-2 text-slate-700">Sorry, we couldn't find the book you're looking for.</p>
        <a href="/store" className="btn-primary mt-4">
          Browse Store
        </a>
      </div>
    );
  }
  return <OfferDetails product={live.data} />;
}
