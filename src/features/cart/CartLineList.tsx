/** Cart lines as "title × quantity … line total": the drawer's other items and the checkout summary. */
import { formatPrice } from '@/lib/format';
import { linePrice, type CartLine } from './cart';
import LinePriceNote from './LinePriceNote';

export default function CartLineList({ lines, className = 'space-y-2', format = formatPrice }: { lines: readonly CartLine[]; className?: string; format?: (amount: number) => string }) {
  return (
    <ul className={className}>
      {lines.map((line) => (
        <li key={line.product.id} className="flex justify-between gap-3">
          <span>
            {line.product.title} <span className="text-slate-600">× {line.quantity}</span>
            <LinePriceNote line={line} />
          </span>
          <span className="font-semibold">{format(linePrice(line).lineTotal)}</span>
        </li>
      ))}
    </ul>
  );
}
