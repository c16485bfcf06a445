/**
 * Google Places API (New): address autocomplete and the chosen place's address parts.
 * - POST {base}/v1/places:autocomplete  { input, sessionToken, includedRegionCodes, includedPrimaryTypes } → suggestions[].placePrediction
 * - GET  {base}/v1/places/{placeId}?sessionToken=…  (field mask addressComponents,formattedAddress)
 * Key in X-Goog-Api-Key, fields in X-Goog-FieldMask. One session token across the suggestions and the details
 * call makes Google bill them as one session instead of per keystroke; a session ends with the details call,
 * so the browser starts a new token after each chosen place.
 */
import { z } from 'zod';
import type { CountryCode } from '../../../src/config/constants';
import { addressFromGoogleComponents } from '../address';
import { ProviderError } from './errors';
import { type HttpOptions, requestProvider } from './transport';
import type { AddressLookupProvider, AddressSuggestion, NormalisedAddress } from './address-lookup';

const NAME = 'google-places';

export interface GooglePlacesOptions extends HttpOptions {
  apiKey: string;
}

/** Suggestions need at least 3 characters; fewer would only spend quota. */
const MIN_INPUT_LENGTH = 3;

/** An empty result is `{}`: no `suggestions` key at all. Query predictions (if ever returned) are skipped. */
const autocompleteSchema = z.object({
  suggestions: z
    .array(
      z.object({
        placePrediction: z.object({ placeId: z.string().min(1), text: z.object({ text: z.string() }) }).optional(),
      }),
    )
    .optional(),
});

const detailsSchema = z.object({
  formattedAddress: z.string().optional(),
  addressComponents: z.array(z.object({ longText: z.string().optional(), shortText: z.string().optional(), types: z.array(z.string()).optional() })).optional(),
});

/** google.rpc.Status, the shape every Google API error takes. */
const googleErrorSchema = z.object({ error: z.object({ code: z.number().optional(), message: z.string(), status: z.string().optional() }) });

function failure(status: number, body: unknown): ProviderError {
  const parsed = googleErrorSchema.safeParse(body);
  const detail = parsed.success ? `${parsed.data.error.status ?? 'ERROR'}: ${parsed.data.error.message}` : `HTTP ${status}`;
  return new ProviderError(NAME, status, `Google Places refused the request (${status}) ${detail}`);
}

/** Google wants the token URL- and filename-safe, at most 36 characters (a UUID); anything else is left out. */
function usableSessionToken(token: string): string | undefined {
  return /^[A-Za-z0-9_-]{1,36}$/.test(token) ? token : undefined;
}

/** Places a parcel can be delivered to; without this Google also offers businesses, suburbs and regions. */
const ADDRESS_TYPES = ['street_address', 'premise', 'subpremise'];

export function createGooglePlacesLookup(options: GooglePlacesOptions): AddressLookupProvider {
  const { apiKey, baseUrl = 'https://places.googleapis.com', fetch: fetchImpl = globalThis.fetch, timeoutMs = 8000 } = options;
  const base = baseUrl.replace(/\/$/, '');

  return {
    name: NAME,

    async suggest(input: string, country: CountryCode, sessionToken: string): Promise<AddressSuggestion[]> {
      const text = input.trim();
      if (text.length < MIN_INPUT_LENGTH) return [];
      const sessionTokenValue = usableSessionToken(sessionToken);
      const response = await requestProvider(
        NAME,
        fetchImpl,
        `${base}/v1/places:autocomplete`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'X-Goog-Api-Key': apiKey,
            // Ask only for what we show: smaller answers, and no fields billed at a higher tier.
            'X-Goog-FieldMask': 'suggestions.placePrediction.placeId,suggestions.placePrediction.text.text',
          },
          body: JSON.stringify({
            input: text,
            // CLDR region codes; restricting to the shopper's chosen country keeps addresses shippable.
            includedRegionCodes: [country.toLowerCase()],
            includedPrimaryTypes: ADDRESS_TYPES,
            ...(sessionTokenValue ? { sessionToken: sessionTokenValue } : {}),
          }),
        },
        timeoutMs,
      );
      if (!response.ok) throw failure(response.status, response.body);
      const parsed = autocompleteSchema.safeParse(response.body);
      if (!parsed.success) {
        throw new ProviderError(NAME, 502, 'Google Places answered something that is not a suggestion list.', { code: 'invalid-response', cause: parsed.error });
      }
      return (parsed.data.suggestions ?? []).flatMap((s) => (s.placePrediction ? [{ place_id: s.placePrediction.placeId, description: s.placePrediction.text.text }] : []));
    },

    async details(placeId: string, sessionToken: string): Promise<NormalisedAddress> {
      const id = placeId.trim();
      if (!id) throw new ProviderError(NAME, 400, 'A place id is required.', { code: 'unsupported' });
      const sessionTokenValue = usableSessionToken(sessionToken);
      const query = sessionTokenValue ? `?${new URLSearchParams({ sessionToken: sessionTokenValue })}` : '';
      const response = await requestProvider(
        NAME,
        fetchImpl,
        `${base}/v1/places/${encodeURIComponent(id)}${query}`,
        { method: 'GET', headers: { 'X-Goog-Api-Key': apiKey, 'X-Goog-FieldMask': 'addressComponents,formattedAddress' } },
        timeoutMs,
      );
      if (!response.ok) throw failure(response.status, response.body);
      const parsed = detailsSchema.safeParse(response.body);
      if (!parsed.success || !parsed.data.addressComponents?.length) {
        throw new ProviderError(NAME, 502, 'Google Places answered a place without address parts.', { code: 'invalid-response', cause: parsed.error });
      }
      const address = addressFromGoogleComponents(parsed.data.addressComponents);
      // Places with no street number or route (a named building) still start their formatted address with it.
      if (!address.line1 && parsed.data.formattedAddress) {
        address.line1 = parsed.data.formattedAddress.split(',')[0]?.trim() ?? '';
      }
      return address;
    },
  };
}
