/**
 * What an offer shows, in one word: in stock, sold out, on pre-order, or its pre-orders full. The markup marks
 * what shows in which (`data-show-when="preorder preorder-full"`), the purchase controls draw it from the live
 * answer, and the structured data and the merchant feed state its availability from the same rule.
 */
import type { OfferAvailability, StructuredOffer } from '@/lib/structured-data';
import { copiesAvailable, isPreorder, type Product } from './product';

export type OfferState = 'in-stock' | 'sold-out' | 'preorder' | 'preorder-full';

export type OfferFacts = Pick<Product, 'stock' | 'releaseDate' | 'preorderLeft'>;

export function offerState(product: OfferFacts): OfferState {
  const available = copiesAvailable(product) > 0;
  if (isPreorder(product)) return available ? 'preorder' : 'preorder-full';
  return available ? 'in-stock' : 'sold-out';
}

/** Whether the offer can be added to the cart: in stock, or pre-order copies left. */
export const canBuy = (state: OfferState) => state === 'in-stock' || state === 'preorder';

/** Whether an element marked `data-show-when` (one or more states, space-separated) shows in `state`. */
export const showsIn = (showWhen: string | undefined, state: OfferState) => (showWhen ?? '').split(/\s+/).includes(state);

/** Where the offer stands for search engines and shopping feeds: a pre-order while copies are left to pre-order. */
export function availabilityOf(product: OfferFacts): OfferAvailability {
  const state = offerState(product);
  return state === 'preorder' ? 'preorder' : canBuy(state) ? 'in_stock' : 'out_of_stock';
}

/** The offer as a page's structured data states it. */
export const structuredOffer = (product: OfferFacts): StructuredOffer => ({ availability: availabilityOf(product), releaseDate: product.releaseDate });

/** The marks of an element that shows only in `states` (space-separated), drawn at build for `state`. */
export const showWhen = (states: string, state: OfferState) => ({ 'data-show-when': states, hidden: !showsIn(states, state) });
