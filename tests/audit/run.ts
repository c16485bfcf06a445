/**
 * `npm run audit`: one command that proves speed, accessibility, links, structured data and page weight.
 * Builds, serves the site on a free local port (in-memory database), runs Lighthouse, axe, the link
 * checker, the JSON-LD validator and the size budgets, writes reports/audit.md and exits non-zero when a
 * gate fails.
 *
 *   --no-build            audit the dist/ that is there
 *   --only=a,b            run some parts: lighthouse, axe, links, jsonld, budgets
 *   --ci                  CI mode (also when CI is set): Lighthouse targets warn instead of failing
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import { scanRoutes, type AxeScan } from './accessibility';
import { builtPages, builtSiteOrigin, DIST_DIR } from './built-site';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { axeGate, budgetGate, jsonLdGate, lighthouseGate, linksGate } from './gates';
import { validateBuiltPages } from './json-ld';
import { runLighthouse, type LighthouseRun, type Preset } from './lighthouse';
import { checkLinks } from './links';
import { renderMarkdown, renderSummary, type AuditResults } from './report';
import { LIGHTHOUSE_PATHS, siteRoutes } from './routes';
import { buildSite, startAuditServer, type AuditServer } from './site-server';
import { checkPageBudgets } from './size-budget';

const PARTS = ['lighthouse', 'axe', 'links', 'jsonld', 'budgets'] as const;
type Part = (typeof PARTS)[number];

const projectRoot = process.cwd();
const argv = process.argv.slice(2);
const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const unknown = only?.filter((part) => !PARTS.includes(part as Part));
if (unknown?.length) {
  console.error(`Unknown part(s): ${unknown.join(', ')}. Parts: ${PARTS.join(', ')}`);
  process.exit(2);
}
const wanted = (part: Part) => !only || only.includes(part);
const ci = argv.includes('--ci') || Boolean(process.env.CI);
const reportsDir = join(projectRoot, 'reports');
const reportFile = join(reportsDir, 'audit.md');

const results: AuditResults = { startedAt: new Date(), mode: ci ? 'ci' : 'local', routes: siteRoutes(projectRoot), gates: [], timings: [] };

async function timed<T>(part: string, work: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  console.log(`\n▸ ${part}`);
  try {
    return await work();
  } finally {
    results.timings.push({ part, seconds: (Date.now() - started) / 1000 });
  }
}

async function lighthouseRuns(baseUrl: string): Promise<LighthouseRun[]> {
  const runs: LighthouseRun[] = [];
  // One at a time: parallel runs on a small machine skew each other's timings.
  for (const path of LIGHTHOUSE_PATHS) {
    for (const preset of ['mobile', 'desktop'] as Preset[]) {
      let run = await runLighthouse(baseUrl, path, preset, join(reportsDir, 'lighthouse'), projectRoot);
      // Lighthouse sometimes fails to record a trace (NO_NAVSTART and the like): one more try.
      if (run.error) {
        console.log(`  ${path} ${preset}: ${run.error} — running it again`);
        run = await runLighthouse(baseUrl, path, preset, join(reportsDir, 'lighthouse'), projectRoot);
      }
      const s = run.scores;
      console.log(`  ${path} ${preset}: ${run.error ?? `${s.performance}/${s.accessibility}/${s['best-practices']}/${s.seo}`} (${run.seconds.toFixed(0)} s)`);
      runs.push(run);
    }
  }
  return runs;
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

  const pages = builtPages(DIST_DIR, projectRoot);
  if (wanted('jsonld')) results.jsonLd = await timed('JSON-LD', () => validateBuiltPages(pages, projectRoot));
  if (wanted('budgets')) results.budgets = await timed('size budgets', () => checkPageBudgets(DIST_DIR, pages));

  if (wanted('lighthouse') || wanted('axe') || wanted('links')) {
    let server: AuditServer | undefined;
    try {
      server = await timed('start server', () => startAuditServer(projectRoot));
      const baseUrl = server.url;
      results.baseUrl = baseUrl;
      console.log(`  ${baseUrl}`);
      if (wanted('lighthouse')) results.lighthouse = await timed('Lighthouse', () => lighthouseRuns(baseUrl));
      if (wanted('axe')) results.axe = await timed('axe', () => axeScans(baseUrl));
      if (wanted('links')) {
        const origin = builtSiteOrigin(DIST_DIR);
        // Pages no other page links to (the sitemap lists only indexable ones); not the 404 routes.
        const unlinked = results.routes.filter((route) => !route.status).map((route) => route.path);
        results.links = await timed('links', () => checkLinks(baseUrl, origin ? [origin] : [], unlinked));
      }
    } finally {
      await server?.close();
    }
  }

  results.gates = [
    lighthouseGate(results.lighthouse, ci),
    axeGate(results.axe),
    linksGate(results.links),
    jsonLdGate(results.jsonLd),
    budgetGate(results.budgets),
  ];
  writeFileSync(reportFile, renderMarkdown(results));
  console.log(renderSummary(results, relative(projectRoot, reportFile)));
  return results.gates.some((gate) => gate.status === 'fail') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
