/**
 * Lighthouse 13 runs through its command line (one Chromium per run, in its own process), mobile (the
 * default: simulated slow 4G and 4× CPU slowdown), mobile at 8× CPU (a slower phone, or a fast machine standing
 * in for one) or desktop (`--preset=desktop`). Keeps the JSON and HTML
 * reports and returns the four category scores and the figures the audit report tabulates.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats';
import { CHROMIUM_PATH, LIGHTHOUSE_CHROME_FLAGS } from './chromium';

export type Preset = 'mobile' | 'mobile-8x' | 'desktop';
export const PRESETS: readonly Preset[] = ['mobile', 'mobile-8x', 'desktop'];
/** What each preset adds to Lighthouse's command line. */
const PRESET_FLAGS: Record<Preset, string[]> = { mobile: [], 'mobile-8x': ['--throttling.cpuSlowdownMultiplier=8'], desktop: ['--preset=desktop'] };
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseRun {
  path: string;
  preset: Preset;
  /** 0-100 per category; null when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** SEO without "page isn't blocked from indexing", for pages that are noindex on purpose. */
  seoIndexableExcused: number | null;
  noindex: boolean;
  lcpMs: number | null;
  cls: number | null;
  tbtMs: number | null;
  transferBytes: number | null;
  scriptBytes: number | null;
  /** The audits that cost the most points, worst first: "id: title (display value)". */
  losses: string[];
  /** Lighthouse's measure of the host CPU during the run (a quiet 2-core machine here: about 1 600-2 800). */
  benchmarkIndex: number | null;
  /** How many times Lighthouse ran for this row. */
  attempts: number;
  /** The performance score of every run when the row is the median of several. */
  performanceRuns?: number[];
  /** The TBT of every run, in the same order. */
  tbtRuns?: number[];
  /** The CPU index of every run, in the same order. */
  benchmarkIndexes?: number[];
  /** With `pairWith`: the zero-JavaScript reference run just before each of this page's runs. */
  paired?: PairedReference;
  reportFile?: string;
  seconds: number;
  error?: string;
}

interface LhAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: Array<Record<string, unknown>> };
}
interface LhResult {
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, LhAudit>;
  runtimeError?: { code: string; message: string };
}

const numeric = (audit: LhAudit | undefined) => (typeof audit?.numericValue === 'number' ? audit.numericValue : null);

/** A category score recomputed as Lighthouse does (weighted mean of scored audits), leaving some audits out. */
function categoryScoreWithout(result: LhResult, category: Category, leaveOut: string[]): number | null {
  let total = 0;
  let weights = 0;
  for (const ref of result.categories[category]?.auditRefs ?? []) {
    const audit = result.audits[ref.id];
    if (!audit || leaveOut.includes(ref.id) || ref.weight === 0 || audit.score === null) continue;
    if (audit.scoreDisplayMode !== 'binary' && audit.scoreDisplayMode !== 'numeric' && audit.scoreDisplayMode !== 'metricSavings') continue;
    total += ref.weight * audit.score;
    weights += ref.weight;
  }
  return weights ? Math.round((total / weights) * 100) : null;
}

/** The audits that lost points across all categories, most expensive first. */
function pointLosses(result: LhResult): string[] {
  const losses: Array<{ cost: number; text: string }> = [];
  for (const category of CATEGORIES) {
    const refs = result.categories[category]?.auditRefs ?? [];
    const weights = refs.reduce((sum, ref) => sum + ref.weight, 0) || 1;
    for (const ref of refs) {
      const audit = result.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1 || ref.weight === 0) continue;
      const cost = (ref.weight / weights) * (1 - audit.score) * 100;
      losses.push({ cost, text: `${category}/${audit.id} −${cost.toFixed(1)}${audit.displayValue ? ` (${audit.displayValue})` : ''}` });
    }
  }
  return losses.sort((a, b) => b.cost - a.cost).map((l) => l.text);
}

export function summarise(path: string, preset: Preset, result: LhResult, seconds: number, reportFile?: string): LighthouseRun {
  const score = (category: Category) => {
    const value = result.categories[category]?.score;
    return typeof value === 'number' ? Math.round(value * 100) : null;
  };
  const scriptRow = result.audits['resource-summary']?.details?.items?.find((item) => item.resourceType === 'script');
  const noindex = result.audits['is-crawlable']?.score === 0;
  return {
    path,
    preset,
    scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') },
    seoIndexableExcused: noindex ? categoryScoreWithout(result, 'seo', ['is-crawlable']) : score('seo'),
    noindex,
    lcpMs: numeric(result.audits['largest-contentful-paint']),
    cls: numeric(result.audits['cumulative-layout-shift']),
    tbtMs: numeric(result.audits['total-blocking-time']),
    transferBytes: numeric(result.audits['total-byte-weight']),
    scriptBytes: typeof scriptRow?.transferSize === 'number' ? scriptRow.transferSize : null,
    losses: pointLosses(result),
    benchmarkIndex: typeof result.environment?.benchmarkIndex === 'number' ? Math.round(result.environment.benchmarkIndex) : null,
    attempts: 1,
    reportFile,
    seconds,
    error: result.runtimeError ? `${result.runtimeError.code}: ${result.runtimeError.message}` : undefined,
  };
}

const slug = (path: string) => (path === '/' ? 'home' : path.slice(1).replace(/[^a-z0-9]+/gi, '-'));

