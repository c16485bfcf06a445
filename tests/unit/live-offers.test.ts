/** Which islands the idle refresh wakes: only those whose product the live catalog changed. */
import { describe, expect, it } from 'vitest';
import { changedOffers, type BuildOffers } from '@/features/catalog/live-offers';
import { signalConcerns } from '@/lib/hydration/signals';

const page: BuildOffers = {
  offers: [
    { id: 'book-a', price: 22, inStock: true },
    { id: 'book-b', price: 18, inStock: false },
  ],
  wholeCatalog: false,
};
const live = [
  { id: 'book-a', price: 22, stock: 40 },
  { id: 'book-b', price: 18, stock: 0 },
];

describe('changedOffers', () => {
  it('nothing, when the live catalog says what the page shows (stock figures aside)', () => {
    expect(changedOffers(page, live)).toEqual([]);
    expect(changedOffers(page, [{ ...live[0]!, stock: 3 }, live[1]!])).toEqual([]);
  });

  it('a changed price, a product back in or out of stock, or one no longer for sale', () => {
    expect(changedOffers(page, [{ ...live[0]!, price: 19.5 }, live[1]!])).toEqual(['book-a']);
    expect(
      changedOffers(page, [
        { ...live[0]!, stock: 0 },
        { ...live[1]!, stock: 5 },
      ]),
    ).toEqual(['book-a', 'book-b']);
    expect(changedOffers(page, [live[1]!])).toEqual(['book-a']);
  });

  it('every product on the page when the read failed', () => {
    expect(changedOffers(page, null)).toEqual(['book-a', 'book-b']);
  });

  it('a product added since the build, only where the page lists the whole catalog', () => {
    const added = [...live, { id: 'book-c', price: 25, stock: 10 }];
    expect(changedOffers(page, added)).toEqual([]);
    expect(changedOffers({ ...page, wholeCatalog: true }, added)).toEqual(['book-c']);
  });
});

describe('signalConcerns', () => {
  it('an island answers a signal naming one of its products, or any signal when it names none', () => {
    expect(signalConcerns('book-a book-b', ['book-b'])).toBe(true);
    expect(signalConcerns('book-a', ['book-b'])).toBe(false);
    expect(signalConcerns('', ['book-b'])).toBe(true);
    expect(signalConcerns('book-a', undefined)).toBe(true);
  });
});
