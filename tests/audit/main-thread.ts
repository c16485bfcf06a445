/**
 * What the shop's own code does on a phone's main thread: each page is loaded fresh under the mobile conditions
 * (150 ms round trip, 1.6 Mbps, 375 px touch screen) at `--cpu`× CPU slowdown (8 by default, a slower phone),
 * with V8's sampling profiler and a performance trace on, from navigation until the page is idle (the live
 * read of price and stock has been answered and the main thread has had three quiet idle periods in a row). It prints,
 * median (lowest–highest) of `--runs`:
 * - the self time of every script file (each sample charged to the nearest script file on its stack, so native
 *   work such as `fetch` or a DOM call goes to the script that called it), the page's inline scripts, and the
 *   browser's style and layout work;
 * - the long tasks (over 50 ms) after the first contentful paint, and the shop's functions that ran in them.
 * The figures are throttled milliseconds, so they compare with Lighthouse's blocking time; Lighthouse says how
 * much a page blocks, this says which module and function does it.
 *
 *   npm run audit:main-thread [-- --pages=/,/book --runs=5 --cpu=8 --json=out.json]   (serves dist/: build first)
 *   npx tsx tests/audit/main-thread.ts http://localhost:4321 [same options]              (a site already running)
 */
import { rmSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, HEADLESS_SHELL_PATH } from './chromium';
import { snapshotBuild, startAuditServer, type AuditServer } from './site-server';
import { median } from './stats';
import { applyMobileConditions, PHONE } from '../helpers/mobile-conditions';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime?: number;
}
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { documentLoaderURL?: string } };
}

/** The V8 pseudo-frames that are not script work: waiting, and the browser's own tasks. */
const NOT_SCRIPT = new Set(['(idle)', '(program)', '(root)']);

/** A long task, as the browser and Lighthouse count one. */
const LONG_TASK_MS = 50;

/** Each sample of a profile: its node, when it was taken (µs, the trace's clock) and the ms it stands for. */
function samplesOf(profile: Profile): { node: ProfileNode; at: number; ms: number }[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  let at = profile.startTime ?? 0;
  return profile.samples.flatMap((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const node = nodes.get(id);
    // A sample's time is the gap to the next one.
    return node && !NOT_SCRIPT.has(node.callFrame.functionName) ? [{ node, at, ms: (profile.timeDeltas[i + 1] ?? 0) / 1000 }] : [];
  });
}

/** The nearest frame on a sample's stack that belongs to a script file. */
function scriptFrame(profile: Profile): (node: ProfileNode) => ProfileNode | undefined {
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  return (node) => {
    for (let at: ProfileNode | undefined = node; at; at = parent.get(at.id)) if (at.callFrame.url) return at;
    return undefined;
  };
}

