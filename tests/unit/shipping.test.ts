/** Shipping rules: normalised quotes, the fallback table, free shipping, the parcel. */
import { internationalPrice } from '@/lib/international-rates';
import { describe, expect, it } from 'vitest';
import { ALLOWED_COUNTRIES, SHIPPING } from '@/config/constants';
import { readFileSync } from 'node:fs';
import { deliveryEstimate, orderDeliveryEstimate } from '@/features/checkout/delivery-estimates';
import { ProviderError } from '../../functions/_lib/providers/errors';
import { flatRateShipping, type ParcelRequest, type ShippingQuote, type ShippingRatesProvider } from '../../functions/_lib/providers/shipping-rates';
import { applyFreeShipping, fallbackQuotes, normaliseQuotes, parcelForCart, quoteShipping, SHIPPING_RATES_FAILURE_MESSAGE } from '../../functions/_lib/shipping';

const quote = (overrides: Partial<ShippingQuote>): ShippingQuote => ({
  id: 'q',
  plan_name: 'Parcel Post',
  carrier: 'Australia Post',
  is_satchel: false,
  satchel_size: null,
  service: 'standard',
  price: 10,
  eta: { days_range: '2-4 business days', date_range: '' },
  ...overrides,
});

describe('normaliseQuotes', () => {
  it('sorts by ascending price and removes duplicates of the same plan, price and satchel', () => {
    const result = normaliseQuotes([
      quote({ id: 'express', plan_name: 'Express Post', price: 21.45 }),
      quote({ id: 'regular', plan_name: 'Parcel Post', price: 15.05 }),
      quote({ id: 'regular-again', plan_name: 'parcel post ', price: 15.05 }),
      quote({ id: 'satchel', plan_name: 'Parcel Post', price: 15.05, is_satchel: true, satchel_size: 'small' }),
      quote({ id: 'cheap', plan_name: 'Economy', price: 9.5 }),
    ]);
    expect(result.map((q) => q.id)).toEqual(['cheap', 'regular', 'satchel', 'express']);
  });

  it('keeps the same plan at different prices, and equal prices in the order given', () => {
    const result = normaliseQuotes([quote({ id: 'a', price: 12 }), quote({ id: 'b', price: 11 }), quote({ id: 'c', plan_name: 'Other', price: 12 })]);
    expect(result.map((q) => q.id)).toEqual(['b', 'a', 'c']);
  });

  it('accepts eta { days_range, date_range } and plan_name', () => {
    expect(normaliseQuotes([{ id: 'x', plan_name: 'Courier', price: 30, eta: { days_range: '1-2 business days', date_range: 'Tue 24 Nov - Wed 25 Nov' } }])).toEqual([
      {
        id: 'x',
        plan_name: 'Courier',
        carrier: SHIPPING.defaultCarrier,
        is_satchel: false,
        satchel_size: null,
        service: 'standard',
        price: 30,
        eta: { days_range: '1-2 business days', date_range: 'Tue 24 Nov - Wed 25 Nov' },
      },
    ]);
  });

  it('accepts the flat eta_days_range / eta_date_range form and plan', () => {
    expect(normaliseQuotes([{ id: 'y', plan: 'Standard', price: '8.95', is_satchel: true, satchel_size: 'medium', eta_days_range: '3-5 business days', eta_date_range: '26-28 Nov' }])).toEqual([
      {
        id: 'y',
        plan_name: 'Standard',
        carrier: SHIPPING.defaultCarrier,
        is_satchel: true,
        satchel_size: 'medium',
        service: 'standard',
        price: 8.95,
        eta: { days_range: '3-5 business days', date_range: '26-28 Nov' },
      },
    ]);
  });

  it('fills in what is missing: an id from the name, the default estimate, satchel from its size', () => {
    const [result] = normaliseQuotes([{ plan_name: 'Large Satchel', price: 12, satchel_size: 'large' }]);
    expect(result).toMatchObject({ id: 'large-satchel', is_satchel: true, eta: { days_range: deliveryEstimate('AU', 'standard'), date_range: '' } });
  });

  it('drops entries without a name or a usable price instead of offering them', () => {
    expect(normaliseQuotes([{ price: 5 }, { plan_name: 'A', price: null }, { plan_name: 'B', price: 'soon' }, { plan_name: 'C', price: -1 }, { plan_name: 'D' }, null, 'x'])).toEqual([]);
  });

  it('rounds prices to cents, so 15.049999 and 15.05 are one option', () => {
    const result = normaliseQuotes([quote({ price: 15.049999 }), quote({ price: 15.05 })]);
    expect(result).toHaveLength(1);
    expect(result[0]!.price).toBe(15.05);
  });
});

