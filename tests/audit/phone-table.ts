/**
 * The paired Lighthouse runs as one plain-text table, printed at the end of the audit: each page on each preset
 * against the zero-JavaScript reference run just before it, as the median of the runs and their spread
 * (lowest–highest). On a machine whose speed drifts, the difference run by run is the figure to judge; the
 * table names the command that made it, to run again on a quieter machine.
 */
import { REFERENCE_MARGIN } from './budgets';
import type { LighthouseRun } from './lighthouse';
import { median } from './stats';

/** "median (lowest–highest)" of a few runs. */
export function medianAndRange(values: readonly number[], unit = ''): string {
  const middle = median(values);
  if (middle === null) return '—';
  const signedOf = (n: number) => (unit === 'Δ' && n > 0 ? `+${n}` : String(n));
  const round = (n: number) => Math.round(n);
  return `${signedOf(round(middle))} (${signedOf(round(Math.min(...values)))}–${signedOf(round(Math.max(...values)))})`;
}

/** Whether a page's median run-by-run difference keeps within the margin of the reference. */
export function withinReference(run: LighthouseRun): boolean | null {
  const p = run.paired;
  if (!p) return null;
  const perf = median(p.performanceDelta);
  const tbt = median(p.tbtDeltaMs);
  return perf !== null && tbt !== null && perf >= -REFERENCE_MARGIN.performance && tbt <= REFERENCE_MARGIN.tbtMs;
}

export function renderPhoneTable(runs: readonly LighthouseRun[], argv: readonly string[]): string {
  const paired = runs.filter((run) => run.paired);
  const header = ['page', 'preset', 'Perf', 'TBT ms', 'ref Perf', 'ref TBT ms', 'Perf Δ', 'TBT Δ ms', 'JS KiB', 'held'];
  const rows = paired.map((run) => {
    const p = run.paired!;
    const held = withinReference(run);
    return [
      run.path,
      run.preset,
      medianAndRange(run.performanceRuns ?? []),
      medianAndRange(run.tbtRuns ?? []),
      medianAndRange(p.referencePerformance),
      medianAndRange(p.referenceTbtMs),
      medianAndRange(p.performanceDelta, 'Δ'),
      medianAndRange(p.tbtDeltaMs, 'Δ'),
      run.scriptBytes === null ? '—' : (run.scriptBytes / 1024).toFixed(1),
      held === null ? '—' : held ? 'yes' : 'NO',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  const indexes = paired.flatMap((run) => run.benchmarkIndexes ?? []);
  return [
    '',
    `  Against the zero-JavaScript reference, run by run: median (lowest–highest) of ${paired[0]?.performanceRuns?.length ?? 0} pairs; held = within ${REFERENCE_MARGIN.performance} point and ${REFERENCE_MARGIN.tbtMs} ms TBT of the reference`,
    line(header),
    ...rows.map(line),
    `  CPU index ${indexes.length ? `${Math.min(...indexes)}–${Math.max(...indexes)}` : '—'}. Again: npx tsx tests/audit/run.ts ${argv.join(' ')}`,
    '',
  ].join('\n');
}
