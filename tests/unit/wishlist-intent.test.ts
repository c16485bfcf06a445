import { describe, expect, it } from 'vitest';
import { takeWishlistIntent } from '@/features/wishlist/sign-in-prompt';

function storageWith(value: string | null) {
  const items = new Map<string, string>(value === null ? [] : [['pendingWishlistAdd', value]]);
  return { getItem: (key: string) => items.get(key) ?? null, removeItem: (key: string) => void items.delete(key), items };
}

describe('a wishlist tap kept across signing in', () => {
  const now = Date.parse('2026-11-26T03:00:00Z');
  it('is taken once', () => {
    const storage = storageWith(JSON.stringify({ productId: 'book-10-reasons', title: '10 Reasons', at: now - 60_000 }));
    expect(takeWishlistIntent(storage, now)).toEqual({ productId: 'book-10-reasons', title: '10 Reasons' });
    expect(storage.items.size).toBe(0);
    expect(takeWishlistIntent(storage, now)).toBeNull();
  });

  it('an old, future-dated or malformed one is dropped', () => {
    for (const value of [
      JSON.stringify({ productId: 'b', title: 't', at: now - 2 * 3_600_000 }),
      JSON.stringify({ productId: 'b', title: 't', at: now + 60_000 }),
      '{',
      '"x"',
      JSON.stringify({ productId: 1, title: 't', at: now }),
    ]) {
      const storage = storageWith(value);
      expect(takeWishlistIntent(storage, now)).toBeNull();
      expect(storage.items.size).toBe(0);
    }
  });
});
