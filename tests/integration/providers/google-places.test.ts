/**
 * The Google Places (New) adapter against a local server answering like places.googleapis.com:
 * autocomplete suggestions, place details with addressComponents, and google.rpc.Status errors.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createGooglePlacesLookup } from '../../../functions/_lib/providers/google-places';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import { answerInTurn, sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';

const API_KEY = 'test-places-key';
const SESSION = '3f1c9a52-7d0e-4b8a-9c61-2f5e8d7a4b10';

const fake = useFakeProvider();

/** Google's JSON answers name their charset. */
function googleJson(response: ServerResponse, status: number, body: unknown): void {
  sendJson(response, status, body, { 'content-type': 'application/json; charset=UTF-8' });
}

/** google.rpc.Status, as Google answers every error. */
function googleError(response: ServerResponse, code: number, status: string, message: string): void {
  googleJson(response, code, { error: { code, message, status } });
}

async function fakeGoogle(handler: Handler): Promise<string> {
  const { url } = await fake.start((seen, response) => {
    if (seen.headers['x-goog-api-key'] !== API_KEY) {
      googleError(response, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      return;
    }
    handler(seen, response);
  });
  return url;
}

const SUGGESTIONS = {
  suggestions: [
    {
      placePrediction: {
        place: 'places/ChIJ3S-JXmauEmsRUcIaWtf4MzE',
        placeId: 'ChIJ3S-JXmauEmsRUcIaWtf4MzE',
        text: { text: '10 George Street, Sydney NSW, Australia', matches: [{ endOffset: 9 }] },
        structuredFormat: { mainText: { text: '10 George Street' }, secondaryText: { text: 'Sydney NSW, Australia' } },
        types: ['street_address', 'geocode'],
      },
    },
    { queryPrediction: { text: { text: '10 George Street cafes' } } },
    {
      placePrediction: {
        place: 'places/ChIJx',
        placeId: 'ChIJx',
        text: { text: '10 George Street, Parramatta NSW, Australia' },
      },
    },
  ],
};

const SYDNEY_UNIT = {
  formattedAddress: '5/10 George St, Sydney NSW 2000, Australia',
  addressComponents: [
    { longText: '5', shortText: '5', types: ['subpremise'], languageCode: 'en' },
    { longText: '10', shortText: '10', types: ['street_number'], languageCode: 'en' },
    { longText: 'George Street', shortText: 'George St', types: ['route'], languageCode: 'en' },
    { longText: 'Sydney', shortText: 'Sydney', types: ['locality', 'political'], languageCode: 'en' },
    { longText: 'Council of the City of Sydney', shortText: 'Sydney', types: ['administrative_area_level_2', 'political'], languageCode: 'en' },
    { longText: 'New South Wales', shortText: 'NSW', types: ['administrative_area_level_1', 'political'], languageCode: 'en' },
    { longText: 'Australia', shortText: 'AU', types: ['country', 'political'], languageCode: 'en' },
    { longText: '2000', shortText: '2000', types: ['postal_code'], languageCode: 'en' },
  ],
};

describe('Google Places autocomplete', () => {
  it('posts the input restricted to street addresses in the one country, with the session token and a field mask, and keeps place predictions only', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, SUGGESTIONS));
    const places = createGooglePlacesLookup({ apiKey: API_KEY, baseUrl });

    expect(await places.suggest('  10 George St ', 'AU', SESSION)).toEqual([
      { place_id: 'ChIJ3S-JXmauEmsRUcIaWtf4MzE', description: '10 George Street, Sydney NSW, Australia' },
      { place_id: 'ChIJx', description: '10 George Street, Parramatta NSW, Australia' },
    ]);
    const request = fake.seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/v1/places:autocomplete');
    expect(request.headers['x-goog-fieldmask']).toContain('suggestions.placePrediction.placeId');
    expect(JSON.parse(request.body)).toEqual({
      input: '10 George St',
      includedRegionCodes: ['au'],
      includedPrimaryTypes: ['street_address', 'premise', 'subpremise'],
      sessionToken: SESSION,
    });
  });

  it('restricts the United Kingdom as region "gb"', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, {}));
    await createGooglePlacesLookup({ apiKey: API_KEY, baseUrl }).suggest('221B Baker', 'GB', SESSION);
    expect(JSON.parse(fake.seen[0]!.body).includedRegionCodes).toEqual(['gb']);
  });

  it('an empty answer ({}, no suggestions key) is an empty list; fewer than 3 characters never calls Google', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, {}));
    const places = createGooglePlacesLookup({ apiKey: API_KEY, baseUrl });
    expect(await places.suggest('zzzzqqq', 'NZ', SESSION)).toEqual([]);
    expect(await places.suggest('10', 'AU', SESSION)).toEqual([]);
    expect(fake.seen).toHaveLength(1);
  });

  it('leaves out a session token Google would reject (longer than 36 characters or not URL-safe)', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, {}));
    await createGooglePlacesLookup({ apiKey: API_KEY, baseUrl }).suggest('10 George', 'AU', 'not a token / '.repeat(5));
    expect(JSON.parse(fake.seen[0]!.body)).not.toHaveProperty('sessionToken');
  });

  it('a bad key: 400 INVALID_ARGUMENT becomes a ProviderError carrying Google’s status and message', async () => {
    const baseUrl = await fakeGoogle(() => undefined);
    const error = await createGooglePlacesLookup({ apiKey: 'wrong', baseUrl })
      .suggest('10 George', 'AU', SESSION)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'google-places', status: 400, code: 'rejected' });
    expect((error as Error).message).toContain('INVALID_ARGUMENT: API key not valid');
  });

  it('403 PERMISSION_DENIED (API not enabled), 429 RESOURCE_EXHAUSTED and 503 UNAVAILABLE are ProviderErrors', async () => {
    const answers: Array<[number, string, string]> = [
      [403, 'PERMISSION_DENIED', 'Places API (New) has not been used in project 123 before or it is disabled.'],
      [429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.'],
      [503, 'UNAVAILABLE', 'The service is currently unavailable.'],
    ];
    const baseUrl = await fakeGoogle(answerInTurn(answers, googleError));
    const places = createGooglePlacesLookup({ apiKey: API_KEY, baseUrl });
    for (const [code, status] of answers) {
      await expect(places.suggest('10 George', 'AU', SESSION)).rejects.toMatchObject({ status: code, message: expect.stringContaining(status) });
    }
  });

  it('garbage in a 200 answer is a ProviderError', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, { suggestions: [{ placePrediction: { placeId: 42 } }] }));
    await expect(createGooglePlacesLookup({ apiKey: API_KEY, baseUrl }).suggest('10 George', 'AU', SESSION)).rejects.toMatchObject({ code: 'invalid-response' });
  });

  it('a Google that does not answer in time is a timeout ProviderError', async () => {
    const baseUrl = await fakeGoogle(() => undefined /* never answers */);
    await expect(createGooglePlacesLookup({ apiKey: API_KEY, baseUrl, timeoutMs: 150 }).suggest('10 George', 'AU', SESSION)).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('Google Places details', () => {
  it('gets the address parts with the same session token and normalises them', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, SYDNEY_UNIT));
    const address = await createGooglePlacesLookup({ apiKey: API_KEY, baseUrl }).details('ChIJ3S-JXmauEmsRUcIaWtf4MzE', SESSION);

    expect(address).toEqual({ line1: '10 George Street', line2: '5', city: 'Sydney', state: 'NSW', postal_code: '2000', country: 'AU' });
    const request = fake.seen[0]!;
    expect(request.method).toBe('GET');
    expect(request.url.pathname).toBe('/v1/places/ChIJ3S-JXmauEmsRUcIaWtf4MzE');
    expect(request.url.searchParams.get('sessionToken')).toBe(SESSION);
    expect(request.headers['x-goog-fieldmask']).toBe('addressComponents,formattedAddress');
  });

  it('a place without street parts takes line 1 from the formatted address', async () => {
    const baseUrl = await fakeGoogle((_seen, res) =>
      googleJson(res, 200, {
        formattedAddress: 'Sydney Opera House, Bennelong Point, Sydney NSW 2000, Australia',
        addressComponents: SYDNEY_UNIT.addressComponents.filter((c) => !['subpremise', 'street_number', 'route'].includes(c.types[0]!)),
      }),
    );
    const address = await createGooglePlacesLookup({ apiKey: API_KEY, baseUrl }).details('ChIJ3S-JXmauEmsRUcIaWtf4MzE', SESSION);
    expect(address).toMatchObject({ line1: 'Sydney Opera House', city: 'Sydney', state: 'NSW' });
  });

  it('404 NOT_FOUND for an unknown place id is a ProviderError; an empty id is refused without a call', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.'));
    const places = createGooglePlacesLookup({ apiKey: API_KEY, baseUrl });
    await expect(places.details('ChIJnope', SESSION)).rejects.toMatchObject({ status: 404, message: expect.stringContaining('NOT_FOUND') });
    await expect(places.details('  ', SESSION)).rejects.toMatchObject({ code: 'unsupported' });
    expect(fake.seen).toHaveLength(1);
  });

  it('an answer without address components is a ProviderError, not an empty address', async () => {
    const baseUrl = await fakeGoogle((_seen, res) => googleJson(res, 200, { formattedAddress: 'Somewhere' }));
    await expect(createGooglePlacesLookup({ apiKey: API_KEY, baseUrl }).details('ChIJx', SESSION)).rejects.toMatchObject({ code: 'invalid-response' });
  });

  it('a 500 INTERNAL is a ProviderError, and a stalled answer a timeout', async () => {
    let stall = false;
    const baseUrl = await fakeGoogle((_seen, res) => (stall ? undefined : googleError(res, 500, 'INTERNAL', 'Internal error encountered.')));
    const places = createGooglePlacesLookup({ apiKey: API_KEY, baseUrl, timeoutMs: 150 });
    await expect(places.details('ChIJx', SESSION)).rejects.toMatchObject({ status: 500 });
    stall = true;
    await expect(places.details('ChIJx', SESSION)).rejects.toMatchObject({ code: 'timeout' });
  });
});
