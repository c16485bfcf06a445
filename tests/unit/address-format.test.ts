import { describe, expect, it } from 'vitest';
import { ALLOWED_COUNTRIES } from '../../src/config/constants';
import { ADDRESS_FORMATS, addressProblem, auStateOfPostcode } from '../../src/features/checkout/address-format';

describe('auStateOfPostcode: Australia Post’s ranges', () => {
  it.each([
    // Each state's ranges, at both ends.
    ['0200', 'ACT'],
    ['0299', 'ACT'],
    ['0800', 'NT'],
    ['0999', 'NT'],
    ['1000', 'NSW'],
    ['2000', 'NSW'],
    ['2599', 'NSW'],
    ['2600', 'ACT'],
    ['2618', 'ACT'],
    ['2619', 'NSW'],
    ['2620', 'NSW'],
    ['2899', 'NSW'],
    ['2900', 'ACT'],
    ['2920', 'ACT'],
    ['2921', 'NSW'],
    ['2999', 'NSW'],
    ['3000', 'VIC'],
    ['3999', 'VIC'],
    ['8000', 'VIC'],
    ['8999', 'VIC'],
    ['4000', 'QLD'],
    ['4999', 'QLD'],
    ['9000', 'QLD'],
    ['9999', 'QLD'],
    ['5000', 'SA'],
    ['5999', 'SA'],
    ['6000', 'WA'],
    ['6999', 'WA'],
    ['7000', 'TAS'],
    ['7999', 'TAS'],
  ])('%s is %s', (postcode, state) => {
    expect(auStateOfPostcode(postcode)).toBe(state);
  });

  it.each(['0000', '0199', '0300', '0799', '200', '20000', 'abcd', '', ' 2000 x'])('%j is no Australian postcode', (postcode) => {
    expect(auStateOfPostcode(postcode)).toBeNull();
  });

  it('reads a postcode typed with spaces around it', () => {
    expect(auStateOfPostcode(' 3000 ')).toBe('VIC');
  });
});

describe('addressProblem: what the post needs, per country', () => {
  const base = { addressLine1: '1 Main St', city: 'Town', state: '', postalCode: '', country: 'AU' };

  it('every allowed country has a format', () => {
    expect(Object.keys(ADDRESS_FORMATS).sort()).toEqual([...ALLOWED_COUNTRIES].sort());
  });

  it.each([
    ['AU', { state: 'NSW', postalCode: '2000' }],
    ['US', { state: 'NY', postalCode: '10001' }],
    ['US', { state: 'ca', postalCode: '94105-1234' }],
    ['GB', { state: '', postalCode: 'SW1A 1AA' }],
    ['GB', { state: 'Kent', postalCode: 'ct1 2ex' }],
    ['CA', { state: 'ON', postalCode: 'K1A 0B1' }],
    ['NZ', { state: '', postalCode: '6011' }],
    ['IE', { state: 'Dublin', postalCode: '' }],
    ['IE', { state: 'Dublin', postalCode: 'D02 X285' }],
  ])('%s %o is deliverable', (country, fields) => {
    expect(addressProblem({ ...base, ...fields, country })).toBeNull();
  });

  it.each([
    ['AU', { state: 'NSW', postalCode: '' }, 'postalCode', 'Please complete your shipping address'],
    ['AU', { state: 'NSW', postalCode: '200' }, 'postalCode', 'Please enter a valid postcode (for example 2000).'],
    ['AU', { state: '', postalCode: '2000' }, 'state', 'Please complete your shipping address'],
    ['AU', { state: 'Sydney', postalCode: '2000' }, 'state', 'Please choose a state from the list.'],
    ['US', { state: 'NY', postalCode: '1001' }, 'postalCode', 'Please enter a valid zip code (for example 10001).'],
    ['US', { state: '', postalCode: '10001' }, 'state', 'Please complete your shipping address'],
    ['GB', { state: '', postalCode: '12345' }, 'postalCode', 'Please enter a valid postcode (for example SW1A 1AA).'],
    ['CA', { state: 'ON', postalCode: '12345' }, 'postalCode', 'Please enter a valid postal code (for example K1A 0B1).'],
    ['IE', { state: '', postalCode: '' }, 'state', 'Please complete your shipping address'],
  ])('%s %o: %s — %s', (country, fields, field, message) => {
    expect(addressProblem({ ...base, ...fields, country })).toEqual({ field, message });
  });

  it('line 1 and the town come first', () => {
    expect(addressProblem({ ...base, addressLine1: ' ' })).toEqual({ field: 'addressLine1', message: 'Please complete your shipping address' });
    expect(addressProblem({ ...base, city: '' })).toEqual({ field: 'city', message: 'Please complete your shipping address' });
  });
});
