import { SHIPPING, type CountryCode } from '@/config/constants';

/**
 * The flat rate card's services to a country, cheapest first: Australia Post's standard and express at home,
 * one international rate abroad. The checkout's fallback options and the structured data's shipping rates.
 */
export function rateCard(country: CountryCode) {
  return country === 'AU'
    ? [
        { rate: SHIPPING.fallback.domestic, service: 'standard' as const },
        { rate: SHIPPING.fallback.express, service: 'express' as const },
      ]
    : [{ rate: SHIPPING.fallback.international, service: 'standard' as const }];
}