describe('fallbackQuotes', () => {
  it('AU: Australia Post’s two domestic services, AU Standard Courier at 15 AUD (3-7 business days) and AU Express Courier at 25 AUD (1-3)', () => {
    expect(fallbackQuotes('AU')).toEqual([
      {
        id: 'au-standard',
        plan_name: 'AU Standard Courier',
        carrier: 'Australia Post',
        is_satchel: false,
        satchel_size: null,
        service: 'standard',
        price: 15,
        eta: { days_range: '3-7 business days', date_range: '' },
      },
      {
        id: 'au-express',
        plan_name: 'AU Express Courier',
        carrier: 'Australia Post',
        is_satchel: false,
        satchel_size: null,
        service: 'express',
        price: 25,
        eta: { days_range: '1-3 business days', date_range: '' },
      },
    ]);
  });

  it.each(ALLOWED_COUNTRIES.filter((c) => c !== 'AU'))('%s: International Standard and Express from the rate card for the weight, with the range stated for the country', (country) => {
    expect(fallbackQuotes(country, 300)).toEqual([
      expect.objectContaining({
        id: 'international-standard',
        plan_name: 'International Standard',
        carrier: 'Australia Post',
        service: 'standard',
        price: internationalPrice(country, 'standard', 300),
      }),
      expect.objectContaining({ id: 'international-express', plan_name: 'International Express', carrier: 'Australia Post', service: 'express', price: internationalPrice(country, 'express', 300) }),
    ]);
    const range = fallbackQuotes(country, 300)[0]!.eta.days_range;
    expect(range).toMatch(/^\d+-\d+ business days$/);
    expect(range).toBe(deliveryEstimate(country));
  });
});

describe('delivery estimates: content/shipping/delivery-estimates.json', () => {
  const file = JSON.parse(readFileSync('content/shipping/delivery-estimates.json', 'utf8')) as Record<string, unknown>;
  const words = ([min, max]: [number, number]) => `${min}-${max} business days`;
  it('each destination shows its own group’s range from the file, one per service', () => {
    const groups = { AU: 'australia', US: 'unitedStates', GB: 'unitedKingdom', CA: 'canada', NZ: 'newZealand', IE: 'ireland', FR: 'restOfWorld' } as const;
    for (const [country, group] of Object.entries(groups)) {
      const ranges = file[group] as Record<'standard' | 'express', [number, number]>;
      expect(deliveryEstimate(country), country).toBe(words(ranges.standard));
      expect(deliveryEstimate(country, 'express'), country).toBe(words(ranges.express));
      // Express promises a faster delivery than Standard, abroad too.
      expect(ranges.express[1], country).toBeLessThan(ranges.standard[1]);
    }
  });
  it('International Express on the rate card carries its own estimate, not Standard’s', () => {
    const [standard, express] = fallbackQuotes('GB', 300);
    expect(standard!.eta.days_range).toBe(deliveryEstimate('GB', 'standard'));
    expect(express!.eta.days_range).toBe(deliveryEstimate('GB', 'express'));
    expect(express!.eta.days_range).not.toBe(standard!.eta.days_range);
  });
  it('no option anywhere says the time is confirmed after purchase', () => {
    for (const country of ALLOWED_COUNTRIES) for (const q of fallbackQuotes(country)) expect(q.eta.days_range, country).not.toMatch(/confirm/i);
  });
  it('an order shows the estimate it was placed with; one without (or with the old words) shows its country’s range', () => {
    expect(orderDeliveryEstimate({ country: 'US', estimatedDelivery: '2-4 business days' })).toBe('2-4 business days');
    expect(orderDeliveryEstimate({ country: 'US', estimatedDelivery: 'Confirmed by the seller after purchase' })).toBe(deliveryEstimate('US'));
    expect(orderDeliveryEstimate({ country: 'GB' })).toBe(deliveryEstimate('GB'));
    expect(orderDeliveryEstimate({ country: 'AU', methodId: 'au-express', estimatedDelivery: '' })).toBe(deliveryEstimate('AU', 'express'));
    expect(orderDeliveryEstimate({ country: 'GB', methodId: 'international-express' })).toBe(deliveryEstimate('GB', 'express'));
    expect(orderDeliveryEstimate({ country: 'US', methodId: 'INT_PARCEL_EXP_OWN_PACKAGING' })).toBe(deliveryEstimate('US', 'express'));
  });
});

