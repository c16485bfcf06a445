/**
 * The product page for ids not known at build (served at any /store/product/{id}): loads the product by the
 * id in the address, then draws the same layout the pre-rendered pages have (its purchase controls answered, as
 * theirs are, by src/features/cart/purchase-controls.ts).
 */
import BackInStockForm from '@/features/forms/BackInStockForm';
import { OfferDetails } from './ProductOffer';
import ProductNotFound from './ProductNotFound';
import ProductSummary from './ProductSummary';
import { canBuy, offerState } from './offer-state';
import { isPreorder } from './product';
import RelatedProducts from './RelatedProducts';
import { useLiveProduct } from './use-live-catalog';

function idFromAddress(): string {
  if (typeof window === 'undefined') return '';
  const match = window.location.pathname.match(/^\/store\/product\/([^/]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

export default function ProductDetail() {
  const id = idFromAddress();
  const live = useLiveProduct(id, null);
  // No id at all is a missing product, not a loading one.
  if (!id && typeof window !== 'undefined') return <ProductNotFound />;
  if (live.status === 'loading') {
    return (
      <p className="py-20 text-center text-slate-700" role="status">
        Loading product details...
      </p>
    );
  }
  const product = live.data;
  if (!product) return <ProductNotFound />;
  return (
    <>
      <ProductSummary product={product}>
        <OfferDetails product={product}>
          {!canBuy(offerState(product)) && (
            <div className="mt-4">
              <BackInStockForm productId={product.id} title={product.title} preorder={isPreorder(product)} />
            </div>
          )}
        </OfferDetails>
      </ProductSummary>
      <RelatedProducts product={product} />
    </>
  );
}
