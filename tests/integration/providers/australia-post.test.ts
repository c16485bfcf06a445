/**
 * The Australia Post PAC adapter against a local server that answers like PAC's domestic and international service
 * lists: XML-shaped JSON (a list of one is a bare object), string prices, and PAC's and its gateway's error bodies.
 */
import { describe, expect, it } from 'vitest';
import { createAustraliaPostRates } from '../../../functions/_lib/providers/australia-post';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import type { ParcelRequest } from '../../../functions/_lib/providers/shipping-rates';
import { quoteShipping } from '../../../functions/_lib/shipping';
import { internationalPrice } from '../../../src/lib/international-rates';
import { deliveryEstimate } from '../../../src/features/checkout/delivery-estimates';
import { sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';

const API_KEY = 'test-pac-key';

const fake = useFakeProvider();

async function fakePac(handler: Handler): Promise<string> {
  const { url } = await fake.start((seen, response) => {
    // PAC answers a missing or wrong key before anything else.
    if (seen.headers['auth-key'] !== API_KEY) {
      response.writeHead(403, { 'content-type': 'text/html' }).end('<html><body>Forbidden</body></html>');
      return;
    }
    handler(seen, response);
  });
  return url;
}

const option = (code: string, name: string) => ({ code, name, suboptions: { option: { code: 'AUS_SERVICE_OPTION_EXTRA_COVER', name: 'Extra Cover', max_extra_cover: 5000 } } });

const SERVICE_LIST = {
  services: {
    service: [
      { code: 'AUS_PARCEL_EXPRESS', name: 'Express Post', price: '21.45', max_extra_cover: 5000, options: { option: [option('AUS_SERVICE_OPTION_STANDARD', 'Standard Service')] } },
      { code: 'AUS_PARCEL_REGULAR', name: 'Parcel Post', price: '15.05', max_extra_cover: 5000, options: { option: option('AUS_SERVICE_OPTION_STANDARD', 'Standard Service') } },
      { code: 'AUS_PARCEL_REGULAR_SATCHEL_SMALL', name: 'Small satchel', price: '11.60', max_extra_cover: 5000, options: { option: [] } },
      { code: 'AUS_PARCEL_EXPRESS_SATCHEL_1KG', name: 'Small-Medium satchel', price: '14.55', max_extra_cover: 500 },
      { code: 'AUS_PARCEL_REGULAR_SATCHEL_EXTRA_LARGE', name: 'Extra Large satchel', price: '24.30', max_extra_cover: 5000, delivery_time: 'Delivered in 2-4 business days' },
    ],
  },
};

const PARCEL: ParcelRequest = { fromPostcode: '2170', toPostcode: '3000', country: 'AU', weightGrams: 900, lengthCm: 21.6, widthCm: 21.6, heightCm: 1.8 };

describe('Australia Post domestic parcel services', () => {
  // A service that states no time shows the publisher's range for its speed (content/shipping/delivery-estimates.json).
  it('asks PAC for the parcel in cm and kg with the key in AUTH-KEY, and maps every service to a quote', async () => {
    const baseUrl = await fakePac(({ url }, res) => {
      expect(url.pathname).toBe('/postage/parcel/domestic/service.json');
      sendJson(res, 200, SERVICE_LIST);
    });
    const quotes = await createAustraliaPostRates({ apiKey: API_KEY, baseUrl }).quote(PARCEL);

    const { url } = fake.seen[0]!;
    expect(Object.fromEntries(url.searchParams)).toEqual({ from_postcode: '2170', to_postcode: '3000', length: '21.6', width: '21.6', height: '1.8', weight: '0.9' });

    expect(quotes).toEqual([
      {
        id: 'AUS_PARCEL_EXPRESS',
        plan_name: 'Express Post',
        carrier: 'Australia Post',
        is_satchel: false,
        satchel_size: null,
        service: 'express',
        price: 21.45,
        eta: { days_range: '1-3 business days', date_range: '' },
      },
      {
        id: 'AUS_PARCEL_REGULAR',
        plan_name: 'Parcel Post',
        carrier: 'Australia Post',
        is_satchel: false,
        satchel_size: null,
        service: 'standard',
        price: 15.05,
        eta: { days_range: '3-7 business days', date_range: '' },
      },
      {
        id: 'AUS_PARCEL_REGULAR_SATCHEL_SMALL',
        plan_name: 'Parcel Post Small satchel',
        carrier: 'Australia Post',
        is_satchel: true,
        satchel_size: 'small',
        service: 'standard',
        price: 11.6,
        eta: { days_range: '3-7 business days', date_range: '' },
      },
      {
        id: 'AUS_PARCEL_EXPRESS_SATCHEL_1KG',
        plan_name: 'Express Post Small-Medium satchel',
        carrier: 'Australia Post',
        is_satchel: true,
        satchel_size: 'medium',
        service: 'express',
        price: 14.55,
        eta: { days_range: '1-3 business days', date_range: '' },
      },
      {
        id: 'AUS_PARCEL_REGULAR_SATCHEL_EXTRA_LARGE',
        plan_name: 'Parcel Post Extra Large satchel',
        carrier: 'Australia Post',
        is_satchel: true,
        satchel_size: 'extra_large',
        service: 'standard',
        price: 24.3,
        eta: { days_range: '2-4 business days', date_range: '' },
      },
    ]);
  });

  it('reads a single service, which PAC sends as an object rather than a list', async () => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, 200, { services: { service: { code: 'AUS_PARCEL_REGULAR', name: 'Parcel Post', price: '9.70', max_extra_cover: 5000 } } }));
    const quotes = await createAustraliaPostRates({ apiKey: API_KEY, baseUrl }).quote(PARCEL);
    expect(quotes.map((q) => [q.id, q.price])).toEqual([['AUS_PARCEL_REGULAR', 9.7]]);
  });

  it('sends flat items as at least 1 cm, and grams as kilograms', async () => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, 200, { services: '' }));
    const quotes = await createAustraliaPostRates({ apiKey: API_KEY, baseUrl }).quote({ ...PARCEL, weightGrams: 300, heightCm: 0, widthCm: 0.4 });
    expect(quotes).toEqual([]);
    expect(fake.seen[0]!.url.searchParams.get('height')).toBe('1');
    expect(fake.seen[0]!.url.searchParams.get('width')).toBe('1');
    expect(fake.seen[0]!.url.searchParams.get('weight')).toBe('0.3');
  });

  it('a wrong key: PAC answers 403, the adapter throws a ProviderError without a shopper message', async () => {
    const baseUrl = await fakePac(() => undefined);
    const error = await createAustraliaPostRates({ apiKey: 'wrong-key', baseUrl })
      .quote(PARCEL)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'australia-post', status: 403, code: 'rejected', userMessage: undefined });
  });

  it("PAC's validation error { error: { errorMessage } } becomes a ProviderError the shopper may read", async () => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, 404, { error: { errorMessage: 'Please enter a valid To postcode.' } }));
    const error = await createAustraliaPostRates({ apiKey: API_KEY, baseUrl })
      .quote(PARCEL)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, userMessage: 'Please enter a valid To postcode.' });
    expect((error as Error).message).toContain('Please enter a valid To postcode.');
  });

  it('an error body in a 200 answer is still an error', async () => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, 200, { error: { errorMessage: 'The maximum weight of a parcel is 22 kg.' } }));
    await expect(createAustraliaPostRates({ apiKey: API_KEY, baseUrl }).quote(PARCEL)).rejects.toMatchObject({ status: 400, userMessage: 'The maximum weight of a parcel is 22 kg.' });
  });

  it("the gateway's { status, errors[] } body and a 5xx both become ProviderErrors", async () => {
    let status = 404;
    const baseUrl = await fakePac((_seen, res) => sendJson(res, status, status === 404 ? { status: 'Failed', errors: [{ code: '404', message: 'Not found' }] } : { error: 'internal' }));
    const pac = createAustraliaPostRates({ apiKey: API_KEY, baseUrl });
    await expect(pac.quote(PARCEL)).rejects.toMatchObject({ status: 404, message: expect.stringContaining('Not found') });
    status = 503;
    await expect(pac.quote(PARCEL)).rejects.toMatchObject({ status: 503, code: 'rejected', userMessage: undefined });
  });

  it('garbage in a 200 answer is a ProviderError, never a crash', async () => {
    let body: unknown = { services: { service: [{ code: 'AUS_PARCEL_REGULAR', name: 'Parcel Post', price: 'free' }] } };
    const baseUrl = await fakePac((_seen, res) => (typeof body === 'string' ? res.writeHead(200).end(body) : sendJson(res, 200, body)));
    const pac = createAustraliaPostRates({ apiKey: API_KEY, baseUrl });
    await expect(pac.quote(PARCEL)).rejects.toMatchObject({ code: 'invalid-response', status: 502 });
    body = '<html>maintenance</html>';
    await expect(pac.quote(PARCEL)).rejects.toMatchObject({ code: 'invalid-response' });
    body = [1, 2, 3];
    await expect(pac.quote(PARCEL)).rejects.toBeInstanceOf(ProviderError);
  });

  it('a PAC that does not answer in time is a timeout ProviderError', async () => {
    const baseUrl = await fakePac(() => undefined /* never answers */);
    const started = Date.now();
    await expect(createAustraliaPostRates({ apiKey: API_KEY, baseUrl, timeoutMs: 150 }).quote(PARCEL)).rejects.toMatchObject({ code: 'timeout', status: 504 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an unreachable host is a network ProviderError', async () => {
    const baseUrl = await fakePac(() => undefined);
    await fake.close();
    await expect(createAustraliaPostRates({ apiKey: API_KEY, baseUrl }).quote(PARCEL)).rejects.toMatchObject({ code: 'network', status: 502 });
  });

  it('refuses, without calling PAC, bad postcodes and weightless parcels', async () => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, 200, SERVICE_LIST));
    const pac = createAustraliaPostRates({ apiKey: API_KEY, baseUrl });
    await expect(pac.quote({ ...PARCEL, country: 'NZ', toPostcode: '6011', weightGrams: 0 })).rejects.toMatchObject({ code: 'unsupported' });
    await expect(pac.quote({ ...PARCEL, toPostcode: '30' })).rejects.toMatchObject({ userMessage: 'Please enter a valid Australian postcode.' });
    await expect(pac.quote({ ...PARCEL, weightGrams: 0 })).rejects.toMatchObject({ code: 'unsupported' });
    expect(fake.seen).toHaveLength(0);
  });

  it('through quoteShipping: live quotes sorted by price, and a PAC failure falls back to the flat table with its message', async () => {
    let fail = false;
    const baseUrl = await fakePac((_seen, res) => (fail ? sendJson(res, 404, { error: { errorMessage: 'Please enter a valid To postcode.' } }) : sendJson(res, 200, SERVICE_LIST)));
    const pac = createAustraliaPostRates({ apiKey: API_KEY, baseUrl });

    const live = await quoteShipping(pac, PARCEL, 22);
    expect(live.fallback).toBe(false);
    expect(live.quotes.map((q) => q.price)).toEqual([11.6, 14.55, 15.05, 21.45, 24.3]);
    // From 75 AUD the Parcel Post services ship free; Express Post keeps its price.
    const free = await quoteShipping(pac, PARCEL, 75);
    expect(free.quotes.map((q) => [q.id, q.price])).toEqual([
      ['AUS_PARCEL_REGULAR_SATCHEL_SMALL', 0],
      ['AUS_PARCEL_REGULAR', 0],
      ['AUS_PARCEL_REGULAR_SATCHEL_EXTRA_LARGE', 0],
      ['AUS_PARCEL_EXPRESS_SATCHEL_1KG', 14.55],
      ['AUS_PARCEL_EXPRESS', 21.45],
    ]);

    fail = true;
    const fallback = await quoteShipping(pac, PARCEL, 22);
    expect(fallback).toEqual({
      fallback: true,
      message: 'Please enter a valid To postcode.',
      quotes: [expect.objectContaining({ id: 'au-standard', price: 15 }), expect.objectContaining({ id: 'au-express', price: 25 })],
    });
  });
});

