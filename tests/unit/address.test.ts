/** Address normalisation: country names to codes, AU state names to codes, Google parts to our address. */
import { describe, expect, it } from 'vitest';
import { ALLOWED_COUNTRIES, AU_STATE_CODES } from '@/config/constants';
import { addressFromGoogleComponents, normaliseAuState, normaliseCountry, type GoogleAddressComponent } from '../../functions/_lib/address';

describe('normaliseCountry', () => {
  it.each([
    ['Australia', 'AU'],
    ['United States', 'US'],
    ['USA', 'US'],
    ['U.S.A.', 'US'],
    ['United States of America', 'US'],
    ['United Kingdom', 'GB'],
    ['UK', 'GB'],
    ['Great Britain', 'GB'],
    ['England', 'GB'],
    ['Scotland', 'GB'],
    ['Wales', 'GB'],
    ['Northern Ireland', 'GB'],
    ['Canada', 'CA'],
    ['New Zealand', 'NZ'],
    ['Ireland', 'IE'],
  ])('%s → %s', (name, code) => {
    expect(normaliseCountry(name)).toBe(code);
  });

  it('is case- and space-insensitive', () => {
    expect(normaliseCountry('  new   ZEALAND ')).toBe('NZ');
    expect(normaliseCountry('australia')).toBe('AU');
  });

  it.each(ALLOWED_COUNTRIES)('the code %s passes through, in any case', (code) => {
    expect(normaliseCountry(code)).toBe(code);
    expect(normaliseCountry(code.toLowerCase())).toBe(code);
  });

  it('anything the shop does not ship to is undefined', () => {
    for (const value of ['France', 'FR', 'Germany', '', '   ', undefined, null]) expect(normaliseCountry(value)).toBeUndefined();
  });
});

describe('normaliseAuState', () => {
  it.each([
    ['New South Wales', 'NSW'],
    ['Victoria', 'VIC'],
    ['Queensland', 'QLD'],
    ['Western Australia', 'WA'],
    ['South Australia', 'SA'],
    ['Tasmania', 'TAS'],
    ['Australian Capital Territory', 'ACT'],
    ['Northern Territory', 'NT'],
  ])('%s → %s', (name, code) => {
    expect(normaliseAuState(name)).toBe(code);
    expect(normaliseAuState(name.toUpperCase())).toBe(code);
  });

  it.each(AU_STATE_CODES)('the code %s passes through, in any case', (code) => {
    expect(normaliseAuState(code)).toBe(code);
    expect(normaliseAuState(code.toLowerCase())).toBe(code);
  });

  it('abbreviations with dots and odd spacing still match; other text is undefined', () => {
    expect(normaliseAuState('N.S.W.')).toBe('NSW');
    expect(normaliseAuState(' Qld ')).toBe('QLD');
    expect(normaliseAuState('new  south wales')).toBe('NSW');
    for (const value of ['California', 'Auckland', '', undefined, null]) expect(normaliseAuState(value)).toBeUndefined();
  });
});

describe('addressFromGoogleComponents', () => {
  const part = (longText: string, shortText: string, ...types: string[]): GoogleAddressComponent => ({ longText, shortText, types });

  it.each<[string, GoogleAddressComponent[], Record<string, string>]>([
    [
      'an Australian unit: street number and route, subpremise as line 2, the state as its code',
      [
        part('5', '5', 'subpremise'),
        part('10', '10', 'street_number'),
        part('George Street', 'George St', 'route'),
        part('Sydney', 'Sydney', 'locality', 'political'),
        part('New South Wales', 'NSW', 'administrative_area_level_1', 'political'),
        part('Australia', 'AU', 'country', 'political'),
        part('2000', '2000', 'postal_code'),
      ],
      { line1: '10 George Street', line2: '5', city: 'Sydney', state: 'NSW', postal_code: '2000', country: 'AU' },
    ],
    [
      'a UK address: the city is the postal town, the state is the nation as Google gives it',
      [
        part('221B', '221B', 'street_number'),
        part('Baker Street', 'Baker St', 'route'),
        part('London', 'London', 'postal_town'),
        part('Greater London', 'Greater London', 'administrative_area_level_2', 'political'),
        part('England', 'England', 'administrative_area_level_1', 'political'),
        part('United Kingdom', 'GB', 'country', 'political'),
        part('NW1 6XE', 'NW1 6XE', 'postal_code'),
      ],
      { line1: '221B Baker Street', line2: '', city: 'London', state: 'England', postal_code: 'NW1 6XE', country: 'GB' },
    ],
    [
      'a US address: the state is its short code',
      [
        part('350', '350', 'street_number'),
        part('5th Avenue', '5th Ave', 'route'),
        part('Manhattan', 'Manhattan', 'sublocality_level_1', 'sublocality', 'political'),
        part('New York', 'New York', 'locality', 'political'),
        part('New York', 'NY', 'administrative_area_level_1', 'political'),
        part('United States', 'US', 'country', 'political'),
        part('10118', '10118', 'postal_code'),
      ],
      { line1: '350 5th Avenue', line2: '', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
    ],
  ])('%s', (_name, components, address) => {
    expect(addressFromGoogleComponents(components)).toEqual(address);
  });

  it('an AU state given only by name still becomes its code', () => {
    const address = addressFromGoogleComponents([part('Tasmania', 'Tasmania', 'administrative_area_level_1'), part('Australia', 'Australia', 'country')]);
    expect(address).toMatchObject({ state: 'TAS', country: 'AU' });
  });

  it('a sublocality stands in for a missing locality, and a route without a number is line 1', () => {
    const address = addressFromGoogleComponents([
      part('Queen Street', 'Queen St', 'route'),
      part('Auckland Central', 'Auckland Central', 'sublocality_level_1', 'sublocality'),
      part('New Zealand', 'NZ', 'country'),
    ]);
    expect(address).toMatchObject({ line1: 'Queen Street', city: 'Auckland Central', country: 'NZ' });
  });

  it('a country the shop does not ship to keeps its code, so the caller can refuse it', () => {
    expect(addressFromGoogleComponents([part('France', 'FR', 'country')]).country).toBe('FR');
  });

  it('no components: an empty address, never a crash', () => {
    expect(addressFromGoogleComponents([])).toEqual({ line1: '', line2: '', city: '', state: '', postal_code: '', country: '' });
    expect(addressFromGoogleComponents([{ types: ['locality'] }, {}])).toEqual({ line1: '', line2: '', city: '', state: '', postal_code: '', country: '' });
  });
});
