/**
 * Under a cart line: that it is a pre-order and when it ships, the quantity price it reached and what it saves,
 * and at the most copies one order takes, a link to ask for a quote. The cart page and the checkout summary show
 * it; the drawer writes the same price words.
 */
import { preorderLineNote } from '@/features/catalog/preorder-text';
import { needsQuote, quoteRequestPath, tierNote } from '@/features/catalog/quantity-prices';
import { linePrice, type CartLine } from './cart';

export default function LinePriceNote({ line }: { line: CartLine }) {
  const note = tierNote(linePrice(line));
  return (
    <>
      {line.product.releaseDate !== undefined && (
        <span className="block text-sm font-semibold text-navy" data-testid="preorder-note">
          {preorderLineNote(line.product.releaseDate)}
        </span>
      )}
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
