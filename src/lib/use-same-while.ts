import { useState } from 'react';

/**
 * The value first seen with this key, for as long as the key stays the same: a list rebuilt on every render
 * (the cart's lines) keeps one identity until its content changes, so effects that list it run on a change
 * of content only. Kept in state and replaced while rendering, as React's "adjusting state when a prop changes".
 */
export function useSameWhile<T>(value: T, key: string): T {
  const [kept, setKept] = useState({ key, value });
  if (kept.key !== key) {
    setKept({ key, value });
    return value;
  }
  return kept.value;
}
