/**
 * The first tap on Add to Cart, timed on a phone: under Lighthouse's mobile conditions (4× CPU slowdown,
 * 150 ms round trip, 1.6 Mbps, applied through CDP in Playwright) on a 375 px touch screen, from the tap's
 * pointerdown to the first animation frame in which the cart drawer is open, which is the frame that paints
 * it. Each page is loaded fresh (empty cache, empty cart) for each run; the tap comes as soon as the page has
 * loaded, or after the network has gone quiet and five more seconds have passed. The drawer is then closed
 * and the button tapped again: the later tap. The median and the spread (slowest less fastest) of the runs
 * are reported beside Lighthouse's rows, whose zero-JavaScript reference states what the machine reached.
 *
 * `preload` measures the other design: React fetched before the tap (a modulepreload of every island's
 * component and renderer, and of the given chunks, once the moment has come), so that hydration is the only
 * work left. `tests/audit/first-tap-compare.ts` runs it against any running build.
 */
import { median, spread } from './stats';
import type { Browser, Page } from 'playwright-core';
import { applyMobileConditions, FIRST_TAP_PAGES, PHONE, waitForMoment, type TapMoment } from '../helpers/mobile-conditions';

export const FIRST_TAP_RUNS = Number(process.env.AUDIT_FIRST_TAP_RUNS ?? 5);
export const FIRST_TAP_MOMENTS: TapMoment[] = ['after load', 'after idle'];

export interface FirstTapRow {
  path: string;
  moment: TapMoment;
  /** Milliseconds from the first tap to the drawer's first frame, one per run. */
  firstMs: number[];
  /** The same for the tap after closing the drawer. */
  laterMs: number[];
  error?: string;
}

/**
 * Arms the page: the next pointerdown starts a frame-by-frame watch for the open drawer (the native dialog,
 * or, measuring the React drawer, Radix's open dialog). Plain script text, so no build helper leaks into it.
 */
const ARM_TIMER = `window.__firstTap = new Promise(function (resolve, reject) {
  setTimeout(function () { reject(new Error('the drawer did not open within 30 s of the tap')); }, 30000);
  addEventListener('pointerdown', function (event) {
    var down = event.timeStamp;
    function open() {
      return Array.prototype.some.call(document.querySelectorAll('dialog[open], [role="dialog"][data-state="open"]'), function (d) {
        return (d.textContent || '').indexOf('Item added to your cart') >= 0;
      });
    }
    function frame(time) { if (open()) resolve(time - down); else requestAnimationFrame(frame); }
    requestAnimationFrame(frame);
  }, { capture: true, once: true });
});
undefined;`;

async function armTimer(page: Page): Promise<void> {
  await page.evaluate(ARM_TIMER);
}

async function timedTap(page: Page, button: ReturnType<Page['getByRole']>): Promise<number> {
  await armTimer(page);
  await button.tap();
  return page.evaluate('window.__firstTap') as Promise<number>;
}

const preloadScript = (extra: readonly string[]) => `Promise.all(Array.from(new Set(Array.prototype.flatMap.call(document.querySelectorAll('astro-island'), function (island) {
  return ['component-url', 'renderer-url'].map(function (name) { return island.getAttribute(name); }).filter(Boolean);
}).concat(${JSON.stringify(extra)}))).map(function (href) {
  return new Promise(function (resolve) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    link.onload = link.onerror = function () { resolve(); };
    document.head.append(link);
  });
})).then(function () { return true; })`;

/** Asks the browser to fetch every island's code (and `extra` chunks, the drawer's) without running it. */
async function preloadIslandCode(page: Page, extra: readonly string[]): Promise<void> {
  await page.evaluate(preloadScript(extra));
}

async function oneRun(browser: Browser, baseUrl: string, page: (typeof FIRST_TAP_PAGES)[number], moment: TapMoment, preload: readonly string[] | undefined): Promise<{ first: number; later: number }> {
  const context = await browser.newContext(PHONE);
  try {
    const tab = await context.newPage();
    await applyMobileConditions(tab);
    await tab.goto(new URL(page.path, baseUrl).href, { waitUntil: 'commit', timeout: 60_000 });
    await waitForMoment(tab, moment);
    if (preload) {
      await preloadIslandCode(tab, preload);
      await tab.waitForLoadState('networkidle');
    }
    const button = tab.getByRole('button', { name: page.button, exact: page.exact });
    await button.waitFor({ state: 'visible' });
    const first = await timedTap(tab, button);
    await tab.getByRole('button', { name: 'Continue shopping' }).tap();
    await tab.getByRole('dialog', { name: 'Item added to your cart' }).waitFor({ state: 'hidden' });
    const later = await timedTap(tab, button);
    return { first, later };
  } finally {
    await context.close();
  }
}

export async function measureFirstTaps(
  browser: Browser,
  baseUrl: string,
  options: { runs?: number; paths?: readonly string[]; preload?: readonly string[]; onRow?: (row: FirstTapRow) => void } = {},
): Promise<FirstTapRow[]> {
  const { runs = FIRST_TAP_RUNS, preload } = options;
  const pages = FIRST_TAP_PAGES.filter((p) => !options.paths || options.paths.includes(p.path));
  const rows: FirstTapRow[] = [];
  for (const moment of FIRST_TAP_MOMENTS) {
    for (const page of pages) {
      const row: FirstTapRow = { path: page.path, moment, firstMs: [], laterMs: [] };
      for (let run = 0; run < runs; run += 1) {
        try {
          const { first, later } = await oneRun(browser, baseUrl, page, moment, preload);
          row.firstMs.push(Math.round(first));
          row.laterMs.push(Math.round(later));
        } catch (error) {
          row.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
        }
      }
      options.onRow?.(row);
      rows.push(row);
    }
  }
  return rows;
}

/** "median ms (spread ms)" for a list of runs. */
export function describeRuns(values: readonly number[]): string {
  const m = median(values);
  return m === null ? '—' : `${Math.round(m)} ms (±${spread(values)} ms spread)`;
}
