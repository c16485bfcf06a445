/** Subtotal, shipping and total, as the cart page and the checkout's order summary show them. */
import type { ReactNode } from 'react';
import { formatPrice } from '@/lib/format';

export default function SummaryTotals({ subtotal, shipping, total, className = '' }: { subtotal: number; shipping: ReactNode; total: number; className?: string }) {
  return (
    <dl className={`space-y-2 ${className}`}>
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd>{formatPrice(subtotal)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>Shipping</dt>
        <dd>{shipping}</dd>
      </div>
      <div className="flex justify-between border-t border-slate-200 pt-2 text-lg font-bold text-navy">
        <dt>Total</dt>
        <dd>{formatPrice(total)}</dd>
      </div>
    </dl>
  );
}
