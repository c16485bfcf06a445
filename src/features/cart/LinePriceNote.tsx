/**
 * Under a cart line on the cart page and in the checkout's summary: its notes (line-notes.ts, which the drawer
 * draws too): that it is a pre-order and when it ships, the quantity price it reached, and a link to ask for a quote.
 */
import type { CartLine } from './cart';
import { lineNotes } from './line-notes';

export default function LinePriceNote({ line }: { line: CartLine }) {
  return (
    <>
      {lineNotes(line).map((note) =>
        note.href ? (
          <a key={note.kind} href={note.href} className={note.className}>
            {note.text}
          </a>
        ) : (
          <span key={note.kind} className={note.className} data-testid={note.testId}>
            {note.text}
          </span>
        ),
      )}
    </>
  );
}
