/**
 * axe-core scans of a running site at desktop (1280 px) and phone (375 px) widths: every axe rule, that is
 * WCAG 2.0 and 2.1 A and AA and axe's best practices.
 * Motion is reduced so the free-shipping banner is measured in its final colours, and every <details>
 * (FAQ) is opened so the answers are checked too. Used by `npm run audit` and tests/e2e/quality.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page, Request } from 'playwright-core';
import type { SiteRoute } from './routes';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

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
  /** What the page's Content-Security-Policy refused while it loaded: "directive blocked-URI", one entry each. */
  refused: string[];
  /** Set when the page could not be opened or scanned. */
  error?: string;
}

/** How many px the page is wider than the window; 0 or less means no sideways scrolling. */
export const horizontalOverflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The page's requests still waiting for an answer. */
function requestsInFlight(page: Page) {
  const open = new Set<Request>();
  let onSettled: (() => void) | undefined;
  const finished = (request: Request) => {
    open.delete(request);
    if (open.size === 0) onSettled?.();
  };
  page.on('request', (request) => open.add(request));
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  return {
    /** Forgets the requests of the page before (a navigation may leave them unanswered). */
    reset: () => open.clear(),
    /** Resolves once no request is open, or after `timeoutMs` (a request that never ends must not stop a scan). */
    settled: (timeoutMs: number) =>
      new Promise<void>((resolve) => {
        if (open.size === 0) return resolve();
        const timer = setTimeout(resolve, timeoutMs);
        onSettled = () => {
          clearTimeout(timer);
          onSettled = undefined;
          resolve();
        };
      }),
  };
}

/** Resolves at the page's next idle moment: after the idle callbacks it queued itself (the live prices, idle islands). */
const nextIdle = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 })));

/**
 * Opens a route the way a visitor would and waits until it has settled: its idle-time work has started, every
 * request that started has been answered, and the page has had an idle moment to draw the answers.
 */
async function openForScan(page: Page, inFlight: ReturnType<typeof requestsInFlight>, baseUrl: string, route: SiteRoute): Promise<number | undefined> {
  inFlight.reset();
  const response = await page.goto(new URL(route.path, baseUrl).href, { waitUntil: 'load' });
  if (route.redirectsTo) await page.waitForURL((url) => url.pathname === route.redirectsTo, { timeout: 15_000 });
  await nextIdle(page);
  await inFlight.settled(10_000);
  await nextIdle(page);
  await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)));
  return response?.status();
}

/**
 * Runs every axe rule on the page as it is now (WCAG 2.0 and 2.1 A and AA, and the best practices: one main
 * landmark, headings in order, all content in landmarks); with `wcagOnly`, the WCAG rules alone (for a
 * document that is not a web page, such as an email). `exclude` leaves out a part of the page, such as a frame
 * in which no script may run. Legacy mode runs axe in the page itself; the default mode opens an extra
 * blank page per scan to combine frame results, which costs a third of the time and buys nothing here (the
 * pages have no cross-origin frames).
 */
export async function scanPage(page: Page, options: { exclude?: string; wcagOnly?: boolean } = {}): Promise<AxeViolation[]> {
  // Only violations are reported: asking axe for nothing else makes a scan faster too. (options() replaces
  // every option, so it comes before withTags.)
  // A toast or dialog still fading in is read at its half-drawn contrast: let finite animations finish first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  let axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  if (options.wcagOnly) axe = axe.withTags(WCAG_A_AA);
  if (options.exclude) axe = axe.exclude(options.exclude);
  const results = await axe.analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    helpUrl: violation.helpUrl,
    nodes: violation.nodes.map((node) => ({ target: node.target.map(String).join(' '), html: node.html.replace(/\s+/g, ' ').slice(0, 160) })),
  }));
}

export type Viewport = (typeof VIEWPORTS)[number];

/** Scans routes one after another at one width. */
export interface RouteScanner {
  scan(route: SiteRoute): Promise<AxeScan>;
  close(): Promise<void>;
}

/**
 * One browser page at one width that scans route after route. Opening a page starts a renderer process,
 * the largest single cost of a scan on a 2-core machine, so the page is kept; before each route the site's
 * cookies and storage are cleared, and every route is seen as on a first visit (no stored cart or session).
 */
export async function openScanner(browser: Browser, baseUrl: string, viewport: Viewport): Promise<RouteScanner> {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    hasTouch: viewport.width < 768,
    reducedMotion: 'reduce',
  });
  // A refusal a script catches (as a library's feature probe does) is still one the site's reports would receive.
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspRefused: seen });
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  const inFlight = requestsInFlight(page);
  const origin = new URL(baseUrl).origin;
  return {
    async scan(route) {
      try {
        await context.clearCookies();
        await devtools.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
        const status = await openForScan(page, inFlight, baseUrl, route);
        const violations = await scanPage(page);
        const overflow = await horizontalOverflow(page);
        const refused = await page.evaluate(() => (window as unknown as { cspRefused: string[] }).cspRefused);
        return { path: route.path, viewport: viewport.name, finalPath: new URL(page.url()).pathname, status, violations, overflow, refused };
      } catch (error) {
        return { path: route.path, viewport: viewport.name, finalPath: route.path, status: undefined, violations: [], overflow: 0, refused: [], error: (error as Error).message.split('\n')[0] };
      }
    },
    close: () => context.close(),
  };
}

/** One line per offending element, for test failure messages and the terminal. */
export function describeViolations(scan: AxeScan): string[] {
  if (scan.error) return [`${scan.path} @${scan.viewport}: could not scan: ${scan.error}`];
  return scan.violations.flatMap((v) => v.nodes.map((n) => `${scan.path} @${scan.viewport}: ${v.rule} (${v.impact}) ${n.target} — ${v.help}`));
}

/** Scans every route at both widths, `concurrency` routes at a time, each width of a route side by side. */
export async function scanRoutes(browser: Browser, baseUrl: string, routes: SiteRoute[], concurrency = 2, onScan?: (scan: AxeScan) => void): Promise<AxeScan[]> {
  const scans: AxeScan[][] = new Array(routes.length);
  let next = 0;
  const worker = async () => {
    const scanners = await Promise.all(VIEWPORTS.map((viewport) => openScanner(browser, baseUrl, viewport)));
    try {
      while (next < routes.length) {
        const index = next++;
        scans[index] = await Promise.all(scanners.map((scanner) => scanner.scan(routes[index]!)));
        scans[index].forEach((scan) => onScan?.(scan));
      }
    } finally {
      await Promise.all(scanners.map((scanner) => scanner.close()));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return scans.flat();
}
