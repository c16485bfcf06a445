/** The audit report: Markdown for reports/audit.md and a short summary for the terminal. */
import type { AxeScan } from './accessibility';
import { LIGHTHOUSE_TARGETS, MOBILE_TBT_LIMIT_MS } from './budgets';
import { ZERO_JS_REFERENCE_PATH } from './site-server';
import { judgedScore, type Gate } from './gates';
import type { JsonLdResult } from './json-ld';
import { describeRuns, FIRST_TAP_RUNS, type FirstTapRow } from './first-tap';
import { median, signed, spread } from './stats';
import { CATEGORIES, DESKTOP_RUNS, MOBILE_RUNS, type LighthouseRun } from './lighthouse';
import { MOBILE_CONDITIONS } from '../helpers/mobile-conditions';
import type { LinkReport } from './links';
import type { SiteRoute } from './routes';
import { kib, type BudgetResult } from './size-budget';

export interface AuditResults {
  startedAt: Date;
  /** 1, 5 and 15-minute load averages when the audit started, e.g. "1.2 / 3.4 / 5.0 on 2 cores". */
  loadAverage: string;
  mode: 'ci' | 'local';
  baseUrl?: string;
  routes: SiteRoute[];
  gates: Gate[];
  timings: Array<{ part: string; seconds: number }>;
  lighthouse?: LighthouseRun[];
  firstTap?: FirstTapRow[];
  axe?: AxeScan[];
  links?: LinkReport;
  jsonLd?: JsonLdResult[];
  budgets?: BudgetResult[];
}

const cell = (value: unknown) =>
  String(value ?? '—')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
export function table(headers: string[], rows: unknown[][]): string {
  const align = headers.map((h) => (h.startsWith('>') ? '---:' : '---'));
  const head = headers.map((h) => h.replace(/^>/, ''));
  return [`| ${head.join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

const ICON: Record<Gate['status'], string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skipped: 'skipped' };
const ms = (value: number | null) => (value === null ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);
const kb = (bytes: number | null) => (bytes === null ? '—' : `${kib(bytes).toFixed(1)}`);
const size = (raw: number, gzip: number) => `${kib(raw).toFixed(1)} / ${kib(gzip).toFixed(1)}`;
const threeSizes = (s: { raw: number; gzip: number; brotli: number }) => `${kib(s.raw).toFixed(1)} / ${kib(s.gzip).toFixed(1)} / ${kib(s.brotli).toFixed(1)}`;

function lighthouseSection(runs: LighthouseRun[], loadAverage: string): string {
  const mark = (run: LighthouseRun, category: (typeof CATEGORIES)[number]) => {
    const raw = run.scores[category];
    const judged = judgedScore(run, category);
    const target = LIGHTHOUSE_TARGETS[run.preset];
    const below = target !== undefined && (judged === null || judged < target);
    const text = category === 'seo' && run.noindex ? `${raw ?? '—'} (${judged ?? '—'}†)` : `${raw ?? '—'}`;
    return below ? `**${text}**` : text;
  };
  const rows = runs.map((run) => [
    run.path === ZERO_JS_REFERENCE_PATH ? `${run.path} (reference: no JavaScript)` : run.path,
    run.preset,
    ...CATEGORIES.map((category) => mark(run, category)),
    ms(run.lcpMs),
    run.cls === null ? '—' : run.cls.toFixed(3),
    ms(run.tbtMs),
    kb(run.transferBytes),
    kb(run.scriptBytes),
    run.performanceRuns && run.performanceRuns.length > 1 ? run.performanceRuns.join(' ') : '—',
    run.performanceRuns && run.performanceRuns.length > 1 ? String(Math.max(...run.performanceRuns) - Math.min(...run.performanceRuns)) : '—',
    run.benchmarkIndexes && run.benchmarkIndexes.length > 1 ? `${Math.min(...run.benchmarkIndexes)}-${Math.max(...run.benchmarkIndexes)}` : `${run.benchmarkIndex ?? '—'}`,
  ]);
  const losses = runs.filter((run) => run.error || run.losses.length).map((run) => `- \`${run.path}\` ${run.preset}: ${run.error ?? run.losses.slice(0, 5).join('; ')}`);
  return [
    `## Lighthouse`,
    '',
    `Targets: desktop ${LIGHTHOUSE_TARGETS.desktop}, mobile ≥ ${LIGHTHOUSE_TARGETS.mobile} in every category and TBT ≤ ${MOBILE_TBT_LIMIT_MS} ms; **bold** = below target. The first row is a content page with every script taken out, served beside the site: what this machine could reach during this run. Mobile is Lighthouse's default (simulated slow 4G, 4× CPU slowdown), mobile-8x the same at 8× CPU slowdown (judged against the reference, not on its own); desktop is \`--preset=desktop\`. Transfer and JS are KiB as sent over the wire by the local server, which compresses text with brotli as Netlify does.`,
    '',
    table(['page', 'preset', '>Perf', '>A11y', '>BP', '>SEO', '>LCP', '>CLS', '>TBT', '>transfer KiB', '>JS KiB', '>Perf of each run', '>spread', '>CPU index'], rows),
    '',
    '† The page is `noindex` on purpose (cart, checkout): the second figure leaves out "Page isn\'t blocked from indexing", and is the one judged.',
    '',
    `Mobile rows are the median of ${MOBILE_RUNS} runs by performance score (Lighthouse's advice for run-to-run variance; every run's score is listed, and the spread is the highest less the lowest), with the median TBT of the runs; desktop rows likewise of ${DESKTOP_RUNS} runs. CPU index is Lighthouse's benchmark of the host, lowest-highest over the runs (on a quiet 2-core machine here it measured about 1 600-2 800; a lower figure means other work was competing for the CPU and the performance figures are pessimistic). Load average at the start of the audit: ${loadAverage}.`,
    '',
    '### Where the points went (largest losses first)',
    '',
    ...(losses.length ? losses : ['- nothing lost']),
  ].join('\n');
}

