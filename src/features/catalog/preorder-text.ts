/**
 * The words a title on pre-order is offered, carted and checked out with, each from its release date
 * ('YYYY-MM-DD'), written once for the pages, the cart, the checkout and the order's status.
 */
import { formatLongDate } from '@/lib/format';

/** The button that adds a title on pre-order to the cart (the same action as Add to Cart). */
export const PREORDER_LABEL = 'Pre-order';
/** The button once every allocated copy is pre-ordered. */
export const PREORDERS_FULL_LABEL = 'Pre-orders are full';

/** Under the offer: "Out 1 June 2027 — ships that week". */
export const releaseLine = (releaseDate: string) => `Out ${formatLongDate(releaseDate)} — ships that week`;

/** Under a cart or checkout line: "Pre-order: ships when it is out, 1 June 2027". */
export const preorderLineNote = (releaseDate: string) => `Pre-order: ships when it is out, ${formatLongDate(releaseDate)}`;

/** A paid order holding a pre-order, on its confirmation: "Pre-ordered: ships with <title>, out 1 June 2027". */
export const preorderedLine = (title: string, releaseDate: string) => `Pre-ordered: ships with ${title}, out ${formatLongDate(releaseDate)}`;

/**
 * A cart holding a pre-order ships once, when its last title is out: the one parcel, label and customs form the
 * publisher pays for. Holding books in stock too, the shopper is told they wait for it.
 */
export function shipsOnceText(title: string, releaseDate: string, withOthers: boolean): string {
  const when = `when ${title} is out, ${formatLongDate(releaseDate)}`;
  return withOthers ? `Your order ships once, ${when}: everything in it goes together, in one parcel.` : `Your order ships ${when}.`;
}

/** Paid today, sent later: said plainly before the payment page. */
export const CHARGED_TODAY = 'Your card is charged today, when you pay, not when the book ships.';
