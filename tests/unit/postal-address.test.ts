import { describe, expect, it } from 'vitest';
import { postalAddressLines } from '@/lib/postal-address';

describe('a delivery address as the destination’s post writes it', () => {
  it('Australia: SUBURB STATE POSTCODE', () => {
    expect(postalAddressLines({ addressLine1: '12 Gift Lane', city: 'Parramatta', state: 'nsw', postalCode: '2150', country: 'AU' })).toEqual(['12 Gift Lane', 'PARRAMATTA NSW 2150', 'Australia']);
  });

  it('the United Kingdom: the post town, then the postcode on its own line', () => {
    expect(postalAddressLines({ line1: '1 High St', line2: 'Flat 2', city: 'London', postal_code: 'n1 1aa', country: 'GB' })).toEqual(['1 High St', 'Flat 2', 'LONDON', 'N1 1AA', 'United Kingdom']);
  });

  it('the United States: City, ST ZIP', () => {
    expect(postalAddressLines({ addressLine1: '350 Fifth Ave', city: 'New York', state: 'ny', postalCode: '10118', country: 'US' })).toEqual(['350 Fifth Ave', 'New York, NY 10118', 'United States']);
  });

  it('elsewhere: city, region and postcode on one line, no empty lines', () => {
    expect(postalAddressLines({ addressLine1: '5 Queen St', addressLine2: '', city: 'Auckland', postalCode: '1010', country: 'NZ' })).toEqual(['5 Queen St', 'Auckland 1010', 'New Zealand']);
  });
});
