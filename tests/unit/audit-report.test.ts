import { describe, expect, it } from 'vitest';
import { lighthouseGate } from '../audit/gates';
import { failedRun } from '../audit/lighthouse';
import { renderMarkdown } from '../audit/report';

describe('the audit report', () => {
  it('reports a page whose every run failed (its reference could not be loaded) with the reason, not a crash', () => {
    const run = failedRun('/store', 'mobile', 12, 'no run of the reference scored');
    const gate = lighthouseGate([run], false);
    const markdown = renderMarkdown({
      startedAt: new Date('2026-11-24T23:00:00Z'),
      loadAverage: '1.0 / 1.0 / 1.0 on 2 cores',
      mode: 'local',
      routes: [],
      gates: [gate],
      timings: [],
      lighthouse: [run],
    });
    expect(gate.status).toBe('fail');
    expect(markdown).toContain('`/store` mobile: no run of the reference scored');
  });
});
