/**
 * `npm run load -- --live-price`: the pages' live price and stock read under steady traffic, against the
 * local server with its CDN cache honoured exactly as the function's headers ask Netlify to. Sends
 * LOAD_RATE reads a second (default 50) to /api/live-catalog for LOAD_DURATION seconds (default 300), each
 * visitor from its own loopback address, and counts the database reads behind them: every request the
 * functions make for the products table. Midway the publisher's stock change is played (a purge, as
 * /api/catalog-purge does after admin_set_stock), which allows one more read.
 *
 * Passes when every read answered 200 and the database served at most one live-price read per cache period
 * (plus one per purge and the first): CACHE_SECONDS in src/features/catalog/live-answer.ts.
 */
import { availableParallelism, loadavg } from 'node:os';
import { CATALOG_CACHE_TAG, CACHE_SECONDS, LIVE_CATALOG_PATH, STALE_SECONDS } from '../../src/features/catalog/live-answer';
import { localCdnCache } from '../../functions/_lib/providers/cdn-cache';
import { startShop } from '../../local/shop';
import { LoopbackClient, Recorder } from './http';
import { endpointStats, errorCounts } from './stats';

export interface LivePriceOptions {
  projectRoot: string;
  port: number;
  durationS: number;
  rate: number;
  log: (line: string) => void;
}

/** Counts the functions' reads of the products table: every GET of /rest/v1/products they send. */
function countProductReads(): { reads: number[]; stop: () => void } {
  const reads: number[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (url.pathname === '/rest/v1/products' && method === 'GET') reads.push(Date.now());
    return original(input, init);
  }) as typeof fetch;
  const stop = () => {
    globalThis.fetch = original;
  };
  return { reads, stop };
}

export async function runLivePrice({ projectRoot, port, durationS, rate, log }: LivePriceOptions): Promise<boolean> {
  log(`Live price load: ${rate} reads/s of ${LIVE_CATALOG_PATH} for ${durationS} s on http://127.0.0.1:${port}, the local CDN cache on`);
  log(`  cached ${CACHE_SECONDS} s, then served stale for up to ${STALE_SECONDS} s while one request refreshes it; tag '${CATALOG_CACHE_TAG}'`);
  log(
    `  load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')} on ${availableParallelism()} cores`,
  );
  const counter = countProductReads();
  const shop = await startShop({ projectRoot, port, data: 'memory' });
  const recorder = new Recorder();
  const visitors = Array.from({ length: 200 }, () => new LoopbackClient(port, recorder));
  counter.reads.length = 0;

  const started = Date.now();
  const deadline = started + durationS * 1000;
  const pending: Array<Promise<unknown>> = [];
  let sent = 0;
  let purgedAt: number | undefined;
  const progress = setInterval(() => log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${recorder.samples.length} answered, ${counter.reads.length} database reads`), 30_000);
  // Paced by the clock, not by answers: a slow answer does not slow the arrivals, as on the web.
  while (Date.now() < deadline) {
    const due = Math.floor(((Date.now() - started) / 1000) * rate);
    for (; sent < due; sent += 1) {
      const client = visitors[sent % visitors.length]!;
      pending.push(client.request('live-catalog', 'GET', LIVE_CATALOG_PATH).catch(() => undefined));
    }
    if (purgedAt === undefined && Date.now() - started >= (durationS * 1000) / 2) {
      purgedAt = Date.now();
      await localCdnCache.purgeTags([CATALOG_CACHE_TAG]);
      log(`  ${((purgedAt - started) / 1000).toFixed(0)} s: stock changed in the back office: '${CATALOG_CACHE_TAG}' purged`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(pending);
  clearInterval(progress);
  const seconds = (Date.now() - started) / 1000;
  for (const visitor of visitors) visitor.close();
  await shop.close();
  counter.stop();

  const stats = endpointStats(recorder.samples, seconds);
  const errors = errorCounts(recorder.samples);
  const reads = counter.reads.map((t) => ((t - started) / 1000).toFixed(1));
  const periods = Math.ceil(seconds / CACHE_SECONDS);
  const allowed = periods + 1; // one per cache period, plus the purge's
  log(`\n${recorder.samples.length} reads answered in ${seconds.toFixed(1)} s: ${(recorder.samples.length / seconds).toFixed(1)} reads/s`);
  for (const s of stats) {
    const statuses = Object.entries(s.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    log(`  ${s.endpoint}: p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(0)} ms; ${statuses}`);
  }
  log(`\nDatabase reads for the live price: ${counter.reads.length} in ${seconds.toFixed(0)} s (${periods} cache periods of ${CACHE_SECONDS} s and 1 purge: at most ${allowed})`);
  log(`  at ${reads.join(', ')} s`);
  const ok = errors.length === 0 && counter.reads.length <= allowed && recorder.samples.length > 0;
  if (errors.length) for (const e of errors) log(`  error ${e.status} × ${e.count}`);
  log(`\nLive price check: ${ok ? 'PASS' : 'FAIL'}`);
  return ok;
}
