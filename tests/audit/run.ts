/**
 * `npm run audit`: one command that proves speed, accessibility, links, structured data and page weight.
 * Builds, copies the build aside (.dist-audit-<process id>, so a rebuild of dist/ meanwhile cannot disturb it), serves
 * that on a free local port (in-memory database), runs Lighthouse, axe, the link checker, the JSON-LD
 * validator and the size budgets, writes reports/audit.md and exits non-zero when a gate fails.
 *
 *   --no-build            audit the dist/ that is there
 *   --only=a,b            run some parts: lighthouse, axe, links, jsonld, budgets
 *   --pages=/,/book       Lighthouse on these paths instead of one page of each kind
 *   --presets=mobile      Lighthouse with these presets only (mobile, mobile-8x, desktop; all three by default)
 *   --paired              each Lighthouse run of a page right after a run of the zero-JavaScript reference, and
 *                         the differences run by run reported (for claims on a machine whose speed drifts)
 *   --ci                  CI mode (also when CI is set): Lighthouse targets warn instead of failing
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import { scanRoutes, type AxeScan } from './accessibility';
import { builtPages } from './built-site';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { axeGate, budgetGate, jsonLdGate, lighthouseGate, linksGate } from './gates';
import { validateBuiltPages } from './json-ld';
import { describeRuns, FIRST_TAP_RUNS, measureFirstTaps, type FirstTapRow } from './first-tap';
import { PRESETS, runLighthouseMedian, runsFor, type LighthouseRun, type Preset } from './lighthouse';
import { renderPhoneTable } from './phone-table';
import { median, signed } from './stats';
import { checkSiteLinks } from './links';
import { renderMarkdown, renderSummary, type AuditResults } from './report';
import { LIGHTHOUSE_PATHS, siteRoutes } from './routes';
import { buildSite, snapshotBuild, startAuditServer, writeZeroJsReference, type AuditServer } from './site-server';
import { checkPageBudgets } from './size-budget';

const PARTS = ['lighthouse', 'firsttap', 'axe', 'links', 'jsonld', 'budgets'] as const;
type Part = (typeof PARTS)[number];

const projectRoot = process.cwd();
const argv = process.argv.slice(2);
const only = argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const unknown = only?.filter((part) => !PARTS.includes(part as Part));
if (unknown?.length) {
  console.error(`Unknown part(s): ${unknown.join(', ')}. Parts: ${PARTS.join(', ')}`);
  process.exit(2);
}
const wanted = (part: Part) => !only || only.includes(part);
const lighthousePaths =
  argv
    .find((a) => a.startsWith('--pages='))
    ?.slice('--pages='.length)
    .split(',') ?? LIGHTHOUSE_PATHS;
const presets = (argv
  .find((a) => a.startsWith('--presets='))
  ?.slice('--presets='.length)
  .split(',') ?? PRESETS) as Preset[];
const unknownPresets = presets.filter((preset) => !PRESETS.includes(preset));
if (unknownPresets.length) {
  console.error(`Unknown preset(s): ${unknownPresets.join(', ')}. Presets: ${PRESETS.join(', ')}`);
  process.exit(2);
}
const paired = argv.includes('--paired');
const ci = argv.includes('--ci') || Boolean(process.env.CI);
const reportsDir = join(projectRoot, 'reports');
const reportFile = join(reportsDir, 'audit.md');

const loadAverage = `${loadavg()
  .map((n) => n.toFixed(1))
  .join(' / ')} on ${availableParallelism()} cores`;
const results: AuditResults = { startedAt: new Date(), mode: ci ? 'ci' : 'local', loadAverage, routes: siteRoutes(projectRoot), gates: [], timings: [] };

async function timed<T>(part: string, work: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  console.log(`\n▸ ${part}`);
  try {
    return await work();
  } finally {
    results.timings.push({ part, seconds: (Date.now() - started) / 1000 });
  }
}

async function lighthouseRuns(baseUrl: string, referencePath: string): Promise<LighthouseRun[]> {
  const runs: LighthouseRun[] = [];
  rmSync(join(reportsDir, 'lighthouse'), { recursive: true, force: true });
  // One at a time: parallel runs on a small machine skew each other's timings. The zero-JavaScript
  // reference goes first, so every run states what this machine could reach at that time.
  for (const path of [referencePath, ...lighthousePaths]) {
    for (const preset of presets) {
      const count = runsFor(preset);
      const pairWith = paired && path !== referencePath ? referencePath : undefined;
      const run = await runLighthouseMedian(baseUrl, path, preset, join(reportsDir, 'lighthouse'), count, projectRoot, pairWith);
      const s = run.scores;
      const figures = run.error ?? `${s.performance}/${s.accessibility}/${s['best-practices']}/${s.seo}, CPU index ${run.benchmarkIndex}`;
      const all = run.performanceRuns && run.performanceRuns.length > 1 ? `, performance of each run ${run.performanceRuns.join(' ')}` : '';
      const p = run.paired;
      const against = p
        ? `; against the reference run by run: Perf ${signed(median(p.performanceDelta))} (${p.performanceDelta.map(signed).join(' ')}), TBT ${signed(median(p.tbtDeltaMs))} ms (${p.tbtDeltaMs.map(signed).join(' ')})`
        : '';
      console.log(`  ${path} ${preset}: ${figures} (${run.seconds.toFixed(0)} s${all}${against})`);
      runs.push(run);
    }
  }
  return runs;
}

async function firstTaps(baseUrl: string): Promise<FirstTapRow[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    return await measureFirstTaps(browser, baseUrl, {
      onRow: (row) => console.log(`  ${row.path} ${row.moment}: first tap ${describeRuns(row.firstMs)}, later tap ${describeRuns(row.laterMs)}${row.error ? ` — ${row.error}` : ''}`),
    });
  } finally {
    await browser.close();
  }
}

async function axeScans(baseUrl: string): Promise<AxeScan[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    return await scanRoutes(browser, baseUrl, results.routes, 2, (scan) => {
      const count = scan.violations.reduce((n, v) => n + v.nodes.length, 0);
      if (scan.error || count) console.log(`  ${scan.path} @${scan.viewport}: ${scan.error ?? `${count} violations`}`);
    });
  } finally {
    await browser.close();
  }
}

async function main(): Promise<number> {
  mkdirSync(reportsDir, { recursive: true });
  if (!argv.includes('--no-build')) await timed('build', () => buildSite(projectRoot));
  const distDir = snapshotBuild(projectRoot);

  const pages = builtPages(distDir, projectRoot);
  // Written after the pages are listed: the reference is measured, never judged as a page of the site.
  const referencePath = writeZeroJsReference(projectRoot, distDir);
  if (wanted('jsonld')) results.jsonLd = await timed('JSON-LD', () => validateBuiltPages(pages, projectRoot));
  if (wanted('budgets')) results.budgets = await timed('size budgets', () => checkPageBudgets(distDir, pages));

  if (wanted('lighthouse') || wanted('firsttap') || wanted('axe') || wanted('links')) {
    let server: AuditServer | undefined;
    try {
      server = await timed('start server', () => startAuditServer(projectRoot, distDir));
      const baseUrl = server.url;
      results.baseUrl = baseUrl;
      console.log(`  ${baseUrl}`);
      if (wanted('lighthouse')) results.lighthouse = await timed('Lighthouse', () => lighthouseRuns(baseUrl, referencePath));
      if (wanted('firsttap')) results.firstTap = await timed(`first tap (${FIRST_TAP_RUNS} runs per page)`, () => firstTaps(baseUrl));
      if (wanted('axe')) results.axe = await timed('axe', () => axeScans(baseUrl));
      if (wanted('links')) results.links = await timed('links', () => checkSiteLinks(baseUrl, distDir, results.routes));
    } finally {
      await server?.close();
    }
  }
  rmSync(join(projectRoot, distDir), { recursive: true, force: true });

  results.gates = [lighthouseGate(results.lighthouse, ci), axeGate(results.axe), linksGate(results.links), jsonLdGate(results.jsonLd), budgetGate(results.budgets)];
  const phoneTable = results.lighthouse?.some((run) => run.paired) ? renderPhoneTable(results.lighthouse, argv) : '';
  writeFileSync(reportFile, `${renderMarkdown(results)}${phoneTable && `\n\`\`\`text${phoneTable}\`\`\`\n`}`);
  console.log(renderSummary(results, relative(projectRoot, reportFile)));
  if (phoneTable) console.log(phoneTable);
  return results.gates.some((gate) => gate.status === 'fail') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
