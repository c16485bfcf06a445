import { describe, expect, it } from 'vitest';
import { copiesAvailable, isPreorder, matchesSearch, parseDimensions, productFromRow, PLACEHOLDER_IMAGE, withLivePriceAndStock } from '@/features/catalog/product';

const row = {
  id: 'book-10-reasons',
  title: '10 Reasons Why Being Catholic is Awesome!',
  description: 'A counting board book',
  price: 22,
  image_url: '/covers/book-10-reasons.png',
  category: "Children's Books",
  stock: 100,
  weight: 300,
  dimensions: { length: 21.6, width: 21.6, height: 0.6 },
  featured: true,
};

describe('productFromRow', () => {
  it('maps a row to the app’s Product', () => {
    expect(productFromRow(row)).toEqual({
      id: 'book-10-reasons',
      title: '10 Reasons Why Being Catholic is Awesome!',
      description: 'A counting board book',
      price: 22,
      imageUrl: '/covers/book-10-reasons.png',
      category: "Children's Books",
      stock: 100,
      weight: 300,
      dimensions: { length: 21.6, width: 21.6, height: 0.6 },
      featured: true,
    });
  });

  it('defaults featured to false, fills missing text and image, and reads numeric strings', () => {
    const product = productFromRow({ ...row, featured: null, description: null, image_url: null, price: '22.50', stock: '3' });
    expect(product).toMatchObject({ featured: false, description: '', imageUrl: PLACEHOLDER_IMAGE, price: 22.5, stock: 3 });
  });

  it('rejects a row without an id or title', () => {
    expect(() => productFromRow({ ...row, id: undefined })).toThrow();
    expect(() => productFromRow({ ...row, title: null })).toThrow();
  });

  it.each([
    ['not an object', 'book-10-reasons'],
    ['an array', [row]],
    ['a numeric id', { ...row, id: 7 }],
    ['no price', { ...row, price: undefined }],
    ['a price that is neither number nor text', { ...row, price: true }],
    ['stock as an object', { ...row, stock: { count: 3 } }],
    ['weight as a boolean', { ...row, weight: false }],
    ['a numeric description', { ...row, description: 12 }],
    ['a numeric image', { ...row, image_url: 3 }],
    ['featured as text', { ...row, featured: 'yes' }],
  ])('rejects a row with %s', (_, raw) => {
    expect(() => productFromRow(raw)).toThrow();
  });

  it('reads absent optional columns as their defaults and keeps no extra keys', () => {
    const { description, image_url, category, stock, weight, featured, ...bare } = row;
    expect(productFromRow({ ...bare, extra: 'ignored' })).toEqual({
      id: row.id,
      title: row.title,
      description: '',
      price: 22,
      imageUrl: PLACEHOLDER_IMAGE,
      category: '',
      stock: 0,
      weight: 0,
      dimensions: row.dimensions,
      featured: false,
    });
  });
});

describe('parseDimensions', () => {
  it.each([
    ['an object', { length: 1, width: 2, height: 3 }, { length: 1, width: 2, height: 3 }],
    ['a JSON string', '{"length": 21.6, "width": 21.6, "height": 0.6}', { length: 21.6, width: 21.6, height: 0.6 }],
    ['malformed JSON', '{length: 1', { length: 0, width: 0, height: 0 }],
    ['non-numeric fields', { length: 'long', width: null, height: '2' }, { length: 0, width: 0, height: 2 }],
    ['nothing', null, { length: 0, width: 0, height: 0 }],
    ['an array', [1, 2, 3], { length: 0, width: 0, height: 0 }],
  ])('reads %s', (_, input, expected) => {
    expect(parseDimensions(input)).toEqual(expected);
  });
});

describe('store search', () => {
  const product = productFromRow(row);
  it.each(['REASONS', 'counting', "children's", '  board  '])('matches %j case-insensitively in title, description or category', (term) => {
    expect(matchesSearch(product, term)).toBe(true);
  });
  it('does not match other words, and an empty term matches everything', () => {
    expect(matchesSearch(product, 'rosary')).toBe(false);
    expect(matchesSearch(product, '')).toBe(true);
  });
});

describe('pre-orders in the live answer', () => {
  const onPreorder = productFromRow({ ...row, stock: 0, release_date: '2027-06-01', preorder_left: 7 });

  it('a title with a release date is on pre-order, and its copies are those left to pre-order, not its stock', () => {
    expect(onPreorder).toMatchObject({ releaseDate: '2027-06-01', preorderLeft: 7, stock: 0 });
    expect(isPreorder(onPreorder)).toBe(true);
    expect(copiesAvailable(onPreorder)).toBe(7);
    expect(copiesAvailable({ ...onPreorder, preorderLeft: 0 })).toBe(0);
  });

  it('a title without one (never a pre-order, or released) is sold from its stock, and keeps its shape', () => {
    const released = productFromRow({ ...row, release_date: null, preorder_left: 0 });
    expect(released).not.toHaveProperty('releaseDate');
    expect(released).not.toHaveProperty('preorderLeft');
    expect(isPreorder(released)).toBe(false);
    expect(copiesAvailable(released)).toBe(100);
  });

  it('refuses a release date that is not a day', () => {
    expect(() => productFromRow({ ...row, release_date: 'soon' })).toThrow();
  });

  it('the live answer decides: a title released since the build loses its date, one announced gains it', () => {
    const built = [{ ...productFromRow(row), releaseDate: '2027-06-01', preorderLeft: 3 }];
    expect(withLivePriceAndStock(built, [productFromRow({ ...row, stock: 40 })])[0]).not.toHaveProperty('releaseDate');
    expect(withLivePriceAndStock([productFromRow(row)], [onPreorder])[0]).toMatchObject({ releaseDate: '2027-06-01', preorderLeft: 7, stock: 0 });
  });
});
