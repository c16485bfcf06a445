/**
 * Price, stock and the purchase panel of one product. `OfferDetails` draws what it is given; the default
 * export is the island of the product page and of the book page's purchase box: it starts from the
 * build-time product, so the pre-rendered page already shows them, and corrects price and stock from the
 * database on load. When that read fails or the product is gone, the page's not-found view ('Product Not
 * Found' / 'Book Not Found') takes the place of the view named by `viewId`.
 */
import { useEffect } from 'react';
import { formatPrice } from '@/lib/format';
import PurchasePanel from './PurchasePanel';
import { showNotFound } from './not-found-view';
import { isInStock, type Product } from './product';
import { useLiveProduct } from './use-live-catalog';

export function OfferDetails({ product }: { product: Product }) {
  const inStock = isInStock(product);
  return (
    <div>
      <p className="text-3xl font-bold text-navy">
        {formatPrice(product.price)} <span className="text-base font-normal text-slate-600">AUD</span>
      </p>
      <p className={`mt-1 font-semibold ${inStock ? 'text-emerald-800' : 'text-red-800'}`}>{inStock ? 'In Stock' : 'Out of Stock'}</p>
      <div className="mt-5">
        <PurchasePanel product={product} />
      </div>
    </div>
  );
}

export default function ProductOffer({ product, viewId }: { product: Product; viewId: string }) {
  const live = useLiveProduct(product.id, product);
  const notForSale = live.status === 'error' || !live.data;
  useEffect(() => {
    if (notForSale) showNotFound(viewId);
  }, [notForSale, viewId]);
  return <OfferDetails product={live.data ?? product} />;
}
