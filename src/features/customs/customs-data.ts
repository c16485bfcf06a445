/**
 * What a parcel abroad must state for each book: a customs description, its tariff (HS) code and the country it
 * was made in. Since 2025 the US returns a parcel whose items lack any of them, so the book schema, the catalog
 * sync, the declaration and the doctor all use these rules.
 */

/** A tariff heading: four digits, a dot, two digits, and optionally more pairs (4903.00, 4901.99, 4903.00.00). */
export const HS_CODE = /^\d{4}\.\d{2}(?:\.?\d{2}){0,2}$/;

/** ISO 3166-1 alpha-2, every officially assigned code. */
export const ISO_COUNTRIES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** The customs fields of a book file, as the publisher names them. */
export const CUSTOMS_FIELDS = ['customsDescription', 'hsCode', 'originCountry'] as const;
export type CustomsField = (typeof CUSTOMS_FIELDS)[number];

/**
 * A book not yet out (its release date still ahead) may wait for its customs data; every other book is on sale
 * and must have it.
 */
export function customsRequired(book: { releaseDate?: Date | undefined }, now: Date = new Date()): boolean {
  return !(book.releaseDate && book.releaseDate.getTime() > now.getTime());
}

/** The fields a book for sale is missing, by their names in the book file. */
export function missingCustomsFields(book: Partial<Record<CustomsField, string | null | undefined>>): CustomsField[] {
  return CUSTOMS_FIELDS.filter((field) => !book[field]?.trim());
}

/** What the build and the sync say on each customs field a book for sale lacks (the field is named beside it). */
export const MISSING_CUSTOMS = 'needed on a book for sale, as parcels abroad must declare it (a US parcel without it is returned)';

/** The database's column of each book-file field (the catalog sync writes one from the other). */
export const CUSTOMS_COLUMNS: Record<CustomsField, string> = { customsDescription: 'customs_description', hsCode: 'hs_code', originCountry: 'origin_country' };

/** The book-file fields of the database's columns named (as preorder_customs_gap answers them). */
export const fieldsOfColumns = (columns: readonly string[]): CustomsField[] => CUSTOMS_FIELDS.filter((field) => columns.includes(CUSTOMS_COLUMNS[field]));

const inWords = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * A title on pre-order without its customs data: what to add to which book file, and how many pre-orders waiting
 * go abroad. The release refuses while it is so, orders abroad or not, as once out the title is sold to any country
 * (the database's rule, release_title_as); Release now, the daily release's report and the back office's warning
 * ahead of the day all say it in these words.
 */
export function customsGapText(bookId: string, abroad: number, missing: readonly CustomsField[]): string {
  const fields = `${inWords(missing)} to content/books/${bookId}.mdx`;
  const them = missing.length === 1 ? 'it' : 'them';
  if (abroad === 0) return `Add ${fields} and deploy before the release: once out, it is sold abroad, where a parcel must declare ${them}.`;
  const orders = abroad === 1 ? '1 pre-order goes abroad' : `${abroad} pre-orders go abroad`;
  return `${orders}: add ${fields} and deploy, as a parcel abroad must declare ${them}.`;
}
