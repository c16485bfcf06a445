import { describe, expect, it } from 'vitest';
import { formatPrice, formatShortDate, orderNumber } from '@/lib/format';

describe('formatting for en-AU', () => {
  it('formats AUD prices the way Australians read them', () => {
    expect(formatPrice(22)).toBe('$22.00');
    expect(formatPrice(75)).toBe('$75.00');
    expect(formatPrice(1234.5)).toBe('$1,234.50');
  });

  it('formats short dates day first', () => {
    expect(formatShortDate('2026-11-22T03:00:00Z')).toMatch(/^22\/11\/(20)?26$/);
  });

  it('shows the first eight characters of an order id, uppercase', () => {
    expect(orderNumber('3f2a9c1e-77aa-4b1e-9d0c-1234567890ab')).toBe('3F2A9C1E');
  });
});
