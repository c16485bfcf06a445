/**
 * A delivery address as the destination's post writes it on a parcel: Australia "SUBURB STATE POSTCODE" (the
 * locality in capitals, as Australia Post asks), the United Kingdom the post town then the postcode on its own
 * line, the United States "City, ST ZIP"; elsewhere city, region and postcode on one line. The country last.
 */
import { countryName } from './format';

export interface PostalAddressFields {
  addressLine1?: string;
  addressLine2?: string | null;
  /** Older rows' names for the same fields. */
  line1?: string;
  line2?: string | null;
  city?: string;
  state?: string;
  postalCode?: string;
  postal_code?: string;
  country?: string;
}

const joined = (parts: ReadonlyArray<string | undefined>, separator = ' ') =>
  parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(separator);

/** The lines of the address, top to bottom, with no empty line. */
export function postalAddressLines(a: PostalAddressFields): string[] {
  const city = a.city?.trim() ?? '';
  const state = a.state?.trim() ?? '';
  const postcode = (a.postalCode ?? a.postal_code ?? '').trim();
  const country = (a.country ?? '').trim().toUpperCase();
  let locality: string[];
  if (country === 'AU') locality = [joined([city.toUpperCase(), state.toUpperCase(), postcode])];
  else if (country === 'GB') locality = [city.toUpperCase(), joined([state]), postcode.toUpperCase()];
  else if (country === 'US') locality = [joined([joined([city, joined([state.toUpperCase(), postcode])], ', ')])];
  else locality = [joined([city, state, postcode])];
  return [a.addressLine1 ?? a.line1, a.addressLine2 ?? a.line2, ...locality, countryName(a.country)].map((l) => l?.trim() ?? '').filter(Boolean);
}
