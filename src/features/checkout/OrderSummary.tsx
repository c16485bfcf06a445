/** The checkout's order summary: the cart's lines, subtotal, the chosen delivery's price and the total. */
import CartLineList from '@/features/cart/CartLineList';
import SummaryTotals from '@/features/cart/SummaryTotals';
import type { CartLine } from '@/features/cart/cart';
import { formatPrice } from '@/lib/format';
import { subtractDollars, sumDollars } from '@/lib/money';
import type { ShippingQuote } from './api';

export const shippingPrice = (price: number, format: (amount: number) => string = formatPrice) => (price === 0 ? 'Free' : format(price));

export default function OrderSummary({
  lines,
  subtotal,
  discount = null,
  method,
  format = formatPrice,
}: {
  lines: readonly CartLine[];
  subtotal: number;
  /** A promotion code's discount off the goods. */
  discount?: { label: string; amount: number } | null;
  method: ShippingQuote | null;
  /** How amounts are written: with the currency named for an address abroad. */
  format?: (amount: number) => string;
}) {
  return (
    <>
      <h2 id="order-summary-heading" className="text-xl font-bold">
        Order Summary
      </h2>
      <CartLineList lines={lines} className="space-y-3" format={format} />
      <SummaryTotals
        className="border-t border-slate-200 pt-4"
        subtotal={subtotal}
        discount={discount}
        shipping={method ? shippingPrice(method.price, format) : '—'}
        total={sumDollars(subtractDollars(subtotal, discount?.amount ?? 0), method?.price ?? 0)}
        format={format}
      />
    </>
  );
}
