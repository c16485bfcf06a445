/** The checkout's order summary: the cart's lines, subtotal, the chosen delivery's price and the total. */
import CartLineList from '@/features/cart/CartLineList';
import SummaryTotals from '@/features/cart/SummaryTotals';
import type { CartLine } from '@/features/cart/cart';
import { formatPrice } from '@/lib/format';
import { subtractDollars, sumDollars } from '@/lib/money';
import QuantityStepper from '@/features/catalog/QuantityStepper';
import { copiesAvailable } from '@/features/catalog/product';
import { updateQuantity } from '@/features/cart/store';
import type { LineProblem, ShippingQuote } from './api';

export const shippingPrice = (price: number, format: (amount: number) => string = formatPrice) => (price === 0 ? 'Free' : format(price));

export default function OrderSummary({
  lines,
  subtotal,
  discount = null,
  method,
  format = formatPrice,
  lineProblem = null,
  editable = false,
}: {
  lines: readonly CartLine[];
  subtotal: number;
  /** A promotion code's discount off the goods. */
  discount?: { label: string; amount: number } | null;
  method: ShippingQuote | null;
  /** How amounts are written: with the currency named for an address abroad. */
  format?: (amount: number) => string;
  /** Too few copies left of a line: said once, beside that line. */
  lineProblem?: LineProblem | null;
  /** Each line's quantity can be changed here (the checkout). */
  editable?: boolean;
}) {
  return (
    <>
      <h2 id="order-summary-heading" className="text-xl font-bold">
        Order Summary
      </h2>
      <CartLineList
        lines={lines}
        className="space-y-3"
        format={format}
        below={
          editable
            ? (line) => {
                const problem = lineProblem?.productId === line.product.id && line.quantity > lineProblem.available ? lineProblem : null;
                return (
                  <div className="mt-2 space-y-1">
                    <QuantityStepper
                      id={`checkout-qty-${line.product.id}`}
                      label={`Quantity of ${line.product.title}`}
                      value={line.quantity}
                      stock={problem ? undefined : copiesAvailable(line.product)}
                      onChange={(q) => updateQuantity(line.product.id, q)}
                    />
                    {problem && (
                      <p role="alert" className="text-sm font-semibold text-red-900">
                        {problem.message}
                      </p>
                    )}
                  </div>
                );
              }
            : undefined
        }
      />
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