function axeSection(scans: AxeScan[], routes: SiteRoute[]): string {
  const byRoute = new Map<string, AxeScan[]>();
  scans.forEach((scan) => byRoute.set(scan.path, [...(byRoute.get(scan.path) ?? []), scan]));
  const summary = (scan: AxeScan | undefined) => {
    if (!scan) return '—';
    if (scan.error) return `error: ${scan.error}`;
    const count = scan.violations.reduce((n, v) => n + v.nodes.length, 0);
    return count === 0 ? '0' : `**${count}** (${scan.violations.map((v) => v.rule).join(', ')})`;
  };
  const rows = routes
    .filter((route) => byRoute.has(route.path))
    .map((route) => {
      const list = byRoute.get(route.path)!;
      const landed = list[0]?.finalPath !== route.path ? ` → ${list[0]?.finalPath}` : '';
      return [`${route.path}${landed}`, route.kind, list[0]?.status ?? '—', summary(list.find((s) => s.viewport === 'desktop')), summary(list.find((s) => s.viewport === 'mobile'))];
    });
  const details = scans.flatMap((scan) => scan.violations.flatMap((v) => v.nodes.map((node) => [scan.path, scan.viewport, v.rule, v.impact, v.help, `\`${node.target}\``, `\`${node.html}\``])));
  return [
    `## Accessibility (axe-core, WCAG 2.0/2.1 A and AA)`,
    '',
    `Every route at 1280 px and 375 px, reduced motion, FAQ \`<details>\` opened; a fresh browser context each time (empty cart, signed out). Pages that redirect without a session are scanned where they land.`,
    '',
    table(['route', 'kind', '>status', 'desktop 1280', 'mobile 375'], rows),
    '',
    ...(details.length ? ['### Violations', '', table(['route', 'width', 'rule', 'impact', 'what', 'element', 'html'], details)] : ['No violations.']),
  ].join('\n');
}

