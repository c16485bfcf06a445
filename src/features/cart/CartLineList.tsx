/** Cart lines as "title × quantity … line total": the drawer's other items and the checkout summary. */
import type { ReactNode } from 'react';
import { formatPrice } from '@/lib/format';
import { linePrice, type CartLine } from './cart';
import LinePriceNote from './LinePriceNote';

export default function CartLineList({
  lines,
  className = 'space-y-2',
  format = formatPrice,
  below,
}: {
  lines: readonly CartLine[];
  className?: string;
  format?: (amount: number) => string;
  /** What a line shows under it (the checkout: its quantity field and any stock problem). */
  below?: (line: CartLine) => ReactNode;
}) {
  return (
    <ul className={className}>
      {lines.map((line) => (
        <li key={line.product.id}>
          <div className="flex justify-between gap-3">
            <span>
              {line.product.title} <span className="text-slate-600">× {line.quantity}</span>
              <LinePriceNote line={line} />
            </span>
            <span className="font-semibold">{format(linePrice(line).lineTotal)}</span>
          </div>
          {below?.(line)}
        </li>
      ))}
    </ul>
  );
}
