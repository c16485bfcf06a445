/**
 * Where a page's start-up script time goes, by file, on a phone: the page is loaded under the mobile
 * conditions (4× CPU slowdown, 150 ms round trip, 1.6 Mbps, 375 px touch screen) with V8's sampling profiler
 * on, from navigation until `--seconds` after load, and each sample is charged to the first script file on
 * its stack (native work such as `fetch` or a DOM call goes to the script that called it). The figures are
 * throttled milliseconds, so they compare with Lighthouse's mobile blocking time; run a page a few times,
 * as one profile on a shared machine can be off by half.
 *
 *   npx tsx tests/audit/startup-profile.ts http://localhost:4321/book [--runs=3] [--seconds=3] [--top=12]
 *
 * Lighthouse says how much a page blocks; this says which module does it. It found the formatters that
 * `src/lib/format.ts` used to build as it loaded: 450 ms of the product page's start-up.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { median } from './stats';
import { applyMobileConditions, PHONE } from '../helpers/mobile-conditions';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The V8 pseudo-frames that are not script work: waiting, and the browser's own tasks. */
const NOT_SCRIPT = new Set(['(idle)', '(program)', '(root)']);

/** Throttled milliseconds of script per file (the page's own inline scripts under its path), biggest first. */
export function scriptTimeByFile(profile: Profile): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const fileOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = nodes.get(at)?.callFrame.url;
      if (url) return new URL(url).pathname;
    }
    return nodes.get(id)?.callFrame.functionName || '(browser, no script on the stack)';
  };
  const byFile = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = nodes.get(id)?.callFrame.functionName ?? '';
    if (NOT_SCRIPT.has(name)) return;
    // A sample's time is the gap to the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const file = fileOf(id);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  });
  return new Map([...byFile].sort((a, b) => b[1] - a[1]));
}

async function profileOnce(browser: Browser, url: string, seconds: number): Promise<Map<string, number>> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    await applyMobileConditions(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    // The idle work after load (the live read, analytics) counts too; wait on the clock, there is nothing to see.
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    return scriptTimeByFile(profile);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const [url] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const option = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
  if (!url) {
    console.error('Usage: npx tsx tests/audit/startup-profile.ts <page URL> [--runs=3] [--seconds=3] [--top=12]');
    process.exit(2);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const runs: Map<string, number>[] = [];
    for (let i = 0; i < option('runs', 3); i++) runs.push(await profileOnce(browser, url, option('seconds', 3)));
    const files = new Set(runs.flatMap((run) => [...run.keys()]));
    const rows = [...files].map((file) => ({ file, ms: runs.map((run) => run.get(file) ?? 0) })).map((row) => ({ ...row, median: median(row.ms) ?? 0 }));
    rows.sort((a, b) => b.median - a.median);
    const totals = runs.map((run) => [...run.values()].reduce((sum, ms) => sum + ms, 0));
    console.log(`script at start-up, throttled ms: median ${Math.round(median(totals) ?? 0)} (runs ${totals.map(Math.round).join(' ')})`);
    for (const row of rows.slice(0, option('top', 12))) console.log(`${String(Math.round(row.median)).padStart(6)}  ${row.file}  (${row.ms.map(Math.round).join(' ')})`);
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
