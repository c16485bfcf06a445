/**
 * Fast quality gate in the normal test run: axe (WCAG 2.1 A/AA) on every route — the pages of spec
 * section 2, the not-found pages and all landing pages from content/landing — at 1280 px and 375 px.
 * The same scans as `npm run audit` (tests/audit/accessibility.ts); Lighthouse stays in the audit only.
 */
import { expect, test } from '@playwright/test';
import { describeViolations, scanRoute, VIEWPORTS } from '../audit/accessibility';
import { siteRoutes } from '../audit/routes';

// A trace would record every DOM snapshot and the axe script for each scan; the failure message says it all.
test.use({ trace: 'off' });

test.describe('accessibility of every route (axe-core, WCAG 2.1 A/AA)', () => {
  test.describe.configure({ timeout: 60_000 });

  for (const route of siteRoutes()) {
    test(`${route.path} at ${VIEWPORTS.map((v) => v.width).join(' and ')} px`, async ({ browser, baseURL }) => {
      const scans = await scanRoute(browser, baseURL!, route);
      for (const scan of scans) {
        if (route.redirectsTo) expect(scan.finalPath, `${route.path} sends a visitor without a session to ${route.redirectsTo}`).toBe(route.redirectsTo);
        if (route.status && !scan.error) expect(scan.status, `${route.path} answers ${route.status}`).toBe(route.status);
      }
      expect(scans.flatMap(describeViolations), 'axe violations (route @width: rule (impact) element — what to fix)').toEqual([]);
    });
  }
});
