/**
 * The publisher's international rate card (content/shipping/international-rates.json): a parcel is priced by the
 * first weight band it fits, 30 copies by what 30 copies weigh, over 20 kg as several parcels; each country by its
 * own row or the rest of the world's; and the build refuses a card whose bands or prices do not add up.
 */
import { describe, expect, it } from 'vitest';
import { destinationGroup, type InternationalRateCard, internationalPrice, parcelWeights, RATE_CARD, rateCardProblem } from '@/lib/international-rates';

const CARD: InternationalRateCard = {
  weightBandsKg: [0.5, 1, 2, 5, 20],
  unitedStates: { standard: [20, 30, 40, 60, 150], express: [35, 50, 65, 90, 220] },
  unitedKingdom: { standard: [21, 31, 41, 61, 151], express: [36, 51, 66, 91, 221] },
  canada: { standard: [22, 32, 42, 62, 152], express: [37, 52, 67, 92, 222] },
  newZealand: { standard: [10, 15, 20, 30, 80], express: [18, 25, 32, 45, 120] },
  ireland: { standard: [21, 31, 41, 61, 151], express: [36, 51, 66, 91, 221] },
  restOfWorld: { standard: [25, 35, 45, 70, 170], express: [40, 55, 70, 100, 250] },
};

describe('international rate card', () => {
  it('prices a parcel by the first band its weight fits, band limits included', () => {
    expect(internationalPrice('US', 'standard', 300, CARD)).toBe(20);
    expect(internationalPrice('US', 'standard', 500, CARD)).toBe(20);
    expect(internationalPrice('US', 'standard', 501, CARD)).toBe(30);
    expect(internationalPrice('US', 'express', 1800, CARD)).toBe(65);
    expect(internationalPrice('US', 'standard', 20_000, CARD)).toBe(150);
  });

  it('1 copy and 30 copies of a 300 g book: 30 copies cost what 9 kg costs', () => {
    expect(internationalPrice('US', 'standard', 300, CARD)).toBe(20);
    expect(internationalPrice('US', 'standard', 30 * 300, CARD)).toBe(150);
    expect(internationalPrice('NZ', 'express', 30 * 300, CARD)).toBe(120);
  });

  it('over the last band, as many full parcels as it takes and the rest', () => {
    expect(parcelWeights(29_700, 20_000)).toEqual([20_000, 9_700]);
    expect(parcelWeights(40_000, 20_000)).toEqual([20_000, 20_000]);
    expect(parcelWeights(300, 20_000)).toEqual([300]);
    expect(internationalPrice('US', 'standard', 29_700, CARD)).toBe(150 + 150);
    expect(internationalPrice('US', 'standard', 20_400, CARD)).toBe(150 + 20);
  });

  it('each country its own row; any other the rest of the world’s', () => {
    expect(['US', 'GB', 'CA', 'NZ', 'IE', 'FR', 'jp'].map(destinationGroup)).toEqual(['unitedStates', 'unitedKingdom', 'canada', 'newZealand', 'ireland', 'restOfWorld', 'restOfWorld']);
    expect(internationalPrice('FR', 'standard', 300, CARD)).toBe(25);
  });

  it('the shop’s own card is one the build accepts, and heavier never costs less', () => {
    expect(rateCardProblem(RATE_CARD)).toBeNull();
    for (const country of ['US', 'GB', 'CA', 'NZ', 'IE', 'FR']) {
      expect(internationalPrice(country, 'standard', 9000)).toBeGreaterThan(internationalPrice(country, 'standard', 300));
      expect(internationalPrice(country, 'express', 300)).toBeGreaterThan(internationalPrice(country, 'standard', 300));
    }
  });

  it('refuses bands out of order, a missing price and a heavier band priced lower', () => {
    expect(rateCardProblem({ ...CARD, weightBandsKg: [1, 0.5, 2, 5, 20] })).toMatch(/weightBandsKg/);
    expect(rateCardProblem({ ...CARD, canada: { ...CARD.canada, express: [37, 52, 67, 92] } })).toMatch(/canada\.express: one price per weight band \(5\)/);
    expect(rateCardProblem({ ...CARD, ireland: { ...CARD.ireland, standard: [21, 31, 20, 61, 151] } })).toMatch(/ireland\.standard: .*never less/);
  });
});