/** Throttled milliseconds of script per file (the page's own inline scripts under its path), biggest first. */
export function scriptTimeByFile(profile: Profile): Map<string, number> {
  const frameOf = scriptFrame(profile);
  const byFile = new Map<string, number>();
  for (const { node, ms } of samplesOf(profile)) {
    const url = frameOf(node)?.callFrame.url;
    const file = url ? new URL(url).pathname : node.callFrame.functionName || '(browser, no script on the stack)';
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  return new Map([...byFile].sort((a, b) => b[1] - a[1]));
}

/** The shop's own code: the built scripts under /_astro/ and the page's inline scripts. */
const isShopScript = (url: string, pagePath: string) => {
  const path = new URL(url).pathname;
  return path.startsWith('/_astro/') || path === pagePath;
};

/** Throttled ms per shop function (`name file:line`) among the samples taken between `from` and `to` (µs). */
export function shopFunctionsBetween(profile: Profile, pagePath: string, from: number, to: number): Map<string, number> {
  const frameOf = scriptFrame(profile);
  const byFunction = new Map<string, number>();
  for (const { node, at, ms } of samplesOf(profile)) {
    if (at < from || at > to) continue;
    const frame = frameOf(node);
    if (!frame || !isShopScript(frame.callFrame.url, pagePath)) continue;
    const key = `${frame.callFrame.functionName || '(top level)'} ${withoutHash(new URL(frame.callFrame.url).pathname)}:${(frame.callFrame.lineNumber ?? 0) + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  }
  return byFunction;
}

/** A built file's name without its content hash, so two builds' files line up. */
export const withoutHash = (path: string) => path.replace(/\.[\w-]{8}\.js$/, '.js');

/** The page's main thread in a trace: its style and layout time, first contentful paint, and its tasks. */
export function mainThreadOf(events: readonly TraceEvent[]): { styleMs: number; layoutMs: number; fcp: number; tasks: { ts: number; dur: number }[] } {
  const fcpEvent = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcpEvent) throw new Error('the trace has no first contentful paint');
  const { pid } = fcpEvent;
  const tid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid ?? fcpEvent.tid;
  const navigations = events.filter((e) => e.pid === pid && e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http') && e.ts <= fcpEvent.ts);
  const start = Math.max(0, ...navigations.map((e) => e.ts));
  const own = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= start);
  const total = (names: string[]) => own.filter((e) => names.includes(e.name)).reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
  return {
    styleMs: total(['UpdateLayoutTree', 'RecalculateStyles']),
    layoutMs: total(['Layout']),
    fcp: fcpEvent.ts,
    tasks: own.filter((e) => e.name === 'RunTask').map((e) => ({ ts: e.ts, dur: e.dur ?? 0 })),
  };
}

interface LongTask {
  /** ms after the first contentful paint. */
  afterPaintMs: number;
  ms: number;
  /** The shop's functions in it, throttled ms each, biggest first. */
  shop: [string, number][];
}
export interface RunFigures {
  scripts: Record<string, number>;
  shopMs: number;
  styleMs: number;
  layoutMs: number;
  longTasks: LongTask[];
}

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'loading', 'blink.user_timing'];

/** Resolves after three idle periods in a row with most of their 50 ms to spare. Plain script text, so no build helper leaks into it. */
const QUIET = `new Promise(function (resolve) {
  var run = 0;
  function tick(deadline) {
    run = !deadline.didTimeout && deadline.timeRemaining() > 40 ? run + 1 : 0;
    if (run >= 3) resolve(true); else requestIdleCallback(tick, { timeout: 1000 });
  }
  requestIdleCallback(tick, { timeout: 1000 });
})`;

/** Loads a page and waits until it is idle: loaded, the live read answered where the page has offers, then quiet. */
async function loadUntilIdle(page: Page, url: string): Promise<void> {
  const liveRead = page.waitForResponse((response) => response.url().includes('/api/live-catalog'), { timeout: 60_000 });
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  if (await page.locator('[data-purchase-scope]').count()) await liveRead;
  else liveRead.catch(() => undefined);
  await page.evaluate(QUIET);
}

async function measureOnce(browser: Browser, url: string, cpu: number): Promise<RunFigures> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    await applyMobileConditions(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await cdp.send('Profiler.start');
    await loadUntilIdle(page, url);
    // The trace ends first: handing over the profile is a long task of its own.
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    const pagePath = new URL(url).pathname;
    const thread = mainThreadOf(trace.traceEvents);
    const scripts = Object.fromEntries([...scriptTimeByFile(profile)].map(([file, ms]) => [file.startsWith('/_astro/') ? withoutHash(file) : file === pagePath ? '(inline scripts)' : file, ms]));
    const shopMs = Object.entries(scripts)
      .filter(([file]) => file.startsWith('/_astro/') || file === '(inline scripts)')
      .reduce((sum, [, ms]) => sum + ms, 0);
    const longTasks = thread.tasks
      .filter((task) => task.ts >= thread.fcp && task.dur > LONG_TASK_MS * 1000)
      .map((task) => ({
        afterPaintMs: (task.ts - thread.fcp) / 1000,
        ms: task.dur / 1000,
        shop: [...shopFunctionsBetween(profile, pagePath, task.ts, task.ts + task.dur)].sort((a, b) => b[1] - a[1]),
      }));
    return { scripts, shopMs, styleMs: thread.styleMs, layoutMs: thread.layoutMs, longTasks };
  } finally {
    await context.close();
  }
}

/** "median (lowest–highest)" in whole ms. */
const spanOf = (values: number[]) => `${Math.round(median(values) ?? 0)} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;

function report(path: string, runs: RunFigures[]): void {
  const pick = (f: (run: RunFigures) => number) => runs.map(f);
  console.log(`\n${path}: the shop's scripts ${spanOf(pick((r) => r.shopMs))} ms, style ${spanOf(pick((r) => r.styleMs))} ms, layout ${spanOf(pick((r) => r.layoutMs))} ms`);
  const files = [...new Set(runs.flatMap((run) => Object.keys(run.scripts)))];
  const rows = files.map((file) => ({ file, ms: pick((r) => r.scripts[file] ?? 0) })).sort((a, b) => (median(b.ms) ?? 0) - (median(a.ms) ?? 0));
  for (const row of rows.slice(0, 10)) console.log(`  ${spanOf(row.ms).padStart(16)}  ${row.file}`);
  const longs = pick((r) => r.longTasks.length);
  console.log(`  long tasks after first paint: ${spanOf(longs)} a load, longest ${spanOf(pick((r) => Math.max(0, ...r.longTasks.map((t) => t.ms))))} ms`);
  const byFunction = new Map<string, number[]>();
  for (const run of runs) {
    const inRun = new Map<string, number>();
    for (const task of run.longTasks) for (const [name, ms] of task.shop) inRun.set(name, (inRun.get(name) ?? 0) + ms);
    for (const [name, ms] of inRun) byFunction.set(name, [...(byFunction.get(name) ?? []), ms]);
  }
  const functions = [...byFunction].sort((a, b) => (median(b[1]) ?? 0) - (median(a[1]) ?? 0)).slice(0, 8);
  for (const [name, ms] of functions) console.log(`    ${Math.round(median(ms) ?? 0)} ms in ${ms.length}/${runs.length} loads  ${name}`);
}

async function main(): Promise<void> {
  const [given] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const pages = (option('pages') ?? '/,/book,/store,/store/product/book-10-reasons').split(',');
  const runs = Number(option('runs') ?? 5);
  const cpu = Number(option('cpu') ?? 8);
  // Without a site's address, the built site is served as the audit serves it.
  const distDir = given ? undefined : snapshotBuild();
  let server: AuditServer | undefined;
  const browser = await chromium.launch({ executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_FLAGS });
  const results: Record<string, RunFigures[]> = Object.fromEntries(pages.map((path) => [path, []]));
  try {
    server = distDir ? await startAuditServer(process.cwd(), distDir) : undefined;
    const base = given ?? server?.url ?? '';
    console.log(`main thread from navigation to idle, ${cpu}× CPU, throttled ms: median (lowest–highest) of ${runs} loads`);
    // The pages take turns, so a busy spell on the machine falls on all of them rather than on one.
    for (let run = 0; run < runs; run += 1) {
      for (const path of pages) results[path]?.push(await measureOnce(browser, new URL(path, base).href, cpu));
    }
    for (const path of pages) report(path, results[path] ?? []);
    const json = option('json');
    if (json) writeFileSync(json, JSON.stringify(results, null, 1));
  } finally {
    await browser.close();
    await server?.close();
    if (distDir) rmSync(distDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
