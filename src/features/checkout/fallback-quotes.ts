/**
 * The rate card's delivery options: what the functions charge when live rates fail or no carrier is set, the
 * product feed's shipping, and the checkout page's fallback (loaded only when it needs one, as the international
 * card is no part of the page's first download).
 */
import type { CountryCode } from '@/config/constants';
import { SHIPPING } from '@/config/constants';
import { rateCard } from '@/lib/rate-card';
import type { ShippingQuote } from './contract';
import { deliveryEstimate } from './delivery-estimates';

/**
 * The rate card: used when live rates fail, and as the local default. Australian addresses get Australia Post's
 * two domestic services, standard and express, at flat prices; abroad, International Standard and Express priced
 * by the parcel's weight in grams (the publisher's card).
 */
export function fallbackQuotes(country: CountryCode, weightGrams = 0): ShippingQuote[] {
  // Each option says how long it takes to reach this country, as the publisher states it.
  return rateCard(country, weightGrams).map(({ rate, service }) => ({
    id: rate.id,
    plan_name: rate.name,
    carrier: SHIPPING.defaultCarrier,
    is_satchel: false,
    satchel_size: null,
    service,
    price: rate.price,
    eta: { days_range: deliveryEstimate(country, service), date_range: '' },
  }));
}
