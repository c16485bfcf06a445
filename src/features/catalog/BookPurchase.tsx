/** The book page's purchase box: fetched once on load, then Add to Cart / Buy Now / Add to Wishlist. */
import { formatPrice } from '@/lib/format';
import PurchasePanel from './PurchasePanel';
import { isInStock, type Product } from './product';
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
  const book: Product | null = live.data;
  if (live.status === 'error' || !book) {
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
  return (
    <div>
      <p className="text-3xl font-bold text-navy">
        {formatPrice(book.price)} <span className="text-base font-normal text-slate-600">AUD</span>
      </p>
      <p className={`mt-1 font-semibold ${isInStock(book) ? 'text-emerald-800' : 'text-red-800'}`}>{isInStock(book) ? 'In Stock' : 'Out of Stock'}</p>
      <div className="mt-5">
        <PurchasePanel product={book} />
      </div>
    </div>
  );
}
