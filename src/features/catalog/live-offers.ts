/**
 * The idle read of the live catalog for a page drawn from the build's: once the browser is idle (at most 2 s
 * after load), one read, which the purchase controls then draw into the offers (price, in or out of stock, not
 * for sale) and any island on the page shares.
 */
import { liveCatalog } from './live-catalog';

export function readLiveCatalogWhenIdle(): void {
  // A failed read is reported where it shows (purchase-controls.ts), not here.
  const read = () => void liveCatalog().catch(() => undefined);
  const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(read, { timeout: 2000 }) : setTimeout(read, 200));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
