/**
 * Asking `client:intent` islands to hydrate before anyone touches them: when the live catalog differs from
 * what the build drew, or a signed-in visitor's own state (a wishlist) has to be looked up.
 */
export const HYDRATE_EVENT = 'shop:hydrate';

/** Hydrates the islands that show any of these product ids; with none given, every `client:intent` island. */
export function hydrateIslands(productIds?: readonly string[]): void {
  window.dispatchEvent(new CustomEvent<readonly string[] | undefined>(HYDRATE_EVENT, { detail: productIds }));
}

/** Whether an island naming `islandIds` (space-separated; empty for "any product") answers a signal for `signalIds`. */
export function signalConcerns(islandIds: string, signalIds: readonly string[] | undefined): boolean {
  if (!signalIds) return true;
  const mine = islandIds.split(/\s+/).filter(Boolean);
  return mine.length === 0 || mine.some((id) => signalIds.includes(id));
}
