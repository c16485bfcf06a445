/**
 * Address lookup: suggestions as the shopper types, then one normalised address. The default without a
 * lookup service is manual entry: no suggestions, and the shopper types the address.
 */
import type { CountryCode } from '../../../src/config/constants';
import type { AddressSuggestion, NormalisedAddress } from '../../../src/features/checkout/contract';
import { ProviderError } from './errors';

export type { AddressSuggestion, NormalisedAddress };

export interface AddressLookupProvider {
  name: string;
  suggest(input: string, country: CountryCode, sessionToken: string): Promise<AddressSuggestion[]>;
  /** Throws a ProviderError; `unsupported` when this provider cannot look addresses up at all. */
  details(placeId: string, sessionToken: string): Promise<NormalisedAddress>;
}

export const manualAddressEntry: AddressLookupProvider = {
  name: 'manual-entry',
  async suggest() {
    return [];
  },
  async details() {
    throw new ProviderError('manual-entry', 404, 'No address lookup is configured (GOOGLE_PLACES_API_KEY is not set).', { code: 'unsupported' });
  },
};