describe('applyFreeShipping', () => {
  const quotes = [quote({ price: 15 }), quote({ id: 'parcel-satchel', price: 21.45 })];

  it('AU at exactly 75 AUD: every standard option is free', () => {
    expect(applyFreeShipping(quotes, { country: 'AU', subtotal: 75 }).map((q) => q.price)).toEqual([0, 0]);
  });

  it('AU at 75 AUD or more: express services keep their price', () => {
    const withExpress = [...quotes, quote({ id: 'AUS_PARCEL_EXPRESS', plan_name: 'Express Post', service: 'express', price: 18.6 })];
    expect(applyFreeShipping(withExpress, { country: 'AU', subtotal: 120 }).map((q) => q.price)).toEqual([0, 0, 18.6]);
  });

  it('quotes that do not say their service are express when their name says so', () => {
    expect(
      normaliseQuotes([
        { plan_name: 'Express Post', price: 18 },
        { plan_name: 'Parcel Post', price: 11 },
        { plan_name: 'Priority Satchel', price: 14 },
      ]).map((q) => [q.plan_name, q.service]),
    ).toEqual([
      ['Parcel Post', 'standard'],
      ['Priority Satchel', 'express'],
      ['Express Post', 'express'],
    ]);
  });

  it('AU at 74.99 AUD: prices unchanged', () => {
    expect(applyFreeShipping(quotes, { country: 'AU', subtotal: 74.99 }).map((q) => q.price)).toEqual([15, 21.45]);
  });

  it('a subtotal of 75 summed in floating point (64.13 + 10.85 + 0.02 = 74.99999999999999) still counts as 75', () => {
    const subtotal = 64.13 + 10.85 + 0.02;
    expect(subtotal).toBeLessThan(75);
    expect(applyFreeShipping(quotes, { country: 'AU', subtotal }).map((q) => q.price)).toEqual([0, 0]);
  });

  it.each(ALLOWED_COUNTRIES.filter((c) => c !== 'AU'))('never free to %s, whatever the subtotal', (country) => {
    expect(applyFreeShipping(fallbackQuotes(country, 300), { country, subtotal: 500 })[0]!.price).toBe(internationalPrice(country, 'standard', 300));
  });

  it('does not change the quotes it was given', () => {
    applyFreeShipping(quotes, { country: 'AU', subtotal: 100 });
    expect(quotes[0]!.price).toBe(15);
  });
});

