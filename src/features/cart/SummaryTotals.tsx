/** Subtotal, shipping and total, as the cart page and the checkout's order summary show them. */
import type { ReactNode } from 'react';
import { formatPrice } from '@/lib/format';

export default function SummaryTotals({
  subtotal,
  discount,
  shipping,
  total,
  className = '',
  format = formatPrice,
}: {
  subtotal: number;
  /** A promotion code's discount off the goods: its label and amount. */
  discount?: { label: string; amount: number } | null;
  shipping: ReactNode;
  total: number;
  className?: string;
  /** How the amounts are written: with the currency named for a shopper abroad. */
  format?: (amount: number) => string;
}) {
  return (
    <dl className={`space-y-2 ${className}`}>
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd>{format(subtotal)}</dd>
      </div>
      {discount && (
        <div className="flex justify-between font-semibold text-emerald-800" data-testid="summary-discount">
          <dt>{discount.label}</dt>
          <dd className="whitespace-nowrap">−{format(discount.amount)}</dd>
        </div>
      )}
      <div className="flex justify-between">
        <dt>Shipping</dt>
        <dd>{shipping}</dd>
      </div>
      <div className="flex justify-between border-t border-slate-200 pt-2 text-lg font-bold text-navy">
        <dt>Total</dt>
        <dd>{format(total)}</dd>
      </div>
    </dl>
  );
}
