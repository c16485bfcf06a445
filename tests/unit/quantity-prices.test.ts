import { describe, expect, it } from 'vitest';
import { subtotalOf, quantitySavingOf, type CartLine } from '@/features/cart/cart';
import { needsQuote, nextTier, priceLine, quantityLineText, quantityPricesProblem, quoteQuantity, quoteRequestPath, tierNote, tierText } from '@/features/catalog/quantity-prices';
import { bookFrontmatter } from '@/features/catalog/book-schema';
import { readBooks } from '@/features/catalog/book-files';
import { z } from 'astro/zod';

const TIERS = [
  { minQuantity: 10, price: 20 },
  { minQuantity: 25, price: 18 },
];

describe('quantity prices: one rule for the cart, the drawer, the checkout and the server', () => {
  it('charges the book’s own price below the first tier, and the tier reached from its quantity up', () => {
    expect(priceLine(22, TIERS, 1)).toEqual({ unitPrice: 22, lineTotal: 22, tier: null, saving: 0 });
    expect(priceLine(22, TIERS, 9)).toMatchObject({ unitPrice: 22, lineTotal: 198, tier: null });
    expect(priceLine(22, TIERS, 10)).toEqual({ unitPrice: 20, lineTotal: 200, tier: TIERS[0], saving: 20 });
    expect(priceLine(22, TIERS, 24)).toMatchObject({ unitPrice: 20, lineTotal: 480, saving: 48 });
    expect(priceLine(22, TIERS, 25)).toEqual({ unitPrice: 18, lineTotal: 450, tier: TIERS[1], saving: 100 });
    expect(priceLine(22, undefined, 25)).toMatchObject({ unitPrice: 22, lineTotal: 550, tier: null });
  });

  it('adds in cents, so prices with cents never drift', () => {
    expect(priceLine(9.95, [{ minQuantity: 3, price: 8.1 }], 3)).toMatchObject({ lineTotal: 24.3, saving: 5.55 });
  });

  it('says the tier and what it saves, names the next tier, and asks for a quote at the most copies an order takes', () => {
    expect(tierNote(priceLine(22, TIERS, 25))).toBe('25+ copies price: $18.00 each, you save $100.00');
    expect(tierNote(priceLine(22, TIERS, 3))).toBeNull();
    expect(tierText(TIERS[0]!)).toBe('10 or more copies $20.00 each');
    expect(nextTier(TIERS, 12)).toEqual(TIERS[1]);
    expect(needsQuote(98)).toBe(false);
    expect(needsQuote(99)).toBe(true);
    const url = new URL(quoteRequestPath('10 Reasons'), 'https://example.com');
    expect(url.pathname).toBe('/contact');
    expect(url.searchParams.get('subject')).toBe('Quote for 100 copies of 10 Reasons');
    expect(url.searchParams.get('quantity')).toBe('100');
  });

  it('a cart’s subtotal and saving follow each line’s tier', () => {
    const product = { id: 'b', title: 'B', price: 22, imageUrl: '', stock: 100, weight: 300, dimensions: { length: 1, width: 1, height: 1 }, quantityPrices: TIERS };
    const lines: CartLine[] = [
      { product, quantity: 25 },
      { product: { ...product, id: 'c', quantityPrices: undefined }, quantity: 2 },
    ];
    expect(subtotalOf(lines)).toBe(494);
    expect(quantitySavingOf(lines)).toBe(100);
  });

  it('refuses tiers that do not fall, or that are not below the book’s own price', () => {
    expect(quantityPricesProblem(22, TIERS)).toBeNull();
    expect(quantityPricesProblem(22, [{ minQuantity: 10, price: 22 }])).toMatch(/less per copy than the book itself/);
    expect(quantityPricesProblem(22, [TIERS[0]!, { minQuantity: 25, price: 20 }])).toMatch(/less per copy than fewer copies/);
    expect(quantityPricesProblem(22, [TIERS[0]!, TIERS[0]!])).toMatch(/two quantity prices/);
    const schema = bookFrontmatter(z.string());
    const book = readBooks()[0]!;
    const broken = schema.safeParse({ ...book, quantityPrices: [{ minQuantity: 10, price: 30 }] });
    expect(broken.success).toBe(false);
  });

  it('the featured book’s file gives classroom and parish prices, synced with the catalog', () => {
    const book = readBooks().find((b) => b.featured)!;
    expect(book.quantityPrices.length).toBeGreaterThan(0);
    expect(quantityPricesProblem(book.price, book.quantityPrices)).toBeNull();
  });
});

describe('the price beside the quantity on the book pages', () => {
  const tiers = [
    { minQuantity: 10, price: 20 },
    { minQuantity: 25, price: 18 },
  ];
  it('says the price each, the total and what the quantity price saves; nothing for one copy', () => {
    expect(quantityLineText(22, tiers, 1)).toBeNull();
    expect(quantityLineText(22, tiers, 2)).toBe('2 × $22.00 each = $44.00');
    expect(quantityLineText(22, tiers, 10)).toBe('10 × $20.00 each = $200.00, you save $20.00');
    expect(quantityLineText(22, tiers, 25)).toBe('25 × $18.00 each = $450.00, you save $100.00');
  });
  it('asks a quote for the number typed above the most one order takes, unless the stock stops it first', () => {
    expect(quoteQuantity(150, 99)).toBe(150);
    expect(quoteQuantity(99, 99)).toBeNull();
    expect(quoteQuantity(150, 40)).toBeNull();
    expect(new URLSearchParams(quoteRequestPath('Book', 150).split('?')[1]).get('quantity')).toBe('150');
  });
});
