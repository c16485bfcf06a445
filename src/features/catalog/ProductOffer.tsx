/**
 * Price, stock and the purchase panel of one product. `OfferDetails` draws what it is given; the default
 * export is the product page's island: it starts from the build-time product, so the pre-rendered page
 * already shows them, and corrects price and stock from the database on load.
 */
import { formatPrice } from '@/lib/format';
import PurchasePanel from './PurchasePanel';
import ProductNotFound from './ProductNotFound';
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

export default function ProductOffer({ product }: { product: Product }) {
  const live = useLiveProduct(product.id, product);
  // Removed from the database since the build.
  if (live.status === 'ready' && !live.data) return <ProductNotFound />;
  return <OfferDetails product={live.data ?? product} />;
}
