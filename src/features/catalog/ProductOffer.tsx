/**
 * Price, stock and the purchase panel of one product, as markup: the page draws it from the build (Offer.astro)
 * or, for a product added since the build, the product island does (ProductDetail). The purchase controls
 * (src/features/cart/purchase-controls.ts) answer it and redraw its price and stock from the live catalog.
 */
import type { ReactNode } from 'react';
import { cartProductOf } from '@/features/cart/cart';
import { formatPrice } from '@/lib/format';
import PurchasePanel from './PurchasePanel';
import { type OfferState, offerState, showWhen } from './offer-state';
import { releaseLine } from './preorder-text';
import type { Product } from './product';

/** What marks an element as one product's purchase scope, for the purchase controls. */
export const purchaseScope = (product: Product) => ({ 'data-purchase-scope': '', 'data-product': JSON.stringify(cartProductOf(product)) });

/** A title's release line while it is on pre-order (its pre-orders full too); the purchase controls redraw it from the live date. */
export function ReleaseLine({ product, state, as: Line = 'p', className }: { product: Product; state: OfferState; as?: 'p' | 'span'; className: string }) {
  if (product.releaseDate === undefined) return null;
  return (
    <Line className={className} data-purchase="release-line" {...showWhen('preorder preorder-full', state)}>
      {releaseLine(product.releaseDate)}
    </Line>
  );
}

export function OfferDetails({ product, children }: { product: Product; children?: ReactNode }) {
  const state = offerState(product);
  return (
    <div {...purchaseScope(product)}>
      <p className="text-3xl font-bold text-navy">
        <span data-purchase="price">{formatPrice(product.price)}</span> <span className="text-base font-normal text-slate-600">AUD</span>
      </p>
      <p className="mt-1 font-semibold">
        <span className="text-emerald-800" {...showWhen('in-stock', state)}>
          In Stock
        </span>
        <span className="text-red-800" {...showWhen('sold-out', state)}>
          Out of Stock
        </span>
        <ReleaseLine product={product} state={state} as="span" className="text-navy" />
      </p>
      <div className="mt-5">
        <PurchasePanel product={product} />
      </div>
      {children}
    </div>
  );
}