describe('quoteShipping', () => {
  const request: ParcelRequest = { fromPostcode: SHIPPING.pickupPostcode, toPostcode: '3000', country: 'AU', weightGrams: 300, lengthCm: 21.6, widthCm: 21.6, heightCm: 0.6 };
  const provider = (answer: () => Promise<unknown[]>): ShippingRatesProvider & { calls: number } => {
    const p = {
      name: 'fake',
      calls: 0,
      async quote() {
        p.calls += 1;
        return (await answer()) as ShippingQuote[];
      },
    };
    return p;
  };

  it('no provider configured: the fallback table itself, not reported as a failure', async () => {
    expect(await quoteShipping(flatRateShipping, request, 22)).toEqual({ quotes: fallbackQuotes('AU'), fallback: false });
    expect(await quoteShipping(flatRateShipping, { ...request, country: 'US', toPostcode: '10001' }, 22)).toEqual({ quotes: fallbackQuotes('US', 300), fallback: false });
  });

  it('live quotes are normalised (deduplicated, sorted)', async () => {
    const live = provider(async () => [quote({ id: 'b', price: 20 }), quote({ id: 'a', price: 10 }), quote({ id: 'a2', price: 10 })]);
    const result = await quoteShipping(live, request, 22);
    expect(result.fallback).toBe(false);
    expect(result.quotes.map((q) => q.id)).toEqual(['a', 'b']);
  });

  it('abroad: the carrier is asked too, and a failure falls back to the rate card for the weight', async () => {
    const live = provider(async () => [quote({ id: 'INT_PARCEL_STD_OWN_PACKAGING', plan_name: 'International Standard', price: 31.2 })]);
    const nz = { ...request, country: 'NZ' as const, toPostcode: '6011', weightGrams: 9000 };
    expect((await quoteShipping(live, nz, 200)).quotes.map((q) => [q.id, q.price])).toEqual([['INT_PARCEL_STD_OWN_PACKAGING', 31.2]]);
    expect(live.calls).toBe(1);
    const failing = provider(async () => {
      throw new ProviderError('fake', 503, 'Service Unavailable');
    });
    expect(await quoteShipping(failing, nz, 200)).toEqual({ quotes: fallbackQuotes('NZ', 9000), fallback: true, message: SHIPPING_RATES_FAILURE_MESSAGE });
  });

  it("a provider error: the fallback table with the shop's message", async () => {
    const failing = provider(async () => {
      throw new ProviderError('fake', 503, 'Service Unavailable');
    });
    expect(await quoteShipping(failing, request, 22)).toEqual({ quotes: fallbackQuotes('AU'), fallback: true, message: SHIPPING_RATES_FAILURE_MESSAGE });
    expect(SHIPPING_RATES_FAILURE_MESSAGE).toBe('Could not fetch shipping rates.');
  });

  it("a provider error meant for the shopper: the fallback table with the provider's message", async () => {
    const failing = provider(async () => {
      throw new ProviderError('fake', 404, 'PAC: Please enter a valid To postcode.', { userMessage: 'Please enter a valid To postcode.' });
    });
    expect(await quoteShipping(failing, request, 22)).toMatchObject({ fallback: true, message: 'Please enter a valid To postcode.' });
  });

  it('an empty answer counts as a failure: the shopper must have something to choose', async () => {
    expect(
      await quoteShipping(
        provider(async () => []),
        request,
        22,
      ),
    ).toMatchObject({ quotes: fallbackQuotes('AU'), fallback: true });
  });

  it('free shipping is applied last, to live and fallback quotes alike', async () => {
    const live = provider(async () => [quote({ price: 11.6 })]);
    expect((await quoteShipping(live, request, 75)).quotes.map((q) => q.price)).toEqual([0]);
    const failing = provider(async () => {
      throw new Error('socket hang up');
    });
    // Express keeps its price over the threshold.
    expect(await quoteShipping(failing, request, 80)).toMatchObject({
      fallback: true,
      quotes: [expect.objectContaining({ id: 'au-standard', price: 0 }), expect.objectContaining({ id: 'au-express', price: 25 })],
    });
    expect((await quoteShipping(flatRateShipping, request, 74.99)).quotes[0]!.price).toBe(15);
  });
});

describe('parcelForCart', () => {
  const book = { weight: 300, dimensions: { length: 21.6, width: 21.6, height: 0.6 } };

  it('one book is one book', () => {
    expect(parcelForCart([{ ...book, quantity: 1 }])).toEqual({ weightGrams: 300, lengthCm: 21.6, widthCm: 21.6, heightCm: 0.6 });
  });

  it('sums weights, stacks heights, and takes the largest length and width', () => {
    const parcel = parcelForCart([
      { ...book, quantity: 3 },
      { weight: 150, dimensions: { length: 25, width: 18, height: 1.2 }, quantity: 2 },
    ]);
    expect(parcel).toEqual({ weightGrams: 1200, lengthCm: 25, widthCm: 21.6, heightCm: 4.2 });
  });

  it('ignores missing measurements and non-positive quantities; an empty cart is an empty parcel', () => {
    expect(
      parcelForCart([
        { weight: Number.NaN, dimensions: { length: 0, width: 0, height: 0 }, quantity: 2 },
        { ...book, quantity: 0 },
      ]),
    ).toEqual({
      weightGrams: 0,
      lengthCm: 0,
      widthCm: 0,
      heightCm: 0,
    });
    expect(parcelForCart([])).toEqual({ weightGrams: 0, lengthCm: 0, widthCm: 0, heightCm: 0 });
  });
});
