/**
 * A cart holding a pre-order: when the order ships (once, when its last title is out, with everything else in it)
 * and, at the checkout, that the card is charged today. Shown by the cart page's and the checkout's summaries.
 */
import { CHARGED_TODAY, shipsOnceText } from '@/features/catalog/preorder-text';
import { awaitedPreorder, type CartLine } from './cart';

export default function PreorderNotice({ lines, charge = false, className = '' }: { lines: readonly CartLine[]; charge?: boolean; className?: string }) {
  const awaited = awaitedPreorder(lines);
  if (!awaited) return null;
  return (
    <div className={`rounded-xl bg-sky/60 p-4 text-sm text-navy ring-1 ring-sky ${className}`} data-testid="preorder-notice">
      <p className="font-semibold">{shipsOnceText(awaited.title, awaited.releaseDate, lines.length > 1)}</p>
      {charge && <p className="mt-1">{CHARGED_TODAY}</p>}
    </div>
  );
}
