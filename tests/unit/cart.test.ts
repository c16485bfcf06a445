import { describe, expect, it } from 'vitest';
import { addLine, decodeCart, itemCountOf, removeLine, setLineQuantity, subtotalOf, toQuantity, type CartProduct } from '@/features/cart/cart';

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
    expect(addLine(addLine([], book, 98), book, 5)[0]?.quantity).toBe(99);
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
  ])('ignores an unreadable saved cart (%s)', (_, raw) => {
    expect(decodeCart(raw)).toEqual([]);
  });
});