/**
 * PAC's international parcel services for a country and a weight (kg), as its reference documents them: the same
 * service list, with Courier, Express, Standard and (on some routes) Economy Air; prices grow with the weight.
 */
function internationalList(countryCode: string, kg: number) {
  const perKg = countryCode === 'NZ' ? 12 : 22;
  const price = (base: number) => (base + perKg * Math.ceil(kg / 0.5) * 0.5).toFixed(2);
  const extraCover = { option: { code: 'INT_EXTRA_COVER', name: 'Extra Cover' } };
  return {
    services: {
      service: [
        { code: 'INT_PARCEL_COR_OWN_PACKAGING', name: 'Courier', price: price(90), max_extra_cover: 5000, options: extraCover },
        { code: 'INT_PARCEL_EXP_OWN_PACKAGING', name: 'Express', price: price(38), max_extra_cover: 5000, options: extraCover },
        {
          code: 'INT_PARCEL_STD_OWN_PACKAGING',
          name: 'Standard',
          price: price(19),
          max_extra_cover: 5000,
          options: { option: [extraCover.option, { code: 'INT_SIGNATURE_ON_DELIVERY', name: 'Signature on Delivery' }] },
        },
        { code: 'INT_PARCEL_AIR_OWN_PACKAGING', name: 'Economy Air', price: price(15), max_extra_cover: 5000 },
      ],
    },
  };
}

