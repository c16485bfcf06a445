/**
 * A visitor who reads three pages, on a phone: the home page, the book and a product page, one after the other
 * in one browser (its cache kept between them), under the mobile conditions (4× CPU, 150 ms round trip,
 * 1.6 Mbps). Prints each page's first contentful paint and largest contentful paint, the median of the runs and
 * their spread, against running builds, to weigh one against another (e.g. a stylesheet in each page against a
 * linked, cached one): with two or more base URLs the builds take turns, run by run, so a machine whose speed
 * drifts slows each alike.
 *
 *   npx tsx tests/audit/three-pages.ts http://localhost:4321 [http://localhost:4322 …] [--runs=5]
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { applyMobileConditions, PHONE } from '../helpers/mobile-conditions';
import { medianAndRange } from './phone-table';
import { median } from './stats';

export const THREE_PAGES = ['/', '/book', '/store/product/book-10-reasons'] as const;

const PAINTS = `new Promise(function (resolve) {
  var lcp = 0;
  new PerformanceObserver(function (list) { list.getEntries().forEach(function (e) { lcp = e.startTime; }); }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(function () {
    var fcp = performance.getEntriesByName('first-contentful-paint')[0];
    resolve([fcp ? fcp.startTime : 0, lcp]);
  }, 500);
})`;

const baseUrls = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 5);
if (!baseUrls.length) {
  console.error('Usage: npx tsx tests/audit/three-pages.ts <base URL> [<base URL> …] [--runs=5]');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
const figures = baseUrls.map(() => THREE_PAGES.map(() => ({ fcp: [] as number[], lcp: [] as number[] })));
try {
  for (let run = 0; run < runs; run++) {
    for (const [b, baseUrl] of baseUrls.entries()) await visit(baseUrl, figures[b]!);
  }
} finally {
  await browser.close();
}

async function visit(baseUrl: string, into: (typeof figures)[number]): Promise<void> {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await applyMobileConditions(page);
  for (const [i, path] of THREE_PAGES.entries()) {
    await page.goto(new URL(path, baseUrl).href, { waitUntil: 'load' });
    const [fcp, lcp] = (await page.evaluate(PAINTS)) as [number, number];
    into[i]!.fcp.push(Math.round(fcp));
    into[i]!.lcp.push(Math.round(lcp));
  }
  await context.close();
}
for (const [b, baseUrl] of baseUrls.entries()) {
  const pages = figures[b]!;
  console.log(baseUrl);
  for (const [i, path] of THREE_PAGES.entries()) console.log(`  ${String(i + 1)}. ${path.padEnd(32)} FCP ${medianAndRange(pages[i]!.fcp)} ms  LCP ${medianAndRange(pages[i]!.lcp)} ms`);
  const total = (k: 'fcp' | 'lcp') => pages.map((f) => median(f[k]) ?? 0).reduce((x, y) => x + y, 0);
  console.log(`  three pages, sum of medians: FCP ${total('fcp')} ms, LCP ${total('lcp')} ms`);
}
