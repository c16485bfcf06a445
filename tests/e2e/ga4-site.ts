/**
 * Browser tests of analytics with a GA4 measurement ID: the site built with a test ID into its own folder
 * (rebuilt only when sources change) and served by the local server on a free port, one per worker, with
 * Google's hosts intercepted by a stand-in for gtag.js that follows Consent Mode. Nothing reaches the network.
 */
import { test as base, type BrowserContext, type Request } from '@playwright/test';
import { buildIfNeeded } from '../../local/build-if-needed';
import { LOCAL_COUNTRY_HEADER } from '../../local/server';
import { startShop } from '../../local/shop';

export const GA4_TEST_ID = 'G-E2ETEST01';
const GA4_DIST_DIR = '.dist-ga4';

/** Requests the page sent to Google's tag and analytics hosts. */
export interface GoogleTraffic {
  requests: Request[];
  /** The gtag.js requests. */
  tags(): Request[];
  /** Analytics hits, as their query parameters (`en` event name, `gcs` consent state, `cid` client id). */
  hits(): URLSearchParams[];
}

const GOOGLE_HOSTS = /^https:\/\/([a-z0-9-]+\.)*(googletagmanager\.com|google-analytics\.com|analytics\.google\.com)\//;

/**
 * A small stand-in for gtag.js, for `country` (the one Google would see from the visitor's IP). Like the real
 * tag it replays `dataLayer`, applies the region-scoped consent default over the general one and any update
 * over both, sends one hit per event carrying the consent state in `gcs` (G1, then ad and analytics storage,
 * 1 granted, 0 denied), and sets the `_ga` cookie and a client id only while analytics storage is granted.
 */
function gtagStandIn(country: string): string {
  return `(() => {
    const country = ${JSON.stringify(country)};
    const state = { regional: {}, general: {}, update: {} };
    let id = '';
    const storage = (name) => state.update[name] ?? state.regional[name] ?? state.general[name] ?? 'granted';
    const clientId = () => {
      const found = document.cookie.match(/(?:^|; )_ga=GA1\\.1\\.([^;]+)/);
      if (found) return found[1];
      const created = Math.floor(Math.random() * 1e9) + '.' + Math.floor(Date.now() / 1000);
      document.cookie = '_ga=GA1.1.' + created + '; path=/; max-age=63072000; SameSite=Lax';
      return created;
    };
    const hit = (name) => {
      const analytics = storage('analytics_storage') === 'granted';
      const query = new URLSearchParams({ v: '2', tid: id, en: name, gcs: 'G1' + (storage('ad_storage') === 'granted' ? 1 : 0) + (analytics ? 1 : 0) });
      if (analytics) query.set('cid', clientId());
      fetch('https://region1.google-analytics.com/g/collect?' + query, { method: 'POST', mode: 'no-cors', keepalive: true });
    };
    const run = (args) => {
      const [command, a, b] = Array.from(args);
      if (command === 'consent' && a === 'default') {
        const { region, ...values } = b;
        if (!region) Object.assign(state.general, values);
        else if (region.includes(country)) Object.assign(state.regional, values);
      } else if (command === 'consent' && a === 'update') Object.assign(state.update, b);
      else if (command === 'config') id = a;
      else if (command === 'event') hit(a);
    };
    const layer = (window.dataLayer = window.dataLayer || []);
    layer.forEach(run);
    layer.push = (...items) => { items.forEach(run); return Array.prototype.push.apply(layer, items); };
  })();`;
}

/**
 * Treats the visitor as coming from `country` (ISO code; undefined: unknown to the site, while Google sees
 * the US), serves the stand-in for the tag, answers hits with 204, and records every request to Google's hosts.
 */
export async function visitFrom(context: BrowserContext, country: string | undefined): Promise<GoogleTraffic> {
  if (country) await context.setExtraHTTPHeaders({ [LOCAL_COUNTRY_HEADER]: country });
  const requests: Request[] = [];
  await context.route(GOOGLE_HOSTS, async (route) => {
    requests.push(route.request());
    const url = new URL(route.request().url());
    if (url.pathname === '/gtag/js') return route.fulfill({ contentType: 'text/javascript', body: gtagStandIn(country ?? 'US') });
    return route.fulfill({ status: 204 });
  });
  return {
    requests,
    tags: () => requests.filter((r) => new URL(r.url()).pathname === '/gtag/js'),
    hits: () => requests.filter((r) => new URL(r.url()).pathname.endsWith('/collect')).map((r) => new URL(r.url()).searchParams),
  };
}

/** `test` with `baseURL` pointing at the GA4 build. */
export const test = base.extend<object, { ga4SiteUrl: string }>({
  ga4SiteUrl: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none.
    async ({}, use) => {
      buildIfNeeded(process.cwd(), { outDir: GA4_DIST_DIR, env: { PUBLIC_GA4_ID: GA4_TEST_ID }, quiet: true });
      const shop = await startShop({ projectRoot: process.cwd(), port: 0, data: 'memory', distDir: GA4_DIST_DIR });
      await use(shop.server.url);
      shop.server.server.closeAllConnections();
      await shop.close();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ ga4SiteUrl }, use) => use(ga4SiteUrl),
});

export { expect } from '@playwright/test';
