import { describe, expect, it } from 'vitest';
import { CUSTOMS_COLUMNS, CUSTOMS_FIELDS, customsGapText, fieldsOfColumns } from '../../src/features/customs/customs-data';

describe('what a title on pre-order lacks to go abroad, in the publisher’s words', () => {
  it('names the book file’s fields for the database’s columns, in the file’s order', () => {
    expect(fieldsOfColumns(['origin_country', 'customs_description'])).toEqual(['customsDescription', 'originCountry']);
    expect(fieldsOfColumns(CUSTOMS_FIELDS.map((field) => CUSTOMS_COLUMNS[field]))).toEqual([...CUSTOMS_FIELDS]);
    expect(fieldsOfColumns([])).toEqual([]);
  });

  it('says how many orders go abroad, which fields to add to which book file, and to deploy', () => {
    expect(customsGapText('mass-is-awesome', 3, ['customsDescription', 'hsCode', 'originCountry'])).toBe(
      '3 pre-orders go abroad: add customsDescription, hsCode and originCountry to content/books/mass-is-awesome.mdx and deploy, as a parcel abroad must declare them.',
    );
    expect(customsGapText('next', 1, ['hsCode'])).toBe('1 pre-order goes abroad: add hsCode to content/books/next.mdx and deploy, as a parcel abroad must declare it.');
    expect(customsGapText('next', 2, ['hsCode', 'originCountry'])).toContain('add hsCode and originCountry to');
  });

  it('with no order abroad, says to add the fields before the release, as the title is then sold abroad', () => {
    expect(customsGapText('mass-is-awesome', 0, ['customsDescription', 'hsCode', 'originCountry'])).toBe(
      'Add customsDescription, hsCode and originCountry to content/books/mass-is-awesome.mdx and deploy before the release: once out, it is sold abroad, where a parcel must declare them.',
    );
    expect(customsGapText('next', 0, ['hsCode'])).toBe('Add hsCode to content/books/next.mdx and deploy before the release: once out, it is sold abroad, where a parcel must declare it.');
  });
});
