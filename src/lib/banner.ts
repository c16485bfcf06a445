import { STORAGE_KEYS, TIMINGS } from '@/config/constants';

/** The banner's close button (FreeShippingBanner.astro) dismisses it. */
export function startBannerDismiss(): void {
  document.querySelector('[data-dismiss-banner]')?.addEventListener('click', () => {
    const banner = document.querySelector<HTMLElement>('[data-free-shipping-banner]');
    if (banner) dismissBanner(banner);
  });
}

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