function linksSection(report: LinkReport): string {
  const external = report.skipped.filter((url) => /^https?:/i.test(url));
  const other = report.skipped.filter((url) => !/^https?:/i.test(url));
  return [
    `## Links (linkinator)`,
    '',
    `Crawled from \`/\` and the sitemap (plus the routes no page links to) on the local server: ${report.pages} pages, ${report.checked} links (${report.ok} OK), ${report.broken.length} broken, in ${report.seconds.toFixed(1)} s. External links are listed, never fetched.`,
    '',
    ...(report.broken.length
      ? [
          table(
            ['broken link', '>status', 'found on'],
            report.broken.map((b) => [b.url, b.status ?? 'error', b.parent]),
          ),
        ]
      : ['No broken internal links.']),
    '',
    `### Skipped: external (${external.length})`,
    '',
    ...external.map((url) => `- ${url}`),
    ...(other.length ? ['', `### Skipped: not web links (${other.length}; e.g. mailto:, and Open Graph text linkinator reads as a URL)`, '', ...other.map((url) => `- ${url}`)] : []),
  ].join('\n');
}

function jsonLdSection(results: JsonLdResult[]): string {
  const rows = [...results]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((r) => [r.path, r.blocks, r.types.join(', ') || '—', r.expected.join(', ') || '—', r.problems.length ? `**${r.problems.join('; ')}**` : 'valid', r.warnings.length]);
  const warnings = new Map<string, number>();
  for (const warning of results.flatMap((r) => r.warnings)) warnings.set(warning, (warnings.get(warning) ?? 0) + 1);
  return [
    `## Structured data (JSON-LD)`,
    '',
    'Every built page in dist/. Each block must parse; every entity must carry the required properties of its type (tests/audit/json-ld-rules.ts, after Google\'s structured data documentation) with well-formed prices, currencies, dates and return policies; BreadcrumbList items need absolute URLs in order; FAQPage lists as many questions as the page\'s FAQ; every `{"@id"}` reference must resolve on the page. "Expected" is what the page kind (and, for landing pages, its content file) requires. Missing recommended properties are warnings, counted per page and listed below.',
    '',
    table(['page', '>blocks', 'types', 'expected', 'result', '>warnings'], rows),
    ...(warnings.size ? ['', '### Warnings (pages)', '', ...[...warnings].sort((a, b) => b[1] - a[1]).map(([warning, count]) => `- ${warning} (${count})`)] : []),
  ].join('\n');
}

/** The heaviest page of each kind: what it starts with, and what its islands load when used. */
function startupSection(results: BudgetResult[]): string {
  const heaviest = new Map<string, BudgetResult>();
  for (const r of results) if ((heaviest.get(r.weight.kind)?.weight.js.brotli ?? -1) < r.weight.js.brotli) heaviest.set(r.weight.kind, r);
  const rows = [...heaviest.values()].sort((a, b) => a.weight.js.brotli - b.weight.js.brotli).map(({ weight: w }) => [w.kind, w.path, threeSizes(w.js), w.js.files.length, threeSizes(w.onUseJs)]);
  return [
    `## Start-up JavaScript per page kind`,
    '',
    'KiB raw / gzip / brotli, the heaviest page of each kind: what the page runs at start, and what its islands load when the visitor first uses them (React included).',
    '',
    table(['kind', 'page', '>at start', '>files', '>on first use'], rows),
  ].join('\n');
}

function budgetSection(results: BudgetResult[]): string {
  const rows = [...results]
    .sort((a, b) => a.weight.kind.localeCompare(b.weight.kind) || a.weight.path.localeCompare(b.weight.path))
    .map(({ weight: w, budget: b, over }) => [
      w.path,
      w.kind,
      size(w.html.raw, w.html.gzip),
      size(w.css.raw, w.css.gzip),
      threeSizes(w.js),
      w.js.files.length,
      threeSizes(w.onUseJs),
      threeSizes(w.lazyJs),
      `${b.html.raw}/${b.html.gzip} · ${b.css.raw}/${b.css.gzip} · ${b.js.raw}/${b.js.gzip}/${b.js.brotli} · ${b.onUseJs.raw}/${b.onUseJs.gzip}/${b.onUseJs.brotli} · ${b.lazyJs.raw}/${b.lazyJs.gzip}/${b.lazyJs.brotli}`,
      over.length ? `**${over.join('; ')}**` : 'within',
    ]);
  return [
    `## Size budgets`,
    '',
    'KiB from dist/, raw / gzip (HTML, CSS) and raw / gzip / brotli (JavaScript): the HTML; its stylesheets; the JavaScript it starts (script src, modulepreload, islands hydrated on load or idle) with every module those import statically; the JavaScript its islands load when the visitor uses them (`client:intent`) or scrolls to them (`client:visible`); and the lazy JavaScript any of those can load later by dynamic import(). Budgets (HTML · CSS · start JS · on-use JS · lazy JS) are in tests/audit/budgets.ts.',
    '',
    table(['page', 'kind', '>HTML', '>CSS', '>start JS', '>files', '>on-use JS', '>lazy JS', 'budget', 'result'], rows),
  ].join('\n');
}

