/**
 * The checkout's contract: what the checkout page and the server functions must agree on — the shapes of a
 * delivery option and an address, the free-shipping rule, and the
 * messages both sides show. The page imports it to preview the prices the server will charge, and the
 * functions import it to charge them; it depends on nothing but the business constants and the stated
 * delivery times, so the page downloads no server code with it.
 */
import { SHIPPING, type CountryCode } from '@/config/constants';
import { toCents } from '@/lib/money';

export type SatchelSize = (typeof SHIPPING.satchelSizes)[number];
/** Standard services may ship free; faster ones (Express Post, courier) are always charged. */
export type ShippingService = 'standard' | 'express';

/** A delivery option as the checkout shows it. Prices are AUD, in dollars. */
export interface ShippingQuote {
  id: string;
  plan_name: string;
  carrier: string;
  is_satchel: boolean;
  satchel_size: SatchelSize | null;
  service: ShippingService;
  price: number;
  eta: { days_range: string; date_range: string };
}

/** An address as the lookup returns it. `state` is an AU state code for Australian addresses. */
export interface NormalisedAddress {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

export interface AddressSuggestion {
  place_id: string;
  description: string;
}

/** What the checkout tells the shopper, on the page before sending and from the server after. */
export const CHECKOUT_MESSAGES = {
  emptyCart: 'Your cart is empty',
  address: 'Please complete your shipping address',
  email: 'Please enter a valid email address',
  method: 'Please select a shipping method',
  /** The delivery option chosen is no longer offered; the current ones come with it. */
  optionsChanged: 'The delivery options for your address have changed. Please choose one again.',
  ratesFailed: 'Could not fetch shipping rates.',
  /** Another tab of the same cart opened its payment page in the same moment. */
  cartCheckoutOpen: 'The payment page for this cart is being opened in another tab. Please try again in a moment.',
  /** The older payment page of this cart was paid before it could be closed. */
  cartAlreadyPaid: 'This cart has just been paid for on its payment page in another tab. Check your email for the confirmation.',
  /** The payment provider could not close the cart's older payment page, so no second one is opened. */
  cartPageNotClosed: 'We could not close this cart’s payment page that is open in another tab. Please pay there, or try again in a minute.',
} as const;

/**
 * Address and courier look-ups: accepted only with a session the checkout page was given (bound to the visitor's
 * cookie, expiring), and at most `perMinute` of each kind a minute per visitor. A refusal for the session names
 * `sessionRefused` as its `code`, and the page asks for a new session once before giving up.
 */
export const LOOKUP_SESSION = {
  path: '/api/lookup-session',
  perMinute: 60,
  sessionRefused: 'lookup-session',
} as const;

/** The checkout's id of the shopper's cart: one cart, one payment page open (the server finds it by this id). */
export const CART_ID_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * Free shipping: the standard service to AU destinations with a subtotal of at least the threshold; never
 * abroad, and never the faster services, which keep their price. The subtotal from which `quote` is free to
 * `country`, or null when it never is: the invoices' pricing in the database compares its own subtotal with it.
 */
export function freeShippingFrom(quote: Pick<ShippingQuote, 'service'>, country: CountryCode | string): number | null {
  return country === 'AU' && quote.service === 'standard' ? SHIPPING.freeShippingThreshold : null;
}

/** The rule above applied to the quotes for an order's subtotal, compared in cents. */
export function applyFreeShipping(quotes: readonly ShippingQuote[], order: { country: CountryCode | string; subtotal: number }): ShippingQuote[] {
  return quotes.map((quote) => {
    const from = freeShippingFrom(quote, order.country);
    return from !== null && toCents(order.subtotal) >= toCents(from) ? { ...quote, price: 0 } : { ...quote };
  });
}