/** A page whose runs gave no scores, and why. */
export function failedRun(path: string, preset: Preset, seconds: number, error: string): LighthouseRun {
  return {
    path,
    preset,
    scores: { performance: null, accessibility: null, 'best-practices': null, seo: null },
    seoIndexableExcused: null,
    noindex: false,
    lcpMs: null,
    cls: null,
    tbtMs: null,
    transferBytes: null,
    scriptBytes: null,
    losses: [],
    benchmarkIndex: null,
    attempts: 1,
    seconds,
    error,
  };
}

/** Runs Lighthouse on one page; never throws (a failed run comes back with `error` set and no scores). */
export async function runLighthouse(baseUrl: string, path: string, preset: Preset, outDir: string, projectRoot = process.cwd(), attempt = 1): Promise<LighthouseRun> {
  mkdirSync(outDir, { recursive: true });
  const outBase = join(outDir, `${slug(path)}-${preset}${attempt > 1 ? `-run${attempt}` : ''}`);
  const cli = join(projectRoot, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const args = [
    cli,
    new URL(path, baseUrl).href,
    '--output=json',
    '--output=html',
    `--output-path=${outBase}`,
    `--chrome-flags=${LIGHTHOUSE_CHROME_FLAGS.join(' ')}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    '--quiet',
    ...PRESET_FLAGS[preset],
  ];
  const jsonFile = `${outBase}.report.json`;
  rmSync(jsonFile, { force: true });
  const started = Date.now();
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const seconds = (Date.now() - started) / 1000;
  if (code !== 0 || !existsSync(jsonFile)) {
    return failedRun(path, preset, seconds, `lighthouse exited with ${code}: ${stderr.join('').trim().split('\n').slice(-3).join(' ')}`);
  }
  return summarise(path, preset, JSON.parse(readFileSync(jsonFile, 'utf8')) as LhResult, seconds, `${outBase}.report.html`);
}

/**
 * The page against the zero-JavaScript reference, run by run: each of the page's runs comes right after one of
 * the reference's, so both meet the same moment of a shared machine whose speed drifts two-fold within minutes.
 * The differences (page less reference) are what a claim rests on; each list is in run order.
 */
export interface PairedReference {
  referencePerformance: number[];
  referenceTbtMs: number[];
  performanceDelta: number[];
  tbtDeltaMs: number[];
}

/** Mobile runs per page: Lighthouse's own advice against run-to-run variance is the median of five. */
export const MOBILE_RUNS = Number(process.env.AUDIT_LIGHTHOUSE_MOBILE_RUNS ?? 5);
/** Desktop runs per page: fewer, as desktop runs unthrottled and varies less, but never one alone. */
export const DESKTOP_RUNS = Number(process.env.AUDIT_LIGHTHOUSE_DESKTOP_RUNS ?? 3);
/** How many runs a page gets with a preset. */
export const runsFor = (preset: Preset) => (preset === 'desktop' ? DESKTOP_RUNS : MOBILE_RUNS);

/**
 * Runs Lighthouse `runs` times (a failed run, NO_NAVSTART and the like, is tried again, up to two extra
 * tries) and keeps the median run by performance score, noting every performance score seen. With
 * `pairWith` (the reference's path) each run is preceded by a run of the reference, kept in `paired`.
 */
export async function runLighthouseMedian(baseUrl: string, path: string, preset: Preset, outDir: string, runs: number, projectRoot = process.cwd(), pairWith?: string): Promise<LighthouseRun> {
  const scored: LighthouseRun[] = [];
  const references: LighthouseRun[] = [];
  let attempts = 0;
  let last: LighthouseRun | undefined;
  let seconds = 0;
  while (scored.length < runs && attempts < runs + 2) {
    attempts += 1;
    const reference = pairWith ? await runLighthouse(baseUrl, pairWith, preset, join(outDir, 'paired', slug(path)), projectRoot, attempts) : undefined;
    if (reference?.error) continue;
    last = await runLighthouse(baseUrl, path, preset, outDir, projectRoot, attempts);
    seconds += last.seconds + (reference?.seconds ?? 0);
    if (last.error) continue;
    scored.push(last);
    if (reference) references.push(reference);
  }
  if (!scored.length) return { ...(last ?? failedRun(path, preset, seconds, 'no run of the reference scored')), attempts, seconds };
  const byPerformance = [...scored].sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
  const kept = byPerformance[Math.floor((byPerformance.length - 1) / 2)]!;
  const performance = (run: LighthouseRun) => run.scores.performance ?? 0;
  const tbt = (run: LighthouseRun) => run.tbtMs ?? 0;
  return {
    ...kept,
    // The median TBT of the runs, not only the kept run's, so one quiet run cannot carry the figure.
    tbtMs: scored.length > 1 ? median(scored.map(tbt))! : kept.tbtMs,
    attempts,
    seconds,
    performanceRuns: scored.map(performance),
    tbtRuns: scored.map((run) => Math.round(tbt(run))),
    benchmarkIndexes: scored.map((run) => run.benchmarkIndex ?? 0),
    ...(references.length && {
      paired: {
        referencePerformance: references.map(performance),
        referenceTbtMs: references.map(tbt),
        performanceDelta: scored.map((run, i) => performance(run) - performance(references[i]!)),
        tbtDeltaMs: scored.map((run, i) => Math.round(tbt(run) - tbt(references[i]!))),
      },
    }),
  };
}
