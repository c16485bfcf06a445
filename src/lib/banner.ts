import { STORAGE_KEYS, TIMINGS } from '@/config/constants';

/** Fades the banner out, then hides it and remembers the dismissal so it does not return. */
export function dismissBanner(banner: HTMLElement): void {
  banner.dataset.leaving = '';
  window.setTimeout(() => {
    banner.hidden = true;
    try {
      localStorage.setItem(STORAGE_KEYS.freeShippingBannerDismissed, 'true');
    } catch {
      // Storage may be unavailable (private mode); the banner stays dismissed for this page only.
    }
    document.documentElement.dataset.bannerDismissed = '';
  }, TIMINGS.bannerFadeOutMs);
}
