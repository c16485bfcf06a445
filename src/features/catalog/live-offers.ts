/**
 * The idle refresh of a page's offers. The page is drawn from the build's catalog, and its purchase islands
 * wait for the visitor (`client:intent`). Once the browser is idle this reads the live catalog; only when it
 * differs from what the page shows (a price, in or out of stock, a product gone or added, or a failed read)
 * are the islands showing those products hydrated, and they draw the live values. A visitor with a saved
 * session gets every island hydrated, for their own wishlist state.
 */
import { hasSavedSession } from '@/lib/supabase/client';
import { hydrateIslands } from '@/lib/hydration/signals';
import { liveCatalog } from './live-catalog';

/** What the build drew for one product, as the page states it in `data-build-offers`. */
export interface BuildOffer {
  id: string;
  price: number;
  inStock: boolean;
}

/** The attribute LiveOffers.astro writes: the offers on the page and whether it lists the whole catalog. */
export const BUILD_OFFERS_ATTRIBUTE = 'data-build-offers';
export interface BuildOffers {
  offers: BuildOffer[];
  /** The store lists every product, so a product added since the build is a difference too. */
  wholeCatalog: boolean;
}

type LiveOffer = { id: string; price: number; stock: number };

/** The ids whose live offer differs from the build's; every id when the read failed. */
export function changedOffers(page: BuildOffers, live: readonly LiveOffer[] | null): string[] {
  if (!live) return page.offers.map((o) => o.id);
  const byId = new Map(live.map((p) => [p.id, p]));
  const changed = page.offers.filter((o) => {
    const now = byId.get(o.id);
    return !now || now.price !== o.price || now.stock > 0 !== o.inStock;
  });
  const added = page.wholeCatalog ? live.filter((p) => !page.offers.some((o) => o.id === p.id)) : [];
  return [...changed, ...added].map((p) => p.id);
}

function readBuildOffers(): BuildOffers {
  const elements = Array.from(document.querySelectorAll<HTMLElement>(`[${BUILD_OFFERS_ATTRIBUTE}]`));
  const parsed = elements.map((el) => JSON.parse(el.getAttribute(BUILD_OFFERS_ATTRIBUTE) ?? '{}') as BuildOffers);
  return { offers: parsed.flatMap((p) => p.offers ?? []), wholeCatalog: parsed.some((p) => p.wholeCatalog) };
}

async function refresh(): Promise<void> {
  if (hasSavedSession()) return hydrateIslands();
  const page = readBuildOffers();
  // A failed read is not logged here: it wakes every island, and each logs it with its own message.
  const live = await liveCatalog().catch(() => null);
  const changed = changedOffers(page, live);
  if (changed.length > 0) hydrateIslands(changed);
}

/** Runs the refresh once the page has loaded and the browser is idle (at most 2 s later). */
export function refreshOffersWhenIdle(): void {
  const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(() => void refresh(), { timeout: 2000 }) : setTimeout(() => void refresh(), 200));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
