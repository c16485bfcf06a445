/** Reading the catalog folder for the sync: the rows it writes, and a clear stop on a bad book file. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCatalog } from '@/features/catalog/book-files';

const FIXTURE = join('tests', 'fixtures', 'second-book');
const FILE = 'rosary-for-little-hands.mdx';
let dir = '';

function fixtureCopy(edit: (source: string) => string = (s) => s): string {
  dir = mkdtempSync(join(tmpdir(), 'books-'));
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, FILE), edit(readFileSync(join(dir, FILE), 'utf8')));
  return dir;
}
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readCatalog', () => {
  it('gives each book’s catalog row, with the cover’s stable address and no stock', () => {
    expect(readCatalog(fixtureCopy())).toEqual([
      {
        id: 'rosary-for-little-hands',
        title: 'A Rosary for Little Hands',
        description: 'A gentle picture book that walks young children through the Rosary, one bead and one mystery at a time.',
        price: 16.95,
        image_url: '/covers/rosary-for-little-hands.jpg',
        category: "Children's Books",
        weight: 180,
        dimensions: { length: 20, width: 20, height: 0.8 },
        featured: false,
        low_stock_level: 10,
        quantity_prices: [],
        customs_description: "Printed children's picture book",
        hs_code: '4903.00',
        origin_country: 'AU',
        release_date: null,
      },
    ]);
  });

  it('gives the low-stock level the book file sets, 10 when it sets none, and refuses one that is not a whole number', () => {
    expect(readCatalog(fixtureCopy((s) => s.replace(/^price: /m, 'lowStockLevel: 4\nprice: ')))[0]?.low_stock_level).toBe(4);
    expect(() => readCatalog(fixtureCopy((s) => s.replace(/^price: /m, 'lowStockLevel: 2.5\nprice: ')))).toThrow(/lowStockLevel/);
  });

  it.each([
    ['a missing price', (s: string) => s.replace(/^price: .*\n/m, ''), /rosary-for-little-hands\.mdx:[\s\S]*price/],
    ['a negative weight', (s: string) => s.replace('weightGrams: 180', 'weightGrams: -1'), /weightGrams/],
    ['a malformed ISBN', (s: string) => s.replace('978-1-234567-89-7', '12345'), /ISBN/],
    ['a cover that is not there', (s: string) => s.replace('./rosary-for-little-hands.jpg', './missing.jpg'), /cover \.\/missing\.jpg is not in/],
    ['a book for sale without its HS code', (s: string) => s.replace(/^hsCode: .*\n/m, ''), /rosary-for-little-hands\.mdx:(?=[\s\S]*needed on a book for sale)[\s\S]*at hsCode/],
    ['a book for sale without its customs description', (s: string) => s.replace(/^customsDescription: .*\n/m, ''), /rosary-for-little-hands\.mdx:[\s\S]*customsDescription/],
    ['a book for sale without its country of origin', (s: string) => s.replace(/^originCountry: .*\n/m, ''), /rosary-for-little-hands\.mdx:[\s\S]*originCountry/],
    ['an HS code that is not one', (s: string) => s.replace('hsCode: "4903.00"', 'hsCode: "4903"'), /a tariff code like 4903\.00[\s\S]*at hsCode/],
    ['a country that is not one', (s: string) => s.replace('originCountry: "AU"', 'originCountry: "XX"'), /ISO 3166[\s\S]*at originCountry/],
    ['a cover that is not JPEG or PNG', (s: string) => s.replace('./rosary-for-little-hands.jpg', './cover.gif'), /\.png, \.jpg or \.jpeg/],
  ])('stops on %s, naming the file and the field', (_, edit, message) => {
    expect(() => readCatalog(fixtureCopy(edit))).toThrow(message);
  });

  it('lets a book not yet released wait for its customs data, and takes a lower-case country', () => {
    const later = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    const withoutCustoms = (s: string) => s.replace(/^(customsDescription|hsCode|originCountry): .*\n/gm, '');
    const [row] = readCatalog(fixtureCopy((s) => withoutCustoms(s).replace(/^price: /m, `releaseDate: ${later}\nprice: `)));
    expect(row).toMatchObject({ customs_description: null, hs_code: null, origin_country: null, release_date: later });
    expect(() => readCatalog(fixtureCopy((s) => withoutCustoms(s).replace(/^price: /m, 'releaseDate: 2020-01-01\nprice: ')))).toThrow(/hsCode/);
    expect(readCatalog(fixtureCopy((s) => s.replace('originCountry: "AU"', 'originCountry: "cn"')))[0]?.origin_country).toBe('CN');
  });

  it('stops on two files with one id, and on an empty folder', () => {
    const folder = fixtureCopy();
    writeFileSync(join(folder, 'copy.mdx'), readFileSync(join(folder, FILE), 'utf8'));
    expect(() => readCatalog(folder)).toThrow(/share the id rosary-for-little-hands/);
    rmSync(join(folder, 'copy.mdx'));
    rmSync(join(folder, FILE));
    expect(() => readCatalog(folder)).toThrow(/No book files/);
  });
});
