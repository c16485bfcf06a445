/**
 * Under a cart line: the quantity price it reached and what it saves, and at the most copies one order takes, a
 * link to ask for a quote. The cart page and the checkout summary show it; the drawer writes the same words.
 */
import { needsQuote, quoteRequestPath, tierNote } from '@/features/catalog/quantity-prices';
import { linePrice, type CartLine } from './cart';

export default function LinePriceNote({ line }: { line: CartLine }) {
  const note = tierNote(linePrice(line));
  return (
    <>
      {note && (
        <span className="block text-sm font-semibold text-emerald-800" data-testid="tier-note">
          {note}
        </span>
      )}
      {needsQuote(line.quantity) && (
        <a href={quoteRequestPath(line.product.title)} className="block text-sm font-semibold text-navy underline underline-offset-4">
          More than {line.quantity} copies? Request a quote
        </a>
      )}
    </>
  );
}
