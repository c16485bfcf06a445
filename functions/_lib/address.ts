/**
 * Address normalisation: country and state names people (and Google) write, turned into the codes the shop
 * stores and the carriers price by. Pure, so the address function, checkout and shipping all agree.
 */
import { ALLOWED_COUNTRIES, AU_STATE_CODES, COUNTRY_NAMES, type AuStateCode, type CountryCode } from '../../src/config/constants';
import type { NormalisedAddress } from './providers/address-lookup';

/** Lower-case, no dots, single spaces: "U.S.A." and "usa", "New  South Wales" and "new south wales" meet. */
function simplify(value: string): string {
  return value.trim().toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ');
}

/** Reads a name or code as one of `codes`: the code itself in any case, else a name `names` knows; undefined otherwise. */
function codeReader<Code extends string>(codes: readonly Code[], names: Record<string, Code>) {
  return (nameOrCode: string | null | undefined): Code | undefined => {
    if (!nameOrCode) return undefined;
    const simple = simplify(nameOrCode);
    const asCode = simple.toUpperCase();
    if ((codes as readonly string[]).includes(asCode)) return asCode as Code;
    return names[simple];
  };
}

/** The allowed countries' names, and the other names and abbreviations in use for them. Codes are matched separately. */
const COUNTRY_ALIASES: Record<string, CountryCode> = {
  ...Object.fromEntries(Object.entries(COUNTRY_NAMES).map(([code, name]) => [simplify(name), code as CountryCode])),
  aus: 'AU',
  'commonwealth of australia': 'AU',
  'united states of america': 'US',
  usa: 'US',
  america: 'US',
  'united kingdom of great britain and northern ireland': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  aotearoa: 'NZ',
  'republic of ireland': 'IE',
  éire: 'IE',
  eire: 'IE',
};

/** An allowed country code for a name or code, or undefined when the shop does not ship there. */
export const normaliseCountry = codeReader(ALLOWED_COUNTRIES, COUNTRY_ALIASES);

const AU_STATE_NAMES: Record<string, AuStateCode> = {
  'new south wales': 'NSW',
  victoria: 'VIC',
  queensland: 'QLD',
  'western australia': 'WA',
  'south australia': 'SA',
  tasmania: 'TAS',
  'australian capital territory': 'ACT',
  'northern territory': 'NT',
};

/** An Australian state or territory code for a name or code (any case), or undefined. */
export const normaliseAuState = codeReader(AU_STATE_CODES, AU_STATE_NAMES);

/** One entry of Places API (New) `addressComponents`. */
export interface GoogleAddressComponent {
  longText?: string;
  shortText?: string;
  types?: string[];
}

/**
 * Google's typed address parts turned into our address. The first component carrying a wanted type wins;
 * cities fall back through the types different countries use (UK addresses have a postal_town, not a locality).
 */
export function addressFromGoogleComponents(components: readonly GoogleAddressComponent[]): NormalisedAddress {
  const find = (type: string): GoogleAddressComponent | undefined => components.find((c) => c.types?.includes(type));
  const long = (type: string): string => (find(type)?.longText ?? find(type)?.shortText ?? '').trim();
  const short = (type: string): string => (find(type)?.shortText ?? find(type)?.longText ?? '').trim();

  const line1 = [long('street_number'), long('route')].filter(Boolean).join(' ') || long('premise');
  const city = long('locality') || long('postal_town') || long('sublocality_level_1') || long('sublocality');

  const countryPart = find('country');
  const country = normaliseCountry(countryPart?.shortText) ?? normaliseCountry(countryPart?.longText) ?? short('country').toUpperCase();

  const statePart = find('administrative_area_level_1');
  const state = country === 'AU' ? (normaliseAuState(statePart?.shortText) ?? normaliseAuState(statePart?.longText) ?? short('administrative_area_level_1')) : short('administrative_area_level_1');

  return {
    line1,
    line2: long('subpremise'),
    city,
    state,
    postal_code: long('postal_code'),
    country,
  };
}
