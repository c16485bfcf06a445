/**
 * Shipping rates: what a carrier adapter answers, and the local default, the shop's rate card. The
 * quote shape is the checkout's contract with the page (src/features/checkout/contract.ts).
 */
import { z } from 'zod';
import type { CountryCode } from '../../../src/config/constants';
import type { SatchelSize, ShippingQuote, ShippingService } from '../../../src/features/checkout/contract';
import { fallbackQuotes } from '../../../src/features/checkout/fallback-quotes';

export type { SatchelSize, ShippingQuote, ShippingService };

/**
 * A price as carriers send it: a number or a numeric string ("15.05"). Only those: a null or empty price
 * must never turn into a free $0 option.
 */
export const carrierPrice = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number().nonnegative());

/** One parcel, described the way carriers price it. */
export interface ParcelRequest {
  fromPostcode: string;
  toPostcode: string;
  toSuburb?: string;
  toState?: string;
  country: CountryCode;
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

export interface ShippingRatesProvider {
  name: string;
  /** Quotes for one parcel. Throws (a ProviderError) when the carrier cannot answer. */
  quote(request: ParcelRequest): Promise<ShippingQuote[]>;
}

/** The default without a carrier account: the rate card is the price list itself (abroad, by weight). */
export const flatRateShipping: ShippingRatesProvider = {
  name: 'flat-rate',
  async quote(request) {
    return fallbackQuotes(request.country, request.weightGrams);
  },
};
