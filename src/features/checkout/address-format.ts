/**
 * How an address is written in each country the shop ships to: what the town, region and postal code are
 * called there, which of them the post needs, and the shape of a postal code. The checkout page labels and
 * checks its fields with it, and the server checks the same rules before it takes an order.
 */
import { AU_STATE_CODES, type AuStateCode, type CountryCode } from '@/config/constants';
import { CHECKOUT_MESSAGES } from './contract';

export interface AddressFormat {
  city: string;
  /** The state, province, county or region; `required` when the post needs it on the label. */
  region: { label: string; required: boolean; options?: readonly string[] };
  postal: { label: string; required: boolean; pattern: RegExp; example: string };
  /** Whether an address here gets AUD prices labelled as such (everywhere but Australia, where they are local). */
  labelCurrency: boolean;
}

/** The states and DC, then the territories and the armed forces' mail (AA, AE, AP). */
const US_STATES = [
  ...'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '),
  ...'PR GU VI AS MP AA AE AP'.split(' '),
];
const CA_PROVINCES = ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'] as const;

export const ADDRESS_FORMATS: Record<CountryCode, AddressFormat> = {
  AU: {
    city: 'City / suburb',
    region: { label: 'State', required: true, options: AU_STATE_CODES },
    postal: { label: 'Postcode', required: true, pattern: /^\d{4}$/, example: '2000' },
    labelCurrency: false,
  },
  US: {
    city: 'City',
    region: { label: 'State', required: true, options: US_STATES },
    postal: { label: 'ZIP code', required: true, pattern: /^\d{5}(-\d{4})?$/, example: '10001' },
    labelCurrency: true,
  },
  GB: {
    city: 'Town / city',
    region: { label: 'County', required: false },
    postal: { label: 'Postcode', required: true, pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, example: 'SW1A 1AA' },
    labelCurrency: true,
  },
  CA: {
    city: 'City',
    region: { label: 'Province', required: true, options: CA_PROVINCES },
    postal: { label: 'Postal code', required: true, pattern: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, example: 'K1A 0B1' },
    labelCurrency: true,
  },
  NZ: {
    city: 'Town / city',
    region: { label: 'Region', required: false },
    postal: { label: 'Postcode', required: true, pattern: /^\d{4}$/, example: '6011' },
    labelCurrency: true,
  },
  IE: {
    city: 'Town / city',
    region: { label: 'County', required: true },
    postal: { label: 'Eircode', required: false, pattern: /^[A-Z]\d[\dW] ?[A-Z\d]{4}$/i, example: 'D02 X285' },
    labelCurrency: true,
  },
};

export const addressFormat = (country: string): AddressFormat => ADDRESS_FORMATS[country as CountryCode] ?? ADDRESS_FORMATS.AU;

/**
 * Australia Post's postcode ranges for each state and territory (PO boxes and large users included). Where
 * ranges meet, the first match wins: the ACT's Canberra postcodes sit inside the run of NSW ones.
 */
const AU_POSTCODE_RANGES: ReadonlyArray<readonly [from: number, to: number, state: AuStateCode]> = [
  [200, 299, 'ACT'],
  [2600, 2618, 'ACT'],
  [2900, 2920, 'ACT'],
  [800, 999, 'NT'],
  [1000, 2599, 'NSW'],
  [2619, 2899, 'NSW'],
  [2921, 2999, 'NSW'],
  [3000, 3999, 'VIC'],
  [8000, 8999, 'VIC'],
  [4000, 4999, 'QLD'],
  [9000, 9999, 'QLD'],
  [5000, 5999, 'SA'],
  [6000, 6999, 'WA'],
  [7000, 7999, 'TAS'],
];

/** The state or territory of an Australian postcode, or null for one that is not. */
export function auStateOfPostcode(postcode: string): AuStateCode | null {
  const code = postcode.trim();
  if (!/^\d{4}$/.test(code)) return null;
  const n = Number(code);
  return AU_POSTCODE_RANGES.find(([from, to]) => n >= from && n <= to)?.[2] ?? null;
}

export type AddressField = 'fullName' | 'addressLine1' | 'city' | 'state' | 'postalCode' | 'country';

/** The first field of an address the post could not deliver to, with what to tell the shopper; null when fine. */
export function addressProblem(address: { addressLine1: string; city: string; state: string; postalCode: string; country: string }): { field: AddressField; message: string } | null {
  const format = addressFormat(address.country);
  const complete = CHECKOUT_MESSAGES.address;
  if (!address.addressLine1.trim()) return { field: 'addressLine1', message: complete };
  if (!address.city.trim()) return { field: 'city', message: complete };
  const postal = address.postalCode.trim();
  if (format.postal.required && !postal) return { field: 'postalCode', message: complete };
  if (postal && !format.postal.pattern.test(postal)) return { field: 'postalCode', message: `Please enter a valid ${format.postal.label.toLowerCase()} (for example ${format.postal.example}).` };
  const region = address.state.trim();
  if (format.region.required && !region) return { field: 'state', message: complete };
  if (region && format.region.options && !format.region.options.includes(region.toUpperCase()))
    return { field: 'state', message: `Please choose a ${format.region.label.toLowerCase()} from the list.` };
  return null;
}
