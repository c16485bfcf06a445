/** The checkout's order summary: the cart's lines, subtotal, the chosen delivery's price and the total. */
import CartLineList from '@/features/cart/CartLineList';
import SummaryTotals from '@/features/cart/SummaryTotals';
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
      <SummaryTotals className="border-t border-slate-200 pt-4" subtotal={subtotal} shipping={method ? shippingPrice(method.price) : '—'} total={subtotal + (method?.price ?? 0)} />
    </>
  );
}
