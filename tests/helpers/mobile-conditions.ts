/**
 * Lighthouse's mobile conditions, applied to a Playwright page through the Chrome DevTools Protocol: 4× CPU
 * slowdown, 150 ms round trip, 1.6 Mbps down and 750 Kbps up (Lighthouse's "slow 4G" figures, applied to
 * every request rather than simulated afterwards), on a 375 × 812 touch screen.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';

export const MOBILE_CONDITIONS = { cpuSlowdown: 4, rttMs: 150, downloadKbps: 1600, uploadKbps: 750 } as const;

/** A phone: its screen, touch, and the mobile flag (the page's tap targets and viewport as a phone has them). */
export const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** Slows the page's CPU and network to the mobile conditions, for everything it does from now on. */
export async function applyMobileConditions(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE_CONDITIONS.rttMs,
    downloadThroughput: (MOBILE_CONDITIONS.downloadKbps * 1000) / 8,
    uploadThroughput: (MOBILE_CONDITIONS.uploadKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE_CONDITIONS.cpuSlowdown });
}

/** When the first tap comes: as soon as the page has loaded, or after it has sat idle for a while. */
export type TapMoment = 'after load' | 'after idle';

/** Waits for the moment: the load event, or the network going quiet and then `idleMs` more. */
export async function waitForMoment(page: Page, moment: TapMoment, idleMs = 5000): Promise<void> {
  await page.waitForLoadState('load');
  if (moment === 'after idle') {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(idleMs);
  }
}

const IN_STOCK = { id: 'book-10-reasons', title: '10 Reasons Why Being Catholic is Awesome!', price: 22 } as const;
/** The sample title on pre-order: its Pre-order is the same action as Add to Cart, and answers as fast. */
const ON_PREORDER = { id: 'mass-is-awesome', title: '10 Reasons Why Mass is Awesome!', price: 24 } as const;

/** The pages with Add to Cart (or Pre-order), the book each adds, and how each names its button. */
export const FIRST_TAP_PAGES = [
  { path: '/book', book: IN_STOCK, button: 'Add to Cart', exact: true, stepper: true },
  { path: '/store/product/book-10-reasons', book: IN_STOCK, button: 'Add to Cart', exact: true, stepper: true },
  { path: '/store', book: IN_STOCK, button: 'Add to Cart: 10 Reasons Why Being Catholic is Awesome!', exact: true, stepper: false },
  { path: '/', book: IN_STOCK, button: 'Add to Cart – $', exact: false, stepper: false },
  { path: '/store/product/mass-is-awesome', book: ON_PREORDER, button: 'Pre-order', exact: true, stepper: true },
] as const;
