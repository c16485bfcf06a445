import { describe, expect, it } from 'vitest';
import { LIMITS } from '@/config/constants';
import {
  addLine,
  decodeCart,
  itemCountOf,
  quantityLimit,
  removeLine,
  setLineQuantity,
  stockLimitNote,
  subtotalOf,
  toQuantity,
  typedQuantity,
  withLiveStock,
  type CartProduct,
} from '@/features/cart/cart';

const book: CartProduct = { id: 'book-10-reasons', title: 'Book', price: 22, imageUrl: '/b.svg', stock: 10, weight: 300, dimensions: { length: 21.6, width: 21.6, height: 0.6 } };
const kit: CartProduct = { ...book, id: 'kit', title: 'Kit', price: 15.5 };

describe('cart lines', () => {
  it('adds a new line, and raises the quantity of one already there', () => {
    let lines = addLine([], book, 1);
    lines = addLine(lines, kit, 2);
    lines = addLine(lines, book, 3);
    expect(lines.map((l) => [l.product.id, l.quantity])).toEqual([
      ['book-10-reasons', 4],
      ['kit', 2],
    ]);
  });

  it('sums the subtotal in cents-safe arithmetic and counts items', () => {
    const lines = addLine(addLine([], book, 3), { ...kit, price: 0.1 }, 3);
    expect(subtotalOf(lines)).toBe(66.3);
    expect(itemCountOf(lines)).toBe(6);
  });

  it('sets a quantity, and removes the line at zero or below', () => {
    const lines = addLine(addLine([], book, 1), kit, 1);
    expect(setLineQuantity(lines, 'kit', 5).find((l) => l.product.id === 'kit')?.quantity).toBe(5);
    expect(setLineQuantity(lines, 'kit', 0).map((l) => l.product.id)).toEqual(['book-10-reasons']);
    expect(setLineQuantity(lines, 'kit', -3).map((l) => l.product.id)).toEqual(['book-10-reasons']);
    expect(setLineQuantity(lines, 'kit', Number.NaN).map((l) => l.product.id)).toEqual(['book-10-reasons']);
  });

  it('removes a line and leaves the rest', () => {
    expect(removeLine(addLine(addLine([], book, 1), kit, 1), 'book-10-reasons').map((l) => l.product.id)).toEqual(['kit']);
  });

  it('caps a line at the maximum quantity', () => {
    const plenty = { ...book, stock: 500 };
    expect(addLine(addLine([], plenty, 98), plenty, 5)[0]?.quantity).toBe(99);
  });

  it('caps a line at the stock, adding or setting, and says so at the limit', () => {
    const five = { ...book, stock: 5 };
    expect(addLine(addLine([], five, 4), five, 3)[0]?.quantity).toBe(5);
    expect(setLineQuantity(addLine([], five, 1), five.id, 8)[0]?.quantity).toBe(5);
    expect(quantityLimit(5)).toBe(5);
    expect(quantityLimit(500)).toBe(99);
    expect(quantityLimit(0)).toBe(99);
    expect(quantityLimit(undefined)).toBe(99);
    expect(toQuantity('8', quantityLimit(5))).toBe(5);
    expect(stockLimitNote(5, 5)).toBe('Only 5 left');
    expect(stockLimitNote(4, 5)).toBeNull();
    expect(stockLimitNote(99, 500)).toBeNull();
  });

  it('takes the live price and stock into the lines, leaving quantities as chosen', () => {
    const lines = addLine(addLine([], book, 4), kit, 1);
    const live = withLiveStock(lines, [{ id: book.id, price: 20, stock: 3 }]);
    expect(live.map((l) => [l.product.id, l.product.price, l.product.stock, l.quantity])).toEqual([
      [book.id, 20, 3, 4],
      ['kit', 15.5, 10, 1],
    ]);
    expect(withLiveStock(lines, [{ id: book.id, price: 22, stock: 10 }])).toBe(lines);
  });
});

describe('quantity input', () => {
  it.each([
    ['3', 3],
    [3, 3],
    ['', 1],
    ['abc', 1],
    ['2.5', 1],
    ['0', 1],
    ['-4', 1],
    [null, 1],
    ['1e3', 99],
  ])('%j becomes %j', (input, expected) => {
    expect(toQuantity(input)).toBe(expected);
  });
});

