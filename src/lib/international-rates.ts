/**
 * Australia Post's International Standard and Express, priced from the publisher's rate card
 * (content/shipping/international-rates.json) by destination and weight: what abroad costs when Australia Post's
 * own prices cannot be had, and the page's preview before the server answers. 30 copies cost what 30 copies weigh.
 * JSON, so the page (Vite) and the functions (esbuild) import the same file; the build checks it
 * (`internationalRates` in src/content.config.ts, with rateCardProblem).
 */
import card from '../../content/shipping/international-rates.json' with { type: 'json' };
import { fromCents, toCents } from './money';

export type InternationalService = 'standard' | 'express';
export type DestinationGroup = 'unitedStates' | 'unitedKingdom' | 'canada' | 'newZealand' | 'ireland' | 'restOfWorld';
const DESTINATION_GROUPS: readonly DestinationGroup[] = ['unitedStates', 'unitedKingdom', 'canada', 'newZealand', 'ireland', 'restOfWorld'];

type ServicePrices = Record<InternationalService, number[]>;
export type InternationalRateCard = { weightBandsKg: number[] } & Record<DestinationGroup, ServicePrices>;

/** The card's two services as the checkout lists them (ids apart from Australia Post's codes, so a change of source shows). */
export const INTERNATIONAL_SERVICES: Record<InternationalService, { id: string; name: string }> = {
  standard: { id: 'international-standard', name: 'International Standard' },
  express: { id: 'international-express', name: 'International Express' },
};

/** Which row a country is priced by (ISO 3166-1 alpha-2); any other country, the rest of the world's. */
const GROUP_OF: Record<string, DestinationGroup> = { US: 'unitedStates', GB: 'unitedKingdom', CA: 'canada', NZ: 'newZealand', IE: 'ireland' };
export const destinationGroup = (country: string): DestinationGroup => GROUP_OF[country.toUpperCase()] ?? 'restOfWorld';

export const RATE_CARD = card as unknown as InternationalRateCard;

/** Australia Post takes international parcels up to 20 kg: the card's last band. */
const maxParcelGrams = (table: InternationalRateCard = RATE_CARD) => Math.round(table.weightBandsKg.at(-1)! * 1000);

/** A heavier order goes as several parcels: as many full ones as it takes, then the rest. */
export function parcelWeights(weightGrams: number, maxGrams: number): number[] {
  const weight = Math.max(0, weightGrams);
  const full = Math.floor(weight / maxGrams);
  const rest = Math.round(weight - full * maxGrams);
  return [...Array<number>(full).fill(maxGrams), ...(rest > 0 || full === 0 ? [rest] : [])];
}

/** The card's price of one parcel of this weight: the first band it fits. */
function bandPrice(prices: readonly number[], weightGrams: number, table: InternationalRateCard): number {
  const band = table.weightBandsKg.findIndex((upTo) => weightGrams <= Math.round(upTo * 1000));
  return prices[band === -1 ? prices.length - 1 : band]!;
}

/** What the card charges to send this weight to a country by a service, in AUD. */
export function internationalPrice(country: string, service: InternationalService, weightGrams: number, table: InternationalRateCard = RATE_CARD): number {
  const prices = table[destinationGroup(country)][service];
  const cents = parcelWeights(weightGrams, maxParcelGrams(table)).reduce((sum, parcel) => sum + toCents(bandPrice(prices, parcel, table)), 0);
  return fromCents(cents);
}

/** What is wrong with a rate card, for the build to say; null when it is right. */
export function rateCardProblem(table: InternationalRateCard): string | null {
  const bands = table.weightBandsKg;
  if (!Array.isArray(bands) || bands.length === 0) return 'weightBandsKg: list at least one weight, in kg';
  if (bands.some((kg, i) => !(kg > 0) || (i > 0 && kg <= bands[i - 1]!))) return 'weightBandsKg: each band heavier than the one before, e.g. [0.5, 1, 2]';
  for (const group of DESTINATION_GROUPS) {
    for (const service of ['standard', 'express'] as const) {
      const prices = table[group]?.[service];
      if (!Array.isArray(prices) || prices.length !== bands.length) return `${group}.${service}: one price per weight band (${bands.length})`;
      if (prices.some((price, i) => !(price > 0) || (i > 0 && price < prices[i - 1]!))) return `${group}.${service}: prices above 0, never less for a heavier band`;
    }
  }
  return null;
}