const US_PARCEL: ParcelRequest = { fromPostcode: '2170', toPostcode: '10001', country: 'US', weightGrams: 300, lengthCm: 21.6, widthCm: 21.6, heightCm: 0.6 };

describe('Australia Post international parcel services', () => {
  const pacAbroad = () =>
    fakePac(({ url }, res) => {
      expect(url.pathname).toBe('/postage/parcel/international/service.json');
      sendJson(res, 200, internationalList(url.searchParams.get('country_code') ?? '', Number(url.searchParams.get('weight'))));
    });

  it('asks PAC for the country and the weight in kg, and offers its International Standard and Express', async () => {
    const baseUrl = await pacAbroad();
    const quotes = await createAustraliaPostRates({ apiKey: API_KEY, baseUrl }).quote(US_PARCEL);
    expect(Object.fromEntries(fake.seen[0]!.url.searchParams)).toEqual({ country_code: 'US', weight: '0.3' });
    expect(fake.seen[0]!.headers['auth-key']).toBe(API_KEY);
    // No time stated by PAC: the eta is left for the shop's rules (the publisher's range for the country).
    expect(quotes).toEqual([
      {
        id: 'INT_PARCEL_STD_OWN_PACKAGING',
        plan_name: 'International Standard',
        carrier: 'Australia Post',
        is_satchel: false,
        satchel_size: null,
        service: 'standard',
        price: 30,
        eta: { days_range: '', date_range: '' },
      },
      {
        id: 'INT_PARCEL_EXP_OWN_PACKAGING',
        plan_name: 'International Express',
        carrier: 'Australia Post',
        is_satchel: false,
        satchel_size: null,
        service: 'express',
        price: 49,
        eta: { days_range: '', date_range: '' },
      },
    ]);
  });

  it('prices by weight: 30 copies cost what 30 copies weigh, over 20 kg as two parcels', async () => {
    const baseUrl = await pacAbroad();
    const pac = createAustraliaPostRates({ apiKey: API_KEY, baseUrl });
    const one = await pac.quote(US_PARCEL);
    const thirty = await pac.quote({ ...US_PARCEL, weightGrams: 9000 });
    expect(fake.seen.map((s) => s.url.searchParams.get('weight'))).toEqual(['0.3', '9']);
    expect(thirty[0]!.price).toBe(19 + 22 * 9);
    expect(thirty[0]!.price).toBeGreaterThan(one[0]!.price * 5);
    // 99 copies of a 300 g book: 29.7 kg, one parcel of 20 kg and one of 9.7 kg, priced and added up.
    fake.seen.length = 0;
    const heavy = await pac.quote({ ...US_PARCEL, weightGrams: 29_700 });
    expect(fake.seen.map((s) => s.url.searchParams.get('weight'))).toEqual(['20', '9.7']);
    expect(heavy[0]!.price).toBe(19 + 22 * 20 + 19 + 22 * 10);
  });

  it('shows the delivery time only where PAC states one', async () => {
    const baseUrl = await fakePac((_seen, res) =>
      sendJson(res, 200, { services: { service: { code: 'INT_PARCEL_EXP_OWN_PACKAGING', name: 'Express', price: '52.10', delivery_time: 'Delivered in 3-6 business days' } } }),
    );
    const result = await quoteShipping(createAustraliaPostRates({ apiKey: API_KEY, baseUrl }), { ...US_PARCEL, country: 'NZ' }, 22);
    expect(result.quotes.map((q) => [q.id, q.price, q.eta.days_range])).toEqual([['INT_PARCEL_EXP_OWN_PACKAGING', 52.1, '3-6 business days']]);
    const standardOnly = await fakePac((_seen, res) => sendJson(res, 200, { services: { service: { code: 'INT_PARCEL_STD_OWN_PACKAGING', name: 'Standard', price: '25.00' } } }));
    const unstated = await quoteShipping(createAustraliaPostRates({ apiKey: API_KEY, baseUrl: standardOnly }), US_PARCEL, 22);
    // The publisher's range for the United States (content/shipping/delivery-estimates.json).
    expect(unstated.quotes[0]!.eta.days_range).toBe('8-15 business days');
  });

  it('with no time stated, International Standard and Express each show the publisher’s own range for the service', async () => {
    const baseUrl = await fakePac((_seen, res) =>
      sendJson(res, 200, {
        services: {
          service: [
            { code: 'INT_PARCEL_STD_OWN_PACKAGING', name: 'Standard', price: '30.10' },
            { code: 'INT_PARCEL_EXP_OWN_PACKAGING', name: 'Express', price: '47.20' },
          ],
        },
      }),
    );
    const result = await quoteShipping(createAustraliaPostRates({ apiKey: API_KEY, baseUrl }), { ...US_PARCEL, country: 'GB' }, 22);
    expect(result.quotes.map((q) => [q.plan_name, q.eta.days_range])).toEqual([
      ['International Standard', deliveryEstimate('GB', 'standard')],
      ['International Express', deliveryEstimate('GB', 'express')],
    ]);
    expect(deliveryEstimate('GB', 'express')).not.toBe(deliveryEstimate('GB', 'standard'));
  });

  it.each([
    ['a wrong key (401)', 401, { error: { errorMessage: 'Invalid API key' } }],
    ['too many requests (429)', 429, { errors: [{ message: 'Rate limit exceeded' }] }],
    ['a server error (500)', 500, { error: 'internal' }],
  ])('%s: quoteShipping falls back to the rate card for the weight, abroad too', async (_, status, body) => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, status, body));
    const pac = createAustraliaPostRates({ apiKey: API_KEY, baseUrl });
    await expect(pac.quote(US_PARCEL)).rejects.toMatchObject({ status, userMessage: undefined });
    const result = await quoteShipping(pac, { ...US_PARCEL, weightGrams: 9000 }, 660);
    expect(result).toEqual({
      fallback: true,
      message: 'Could not fetch shipping rates.',
      quotes: [
        expect.objectContaining({
          id: 'international-standard',
          plan_name: 'International Standard',
          carrier: 'Australia Post',
          price: internationalPrice('US', 'standard', 9000),
          eta: { days_range: '8-15 business days', date_range: '' },
        }),
        expect.objectContaining({ id: 'international-express', plan_name: 'International Express', price: internationalPrice('US', 'express', 9000) }),
      ],
    });
  });

  it('a PAC that does not answer in time: the rate card', async () => {
    const baseUrl = await fakePac(() => undefined /* never answers */);
    const result = await quoteShipping(createAustraliaPostRates({ apiKey: API_KEY, baseUrl, timeoutMs: 150 }), US_PARCEL, 22);
    expect(result.fallback).toBe(true);
    expect(result.quotes.map((q) => [q.id, q.price])).toEqual([
      ['international-standard', internationalPrice('US', 'standard', 300)],
      ['international-express', internationalPrice('US', 'express', 300)],
    ]);
  });

  it('an answer without Standard or Express: the rate card; Courier and Economy Air are never offered', async () => {
    const baseUrl = await fakePac((_seen, res) => sendJson(res, 200, { services: { service: [{ code: 'INT_PARCEL_COR_OWN_PACKAGING', name: 'Courier', price: '120.00' }] } }));
    const result = await quoteShipping(createAustraliaPostRates({ apiKey: API_KEY, baseUrl }), US_PARCEL, 22);
    expect(result.fallback).toBe(true);
    expect(result.quotes.map((q) => q.id)).toEqual(['international-standard', 'international-express']);
  });
});