describe('the saved cart', () => {
  it('restores a valid saved cart', () => {
    const saved = JSON.stringify(addLine([], book, 2));
    expect(decodeCart(saved)).toEqual(addLine([], book, 2));
  });

  it.each([
    ['not json', '{oops'],
    ['wrong shape', '{"lines": []}'],
    ['negative quantity', JSON.stringify([{ product: book, quantity: -1 }])],
    ['missing price', JSON.stringify([{ product: { id: 'x', title: 'x', imageUrl: '', stock: 1 }, quantity: 1 }])],
    ['empty', ''],
    ['fractional quantity', JSON.stringify([{ product: book, quantity: 1.5 }])],
    ['empty id', JSON.stringify([{ product: { ...book, id: '' }, quantity: 1 }])],
    ['price as text', JSON.stringify([{ product: { ...book, price: '22' }, quantity: 1 }])],
    ['dimensions missing a side', JSON.stringify([{ product: { ...book, dimensions: { length: 1, width: 1 } }, quantity: 1 }])],
    ['a quantity price below one copy', JSON.stringify([{ product: { ...book, quantityPrices: [{ minQuantity: 0, price: 20 }] }, quantity: 1 }])],
    ['a quantity price of nothing', JSON.stringify([{ product: { ...book, quantityPrices: [{ minQuantity: 10, price: 0 }] }, quantity: 1 }])],
    [
      'one good line beside a bad one',
      JSON.stringify([
        { product: book, quantity: 1 },
        { product: kit, quantity: 0 },
      ]),
    ],
    ['more lines than a cart holds', JSON.stringify(Array.from({ length: LIMITS.maxCartLines + 1 }, (_, i) => ({ product: { ...book, id: `b${i}` }, quantity: 1 })))],
  ])('ignores an unreadable saved cart (%s)', (_, raw) => {
    expect(decodeCart(raw)).toEqual([]);
  });

  it('keeps only what a cart line holds, with a weight and size of nothing when a cart saved before them has none', () => {
    const { weight: _weight, dimensions: _dimensions, ...older } = book;
    const saved = JSON.stringify([{ product: { ...older, quantityPrices: [{ minQuantity: 10, price: 20, note: 'x' }], extra: 'x' }, quantity: 12, extra: true }]);
    expect(decodeCart(saved)).toEqual([{ product: { ...older, weight: 0, dimensions: { length: 0, width: 0, height: 0 }, quantityPrices: [{ minQuantity: 10, price: 20 }] }, quantity: 12 }]);
  });
});

describe('typedQuantity: the one typing rule of every quantity field', () => {
  it('keeps the whole number at the start, and an emptied field (or one given no number) empty while the shopper types', () => {
    expect(typedQuantity('', 99)).toEqual({ shown: '', quantity: null, asked: null });
    expect(typedQuantity('abc', 99)).toEqual({ shown: '', quantity: null, asked: null });
    expect(typedQuantity('-3', 99)).toEqual({ shown: '', quantity: null, asked: null });
    expect(typedQuantity('2a', 99)).toEqual({ shown: '2', quantity: 2, asked: 2 });
    expect(typedQuantity('0', 99)).toEqual({ shown: '0', quantity: null, asked: 0 });
  });

  it('takes each whole number as it is typed, and one past the limit as the limit', () => {
    expect(typedQuantity('12', 99)).toEqual({ shown: '12', quantity: 12, asked: 12 });
    expect(typedQuantity('8', 5)).toEqual({ shown: '5', quantity: 5, asked: 8 });
    expect(typedQuantity('150', 99)).toEqual({ shown: '99', quantity: 99, asked: 150 });
  });

  it('counts nothing past a decimal point: 1.5 is one copy, not 15', () => {
    expect(typedQuantity('1.', 99)).toEqual({ shown: '1.', quantity: 1, asked: 1 });
    expect(typedQuantity('1.5', 99)).toEqual({ shown: '1.5', quantity: 1, asked: 1 });
    expect(typedQuantity('2,5', 99)).toEqual({ shown: '2,5', quantity: 2, asked: 2 });
    expect(toQuantity('1.5')).toBe(1);
  });
});
