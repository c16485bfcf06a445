/**
 * What is said under a cart line, wherever one is shown: that it is a pre-order and when it ships, the quantity
 * price it reached and what it saves, and at the most copies one order takes, a link to ask for a quote. One list
 * with its words and looks, drawn by the cart page and the checkout's summary (LinePriceNote, React) and by the
 * drawer, which starts no React (lineNoteElement).
 */
import { preorderLineNote } from '@/features/catalog/preorder-text';
import { needsQuote, quoteRequestPath, tierNote } from '@/features/catalog/quantity-prices';
import { linePrice, type CartLine } from './cart';

export interface LineNote {
  kind: 'preorder' | 'tier' | 'quote';
  text: string;
  className: string;
  /** The quote's link. */
  href?: string;
  /** What tests find it by. */
  testId?: string;
}

export function lineNotes(line: CartLine): LineNote[] {
  const notes: LineNote[] = [];
  if (line.product.releaseDate !== undefined) {
    notes.push({ kind: 'preorder', text: preorderLineNote(line.product.releaseDate), className: 'block text-sm font-semibold text-navy', testId: 'preorder-note' });
  }
  const tier = tierNote(linePrice(line));
  if (tier) notes.push({ kind: 'tier', text: tier, className: 'block text-sm font-semibold text-emerald-800', testId: 'tier-note' });
  if (needsQuote(line.quantity)) {
    notes.push({
      kind: 'quote',
      text: `More than ${line.quantity} copies? Request a quote`,
      className: 'block text-sm font-semibold text-navy underline underline-offset-4',
      href: quoteRequestPath(line.product.title),
    });
  }
  return notes;
}

/** A note as an element, for the drawer (`extra`: its spacing there). */
export function lineNoteElement(note: LineNote, extra = ''): HTMLElement {
  const el = document.createElement(note.href ? 'a' : 'span');
  el.className = `${note.className} ${extra}`.trim();
  el.textContent = note.text;
  if (note.href) el.setAttribute('href', note.href);
  if (note.testId) el.dataset.testid = note.testId;
  return el;
}
