/** Throughput, latency percentiles and status counts from the recorded samples. */
import type { Sample } from './http';

export interface EndpointStats {
  endpoint: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** e.g. { 200: 950, 409: 12, ECONNRESET: 1 } */
  statuses: Record<string, number>;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function endpointStats(samples: Sample[], seconds: number): EndpointStats[] {
  const groups = new Map<string, Sample[]>();
  for (const sample of samples) {
    const group = groups.get(sample.endpoint);
    if (group) group.push(sample);
    else groups.set(sample.endpoint, [sample]);
  }
  return [...groups.entries()].map(([endpoint, group]) => {
    const answered = group
      .filter((s) => typeof s.status === 'number')
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    group.forEach((s) => (statuses[String(s.status)] = (statuses[String(s.status)] ?? 0) + 1));
    return {
      endpoint,
      requests: group.length,
      perSecond: group.length / seconds,
      p50: percentile(answered, 50),
      p95: percentile(answered, 95),
      p99: percentile(answered, 99),
      max: answered.at(-1) ?? Number.NaN,
      statuses,
    };
  });
}

/** Answers that are not a success, by status and endpoint: "409 POST /api/create-checkout" → count. */
export function errorCounts(samples: Sample[]): Array<{ status: string; endpoint: string; count: number; phase: string }> {
  const counts = new Map<string, { status: string; endpoint: string; count: number; phases: Set<string> }>();
  for (const s of samples) {
    if (typeof s.status === 'number' && s.status < 400) continue;
    const key = `${s.status} ${s.endpoint}`;
    const entry = counts.get(key) ?? { status: String(s.status), endpoint: s.endpoint, count: 0, phases: new Set<string>() };
    entry.count += 1;
    entry.phases.add(s.phase);
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).map((e) => ({ status: e.status, endpoint: e.endpoint, count: e.count, phase: [...e.phases].join(', ') }));
}
