/**
 * axe-core scans of a running site at desktop (1280 px) and phone (375 px) widths against WCAG 2.1 A/AA.
 * Motion is reduced so the free-shipping banner is measured in its final colours, and every <details>
 * (FAQ) is opened so the answers are checked too. Used by `npm run audit` and tests/e2e/quality.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { SiteRoute } from './routes';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
export type ViewportName = (typeof VIEWPORTS)[number]['name'];

export interface AxeViolation {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** CSS selector and a short HTML excerpt of each offending element. */
  nodes: Array<{ target: string; html: string }>;
}

export interface AxeScan {
  path: string;
  viewport: ViewportName;
  /** Where the page ended up (differs for pages that redirect without a session). */
  finalPath: string;
  status: number | undefined;
  violations: AxeViolation[];
  /** How many px the page is wider than the window (0 or less: no sideways scrolling). */
  overflow: number;
  /** Set when the page could not be opened or scanned. */
  error?: string;
}

/** How many px the page is wider than the window; 0 or less means no sideways scrolling. */
export const horizontalOverflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Opens a route the way a visitor would and waits until its islands have hydrated and its data arrived. */
export async function openForScan(page: Page, baseUrl: string, route: SiteRoute): Promise<number | undefined> {
  const response = await page.goto(new URL(route.path, baseUrl).href, { waitUntil: 'load' });
  if (route.redirectsTo) await page.waitForURL((url) => url.pathname === route.redirectsTo, { timeout: 15_000 });
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
  return response?.status();
}

/**
 * Runs axe on the page as it is now. Legacy mode runs axe in the page itself; the default mode opens an
 * extra blank page per scan to combine frame results, which costs a third of the time and buys nothing
 * here (the pages have no cross-origin frames).
 */
export async function scanPage(page: Page): Promise<AxeViolation[]> {
  // Only violations are reported: asking axe for nothing else makes a scan faster too.
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    helpUrl: violation.helpUrl,
    nodes: violation.nodes.map((node) => ({ target: node.target.map(String).join(' '), html: node.html.replace(/\s+/g, ' ').slice(0, 160) })),
  }));
}

/** Scans one route at one width in a fresh browser context (no stored cart or session). */
export async function scanRouteAt(browser: Browser, baseUrl: string, route: SiteRoute, viewport: (typeof VIEWPORTS)[number]): Promise<AxeScan> {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    hasTouch: viewport.width < 768,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  try {
    const status = await openForScan(page, baseUrl, route);
    const violations = await scanPage(page);
    const overflow = await horizontalOverflow(page);
    return { path: route.path, viewport: viewport.name, finalPath: new URL(page.url()).pathname, status, violations, overflow };
  } catch (error) {
    return { path: route.path, viewport: viewport.name, finalPath: route.path, status: undefined, violations: [], overflow: 0, error: (error as Error).message.split('\n')[0] };
  } finally {
    await context.close();
  }
}

/** Scans one route at both widths (or the ones given), side by side (each page mostly waits on the other process). */
export function scanRoute(browser: Browser, baseUrl: string, route: SiteRoute, viewports: ReadonlyArray<(typeof VIEWPORTS)[number]> = VIEWPORTS): Promise<AxeScan[]> {
  return Promise.all(viewports.map((viewport) => scanRouteAt(browser, baseUrl, route, viewport)));
}

/** One line per offending element, for test failure messages and the terminal. */
export function describeViolations(scan: AxeScan): string[] {
  if (scan.error) return [`${scan.path} @${scan.viewport}: could not scan: ${scan.error}`];
  return scan.violations.flatMap((v) => v.nodes.map((n) => `${scan.path} @${scan.viewport}: ${v.rule} (${v.impact}) ${n.target} — ${v.help}`));
}

/** Scans every route at both widths, `concurrency` routes at a time. */
export async function scanRoutes(browser: Browser, baseUrl: string, routes: SiteRoute[], concurrency = 2, onScan?: (scan: AxeScan) => void): Promise<AxeScan[]> {
  const scans: AxeScan[][] = new Array(routes.length);
  let next = 0;
  const worker = async () => {
    while (next < routes.length) {
      const index = next++;
      scans[index] = await scanRoute(browser, baseUrl, routes[index]!);
      scans[index].forEach((scan) => onScan?.(scan));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return scans.flat();
}
