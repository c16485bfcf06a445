/** The checkout's order summary: the cart's lines, subtotal, the chosen delivery's price and the total. */
import CartLineList from '@/features/cart/CartLineList';
import type { CartLine } from '@/features/cart/cart';
import { formatPrice } from '@/lib/format';
import type { ShippingQuote } from './api';

export const shippingPrice = (price: number) => (price === 0 ? 'Free' : formatPrice(price));

export default function OrderSummary({ lines, subtotal, method, empty }: { lines: readonly CartLine[]; subtotal: number; method: ShippingQuote | null; empty: boolean }) {
  return (
    <>
      <h2 id="order-summary-heading" className="text-xl font-bold">
        Order Summary
      </h2>
      <CartLineList lines={lines} className="space-y-3" />
      {/* In the summary, not above the form: appearing after hydration, it then moves nothing. */}
      {empty && (
        <p>
          Your cart is empty.{' '}
          <a href="/store" className="font-semibold text-navy underline">
            Browse our store
          </a>
        </p>
      )}
      <dl className="space-y-2 border-t border-slate-200 pt-4">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd>{formatPrice(subtotal)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>Shipping</dt>
          <dd>{method ? shippingPrice(method.price) : '—'}</dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-2 text-lg font-bold text-navy">
          <dt>Total</dt>
          <dd>{formatPrice(subtotal + (method?.price ?? 0))}</dd>
        </div>
      </dl>
    </>
  );
}
