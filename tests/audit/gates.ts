/** Turns each check's findings into a pass / warn / fail gate. */
import type { AxeScan } from './accessibility';
import { LIGHTHOUSE_ENFORCED_IN_CI, LIGHTHOUSE_TARGETS, MOBILE_TBT_LIMIT_MS } from './budgets';
import type { JsonLdResult } from './json-ld';
import { CATEGORIES, type LighthouseRun } from './lighthouse';
import type { LinkReport } from './links';
import type { BudgetResult } from './size-budget';

export type GateStatus = 'pass' | 'warn' | 'fail' | 'skipped';

export interface Gate {
  name: string;
  status: GateStatus;
  summary: string;
}

/** The score a run is judged on: SEO leaves out "blocked from indexing" on pages that are noindex on purpose. */
export function judgedScore(run: LighthouseRun, category: (typeof CATEGORIES)[number]): number | null {
  return category === 'seo' && run.noindex ? run.seoIndexableExcused : run.scores[category];
}

export function lighthouseMisses(runs: LighthouseRun[]): string[] {
  return runs.flatMap((run) => {
    if (run.error) return [`${run.path} (${run.preset}): no result — ${run.error}`];
    const target = LIGHTHOUSE_TARGETS[run.preset];
    if (target === undefined) return [];
    const scores = CATEGORIES.flatMap((category) => {
      const score = judgedScore(run, category);
      return score === null || score < target ? [`${run.path} (${run.preset}): ${category} ${score ?? '—'} < ${target}`] : [];
    });
    const tbt = run.preset === 'mobile' && (run.tbtMs ?? Infinity) > MOBILE_TBT_LIMIT_MS ? [`${run.path} (mobile): TBT ${Math.round(run.tbtMs ?? 0)} ms > ${MOBILE_TBT_LIMIT_MS} ms`] : [];
    return [...scores, ...tbt];
  });
}

export function lighthouseGate(runs: LighthouseRun[] | undefined, ci: boolean): Gate {
  if (!runs) return { name: 'Lighthouse', status: 'skipped', summary: 'not run' };
  const misses = lighthouseMisses(runs);
  const targets = `targets: desktop ${LIGHTHOUSE_TARGETS.desktop}, mobile ≥ ${LIGHTHOUSE_TARGETS.mobile} in every category and TBT ≤ ${MOBILE_TBT_LIMIT_MS} ms`;
  if (misses.length === 0) return { name: 'Lighthouse', status: 'pass', summary: `${runs.length} runs, every page meets the ${targets}` };
  const failing = new Set(misses.map((miss) => miss.split(':')[0])).size;
  const status = ci && !LIGHTHOUSE_ENFORCED_IN_CI ? 'warn' : 'fail';
  return {
    name: 'Lighthouse',
    status,
    summary: `${misses.length} scores below target on ${failing} of ${runs.length} page/preset runs (${targets})${status === 'warn' ? '; a warning in CI until every page reaches them' : ''}`,
  };
}

export function axeGate(scans: AxeScan[] | undefined): Gate {
  if (!scans) return { name: 'Accessibility (axe)', status: 'skipped', summary: 'not run' };
  const errors = scans.filter((scan) => scan.error);
  const withViolations = scans.filter((scan) => scan.violations.length > 0);
  const elements = scans.reduce((sum, scan) => sum + scan.violations.reduce((n, v) => n + v.nodes.length, 0), 0);
  const routes = new Set(scans.map((scan) => scan.path)).size;
  if (errors.length === 0 && withViolations.length === 0)
    return { name: 'Accessibility (axe)', status: 'pass', summary: `${routes} routes × 2 widths, no axe violations (WCAG 2.1 A/AA and best practices)` };
  const rules = [...new Set(withViolations.flatMap((scan) => scan.violations.map((v) => v.rule)))].join(', ');
  return {
    name: 'Accessibility (axe)',
    status: 'fail',
    summary: `${withViolations.length} of ${scans.length} scans with violations (${elements} elements; ${rules || 'none'})${errors.length ? `, ${errors.length} scans could not run` : ''}`,
  };
}

export function linksGate(report: LinkReport | undefined): Gate {
  if (!report) return { name: 'Links', status: 'skipped', summary: 'not run' };
  const summary = `${report.pages} pages crawled, ${report.checked} links checked, ${report.broken.length} broken, ${report.skipped.length} external skipped`;
  return { name: 'Links', status: report.broken.length ? 'fail' : 'pass', summary };
}

export function jsonLdGate(results: JsonLdResult[] | undefined): Gate {
  if (!results) return { name: 'Structured data (JSON-LD)', status: 'skipped', summary: 'not run' };
  const bad = results.filter((result) => result.problems.length > 0);
  const blocks = results.reduce((sum, result) => sum + result.blocks, 0);
  const summary = `${results.length} pages, ${blocks} blocks, ${bad.length ? `${bad.length} pages with problems` : 'all valid'}`;
  return { name: 'Structured data (JSON-LD)', status: bad.length ? 'fail' : 'pass', summary };
}

export function budgetGate(results: BudgetResult[] | undefined): Gate {
  if (!results) return { name: 'Size budgets', status: 'skipped', summary: 'not run' };
  const over = results.filter((result) => result.over.length > 0);
  return { name: 'Size budgets', status: over.length ? 'fail' : 'pass', summary: `${results.length} pages, ${over.length ? `${over.length} over budget` : 'all within budget'}` };
}
