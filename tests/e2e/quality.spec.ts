/**
 * Fast quality gates in the normal test run: axe (WCAG 2.1 A/AA and best practices) and no sideways scrolling on every route —
 * every page of the site and the not-found pages at 1280 px and 375 px, every landing page from content/landing
 * at 375 px (where most of their visitors read them) and at 1280 px those that between them show every kind
 * of block; nothing a page does is refused by its Content-Security-Policy — and the link check over the whole site. `npm run audit` scans every route at both widths;
 * Lighthouse stays in the audit only.
 */
import { test as base, expect } from '@playwright/test';
import { describeViolations, openScanner, type RouteScanner, VIEWPORTS, type ViewportName } from '../audit/accessibility';
import { DIST_DIR } from '../audit/built-site';
import { checkSiteLinks } from '../audit/links';
import { landingPagesShowingEveryBlock, siteRoutes } from '../audit/routes';

/** Each worker keeps one scanning page per width for all the routes it is given (see openScanner). */
const test = base.extend<object, { scanners: Record<ViewportName, RouteScanner> }>({
  scanners: [
    async ({ browser }, use, workerInfo) => {
      const baseUrl = workerInfo.project.use.baseURL!;
      const scanners = await Promise.all(VIEWPORTS.map((viewport) => openScanner(browser, baseUrl, viewport)));
      await use(Object.fromEntries(VIEWPORTS.map((viewport, i) => [viewport.name, scanners[i]!])) as Record<ViewportName, RouteScanner>);
      await Promise.all(scanners.map((scanner) => scanner.close()));
    },
    { scope: 'worker' },
  ],
});

// A trace would record every DOM snapshot and the axe script for each scan; the failure message says it all.
test.use({ trace: 'off' });

test.describe('accessibility of every route (axe-core: WCAG 2.1 A/AA and best practices)', () => {
  test.describe.configure({ timeout: 60_000 });

  const bothWidths = landingPagesShowingEveryBlock();
  const phone = VIEWPORTS.filter((v) => v.name === 'mobile');
  for (const route of siteRoutes()) {
    const viewports = route.kind === 'landing' && !bothWidths.has(route.path) ? phone : VIEWPORTS;
    test(`${route.path} at ${viewports.map((v) => v.width).join(' and ')} px`, async ({ scanners }) => {
      // Both widths side by side: each page mostly waits on the other process.
      const scans = await Promise.all(viewports.map((viewport) => scanners[viewport.name].scan(route)));
      for (const scan of scans) {
        if (route.redirectsTo) expect(scan.finalPath, `${route.path} sends a visitor without a session to ${route.redirectsTo}`).toBe(route.redirectsTo);
        if (route.status && !scan.error) expect(scan.status, `${route.path} answers ${route.status}`).toBe(route.status);
        expect(scan.overflow, `${route.path} at ${scan.viewport} is no wider than the window`).toBeLessThanOrEqual(0);
        expect(scan.refused, `${route.path} at ${scan.viewport} does nothing its Content-Security-Policy refuses`).toEqual([]);
      }
      expect(scans.flatMap(describeViolations), 'axe violations (route @width: rule (impact) element — what to fix)').toEqual([]);
    });
  }
});

test('no broken link, image, script or stylesheet anywhere on the site (linkinator; external links not fetched)', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const report = await checkSiteLinks(baseURL!, DIST_DIR, siteRoutes());
  expect(report.pages, 'pages crawled').toBeGreaterThan(40);
  expect(report.broken.map((link) => `${link.url} (${link.status ?? 'no answer'}) on ${link.parent}`)).toEqual([]);
});