export function renderMarkdown(results: AuditResults): string {
  const parts = [
    `# Quality audit`,
    '',
    `${results.startedAt.toISOString()} · ${results.mode === 'ci' ? 'CI mode' : 'local mode'} · Node ${process.version} · load average ${results.loadAverage}${results.baseUrl ? ` · served at ${results.baseUrl} (in-memory database)` : ''}`,
    '',
    '## Summary',
    '',
    table(
      ['gate', 'result', 'details'],
      results.gates.map((gate) => [gate.name, ICON[gate.status], gate.summary]),
    ),
    '',
    table(
      ['part', '>seconds'],
      results.timings.map((t) => [t.part, t.seconds.toFixed(1)]),
    ),
  ];
  if (results.lighthouse) parts.push('', lighthouseSection(results.lighthouse, results.loadAverage));
  const pairedRuns = results.lighthouse?.filter((run) => run.paired) ?? [];
  if (pairedRuns.length) parts.push('', pairedSection(pairedRuns));
  if (results.firstTap) parts.push('', firstTapSection(results.firstTap, results.lighthouse ?? []));
  if (results.axe) parts.push('', axeSection(results.axe, results.routes));
  if (results.links) parts.push('', linksSection(results.links));
  if (results.jsonLd) parts.push('', jsonLdSection(results.jsonLd));
  if (results.budgets) parts.push('', startupSection(results.budgets), '', budgetSection(results.budgets));
  return `${parts.join('\n')}\n`;
}

function pairedSection(runs: LighthouseRun[]): string {
  const rows = runs.map((run) => {
    const p = run.paired!;
    return [
      run.path,
      run.preset,
      signed(median(p.performanceDelta)),
      String(spread(p.performanceDelta)),
      p.performanceDelta.map(signed).join(' '),
      signed(median(p.tbtDeltaMs)),
      String(spread(p.tbtDeltaMs)),
      p.tbtDeltaMs.map(signed).join(' '),
      p.referencePerformance.join(' '),
      run.benchmarkIndexes?.length ? `${Math.min(...run.benchmarkIndexes)}-${Math.max(...run.benchmarkIndexes)}` : '—',
    ];
  });
  return [
    '## Against the reference, run by run',
    '',
    `Each run of the page came right after a run of the zero-JavaScript reference (\`--paired\`), so both met the same moment of the machine. The differences are the page's figure less the reference's, per pair; the median and the spread (largest less smallest) of the ${MOBILE_RUNS} pairs are what a claim rests on.`,
    '',
    table(['page', 'preset', '>Perf Δ median', '>spread', '>Perf Δ each pair', '>TBT Δ ms median', '>spread', '>TBT Δ each pair', '>reference Perf each pair', '>CPU index'], rows),
  ].join('\n');
}

