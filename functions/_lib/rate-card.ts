/**
 * The rate card: the flat fallback table and the free-shipping rule (spec sections 8, 9). Free of
 * dependencies, so the checkout page can preview the same prices the server will charge without
 * downloading the server's validation code.
 */
import { SHIPPING, type CountryCode } from '../../src/config/constants';
import type { ShippingQuote } from './providers/types';

export const SHIPPING_RATES_FAILURE_MESSAGE = 'Could not fetch shipping rates.';

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** The flat table from spec section 9: used when live rates fail, and as the embedded default. */
export function fallbackQuotes(country: CountryCode): ShippingQuote[] {
  const rate = country === 'AU' ? SHIPPING.fallback.domestic : SHIPPING.fallback.international;
  return [
    {
      id: rate.id,
      plan_name: rate.name,
      carrier: SHIPPING.defaultCarrier,
      is_satchel: false,
      satchel_size: null,
      price: rate.price,
      eta: { days_range: rate.etaDays, date_range: '' },
    },
  ];
}

/** Free shipping: AU destinations with a subtotal of at least the threshold; never abroad. Compared in cents. */
export function applyFreeShipping(quotes: readonly ShippingQuote[], order: { country: CountryCode | string; subtotal: number }): ShippingQuote[] {
  const free = order.country === 'AU' && toCents(order.subtotal) >= toCents(SHIPPING.freeShippingThreshold);
  return quotes.map((quote) => (free ? { ...quote, price: 0 } : { ...quote }));
}
