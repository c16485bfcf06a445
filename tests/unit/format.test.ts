import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { countOf, countryName, formatDateTime, formatPrice, formatShortDate, orderNumber, shopDay } from '@/lib/format';

describe('formatting for en-AU', () => {
  it('formats AUD prices the way Australians read them', () => {
    expect(formatPrice(22)).toBe('$22.00');
    expect(formatPrice(75)).toBe('$75.00');
    expect(formatPrice(1234.5)).toBe('$1,234.50');
  });

  it('writes every price as Intl.NumberFormat does, without building it', () => {
    const intl = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD' });
    const amounts = [0, -0, 0.005, 0.015, 1.005, 2.675, 9.5, 19.99, 999.995, 1000, 12345.678, 1234567.89, -0.001, -5, -1234.5, 0.1 + 0.2];
    for (let cents = 0; cents < 200_000; cents += 7) amounts.push(cents / 100, cents / 1000);
    for (const amount of amounts) expect(formatPrice(amount), String(amount)).toBe(intl.format(amount));
  });

  it('formats short dates day first', () => {
    expect(formatShortDate('2026-11-22T03:00:00Z')).toMatch(/^22\/11\/(20)?26$/);
    // 15:00 UTC is already the next day in Sydney.
    expect(formatShortDate('2026-11-22T15:00:00Z')).toMatch(/^23\/11\/(20)?26$/);
  });

  it('gives the shop’s day as yyyy-mm-dd, counted in Sydney', () => {
    expect(shopDay(new Date('2026-11-22T03:00:00Z'))).toBe('2026-11-22');
    expect(shopDay(new Date('2026-11-22T15:00:00Z'))).toBe('2026-11-23');
  });

  it('writes the number the database gave the order as its digits', () => {
    expect(orderNumber(1001)).toBe('1001');
    expect(orderNumber(100_542)).toBe('100542');
  });

  it('writes a country out in full, and leaves a code it does not know as it is', () => {
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('us')).toBe('United States');
    expect(countryName('AU')).toBe('Australia');
    expect(countryName('FR')).toBe('FR');
    expect(countryName(undefined)).toBe('');
  });

  it('writes the order number one way everywhere, never from the order id: every page, email and function reads the number', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx|astro)$/.test(name) ? [path] : [];
      });
    const offenders = [...files('src'), ...files('functions')].filter((file) => {
      const text = readFileSync(file, 'utf8');
      return /orderNumberLength|(\.id|orderId|order_id)\.slice\(0,\s*8\)|orderNumber\([\w.]*(\.id|Id|_id)\)/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});

describe('formatDateTime', () => {
  it('names the zone, so a buyer abroad does not read Sydney’s time as their own', () => {
    expect(formatDateTime('2026-11-28T03:03:00Z')).toBe('28 Nov 2026, 2:03 pm AEDT');
    expect(formatDateTime('2026-07-01T03:03:00Z')).toMatch(/1:03 pm AEST$/);
  });
});

describe('countOf', () => {
  it('writes one thing singular, any other count plural, grouped in thousands', () => {
    expect(countOf(1, 'copy', 'copies')).toBe('1 copy');
    expect(countOf(0, 'copy', 'copies')).toBe('0 copies');
    expect(countOf(3, 'order')).toBe('3 orders');
    expect(countOf(1200, 'subscriber')).toBe('1,200 subscribers');
  });
});