function firstTapSection(rows: FirstTapRow[], lighthouse: LighthouseRun[]): string {
  const figure = (values: number[]) => (values.length ? `${Math.round(median(values)!)}` : '—');
  const mobile = lighthouse.filter((run) => run.preset === 'mobile');
  const reference = mobile.find((run) => run.path === ZERO_JS_REFERENCE_PATH);
  const lighthouseOf = (path: string) => mobile.find((run) => run.path === path);
  const body = rows.map((row) => {
    const lh = lighthouseOf(row.path);
    return [
      row.path,
      row.moment,
      figure(row.firstMs),
      row.firstMs.length ? String(spread(row.firstMs)) : '—',
      row.firstMs.join(' ') || '—',
      figure(row.laterMs),
      row.laterMs.length ? String(spread(row.laterMs)) : '—',
      lh ? `${lh.scores.performance ?? '—'} / ${ms(lh.tbtMs)}` : '—',
      reference ? `${reference.scores.performance ?? '—'} / ${ms(reference.tbtMs)}` : '—',
      row.error ?? '',
    ];
  });
  const c = MOBILE_CONDITIONS;
  return [
    '## First tap',
    '',
    `From the tap on Add to Cart (its pointerdown) to the first frame in which the cart drawer is open, on a 375 px touch screen under ${c.cpuSlowdown}× CPU slowdown, ${c.rttMs} ms round trip and ${c.downloadKbps / 1000} Mbps down (applied through CDP in Playwright), each run on a freshly loaded page: as soon as it has loaded, and after the network went quiet and five more seconds passed. The later tap is the next one, after closing the drawer. Milliseconds, the median of ${FIRST_TAP_RUNS} runs and the spread (slowest less fastest); the mobile Lighthouse performance and TBT of the same page and of the zero-JavaScript reference, from this run, beside it.`,
    '',
    table(['page', 'tap', '>first tap ms', '>spread', '>each run', '>later tap ms', '>spread', '>Lighthouse Perf / TBT', '>reference Perf / TBT', 'error'], body),
  ].join('\n');
}

/** A few lines per gate for the terminal. */
export function renderSummary(results: AuditResults, reportFile: string): string {
  const lines = ['', 'Quality audit', ''];
  for (const gate of results.gates) lines.push(`  ${ICON[gate.status].padEnd(7)} ${gate.name}: ${gate.summary}`);
  if (results.lighthouse) {
    lines.push('', '  Lighthouse                         preset   Perf A11y  BP  SEO      LCP      TBT   CLS    CPU index');
    for (const run of results.lighthouse) {
      const s = CATEGORIES.map((c) => String(judgedScore(run, c) ?? '—').padStart(4)).join(' ');
      lines.push(
        `  ${run.path.slice(0, 34).padEnd(34)} ${run.preset.padEnd(8)} ${s}  ${ms(run.lcpMs).padStart(8)} ${ms(run.tbtMs).padStart(8)} ${run.cls === null ? '  —  ' : run.cls.toFixed(3)}  ${run.benchmarkIndex ?? '—'}`,
      );
    }
  }
  for (const row of results.firstTap ?? []) lines.push(`  first tap ${row.path} ${row.moment}: ${describeRuns(row.firstMs)}; later ${describeRuns(row.laterMs)}`);
  const failing = results.axe?.filter((scan) => scan.violations.length || scan.error) ?? [];
  if (failing.length) {
    lines.push('', '  axe violations:');
    for (const scan of failing) for (const v of scan.violations) lines.push(`    ${scan.path} @${scan.viewport}: ${v.rule} (${v.impact}) on ${v.nodes.map((n) => n.target).join(', ')}`);
    for (const scan of failing.filter((s) => s.error)) lines.push(`    ${scan.path} @${scan.viewport}: ${scan.error}`);
  }
  for (const broken of results.links?.broken ?? []) lines.push(`  broken link: ${broken.url} (${broken.status ?? 'error'}) on ${broken.parent}`);
  for (const r of results.jsonLd?.filter((x) => x.problems.length) ?? []) lines.push(`  JSON-LD ${r.path}: ${r.problems.join('; ')}`);
  for (const r of results.budgets?.filter((x) => x.over.length) ?? []) lines.push(`  over budget ${r.weight.path}: ${r.over.join('; ')}`);
  lines.push('', `  ${results.timings.map((t) => `${t.part} ${t.seconds.toFixed(0)} s`).join(' · ')}`, `  Report: ${reportFile}`, '');
  return lines.join('\n');
}
