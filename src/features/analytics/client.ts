/**
 * Browser entry, started once from BaseLayout. Only the small core ships with every page; gtag.js and
 * web-vitals load later (after load, when idle), only when PUBLIC_GA4_ID is set and the visitor's consent
 * or country allows it. A function rather than a module's side effect, so the layout starts it in a task of its
 * own after the controls a visitor sees.
 */
import { PUBLIC_GA4_ID } from 'astro:env/client';
// web-vitals is one self-contained ES module: emitted as a file and imported by URL when needed, so this
// entry carries no module-preload helper.
import webVitalsUrl from 'web-vitals?url';
import { startAnalytics, type AnalyticsWindow, type WebVitalsModule } from './analytics';
import { bannerControls, consentStore, isConsentRequired } from './consent-browser';

export function startAnalyticsClient(): void {
  startAnalytics({
    win: window as unknown as AnalyticsWindow,
    measurementId: PUBLIC_GA4_ID,
    loadWebVitals: () => import(/* @vite-ignore */ webVitalsUrl) as Promise<WebVitalsModule>,
    consent: {
      store: consentStore(() => localStorage),
      isConsentRequired: () => isConsentRequired(window.fetch.bind(window), () => sessionStorage),
      controls: bannerControls(document),
    },
  });
}
