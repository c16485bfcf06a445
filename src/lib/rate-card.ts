import { SHIPPING, type CountryCode } from '@/config/constants';
import { INTERNATIONAL_SERVICES, internationalPrice } from './international-rates';

/**
 * The rate card's services to a country, cheapest first: Australia Post's standard and express at home; abroad,
 * its International Standard and Express priced by the parcel's weight (grams) from the publisher's card. The
 * checkout's fallback options and the structured data's shipping rates (one copy's weight there).
 */
export function rateCard(country: CountryCode, weightGrams = 0) {
  if (country === 'AU') {
    return [
      { rate: SHIPPING.fallback.domestic, service: 'standard' as const },
      { rate: SHIPPING.fallback.express, service: 'express' as const },
    ];
  }
  return (['standard', 'express'] as const).map((service) => ({
    rate: { ...INTERNATIONAL_SERVICES[service], price: internationalPrice(country, service, weightGrams) },
    service,
  }));
}
