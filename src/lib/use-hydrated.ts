import { useEffect, useState } from 'react';

/** False during server rendering and the first client render, true after: for browser-only values. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
