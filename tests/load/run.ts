/**
 * `npm run load`: concurrent shoppers against the whole shop on this machine, with a fault in the middle,
 * then a consistency check of the database against what the shoppers were told.
 *
 * The shop runs in this process (local/shop.ts) on a free loopback port with a file-backed database in a
 * temporary folder. It opens with four buyers racing for the last copies of a 5-copy product (2 each, all
 * paying at once); then the shoppers run. Midway the server and the database are closed at once — open
 * connections dropped, in-flight requests cut off, as when the process is killed — and started again on
 * the same folder.
 *
 *   LOAD_SHOPPERS    concurrent shoppers, default 8 (1-32)
 *   LOAD_DURATION    seconds of load, default 60 (5-600)
 *   LOAD_FAULT       restart (default) or off
 *   LOAD_KEEP_DATA   1 keeps the temporary data folder (it is kept anyway when the check fails)
 *
 * `npm run load -- --live-price` runs the live price mode instead (live-price.ts): LOAD_RATE reads a second
 * of the pages' live price and stock (default 50) for LOAD_DURATION seconds (default 300 in this mode),
 * counting the database reads behind them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startShop, type Shop } from '../../local/shop';
import { freePort } from '../../tools/free-port';
import { checkConsistency } from './consistency';
import { prepareCatalog } from './fixtures';
import { Recorder } from './http';
import { lastCopiesRace, Ledger, runShopper } from './shopper';
import { runLivePrice } from './live-price';
import { endpointStats, errorCounts } from './stats';

const bounded = (value: string | undefined, fallback: number, min: number, max: number) => {
  const n = Number(value ?? fallback);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
};
const LIVE_PRICE = process.argv.includes('--live-price');
const SHOPPERS = bounded(process.env.LOAD_SHOPPERS, 8, 1, 32);
const DURATION_S = bounded(process.env.LOAD_DURATION, LIVE_PRICE ? 300 : 60, 5, 600);
const RATE = bounded(process.env.LOAD_RATE, 50, 1, 500);
const FAULT = process.env.LOAD_FAULT !== 'off';
const BOOK_STOCK = 1_000_000;
const LIMITED_STOCK = 5;
/** 4 buyers × 2 copies of 5: two get theirs, two are paid orders that must be refunded. */
const RACE_BUYERS = 4;
const RACE_QUANTITY = 2;

const projectRoot = process.cwd();

/** Seeded, so two runs make the same choices (the timing still differs). */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Server-side errors are expected while the database is being closed; they are counted, not printed in full. */
const serverErrors = new Map<string, number>();
const describe = (value: unknown) => (value instanceof Error ? `${value.name}: ${value.message}` : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
const originalError = console.error;
console.error = (...args: unknown[]) => {
  const first = args.map(describe).join(' ').split('\n')[0]!.slice(0, 200);
  serverErrors.set(first, (serverErrors.get(first) ?? 0) + 1);
};
process.on('unhandledRejection', (reason) => console.error('unhandled rejection', reason));
/** The local email stand-in logs a line per confirmation: counted instead. */
let emails = 0;
const originalLog = console.log;
console.log = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('[email outbox]')) emails += 1;
  else originalLog(...args);
};

async function closeAbruptly(shop: Shop): Promise<void> {
  shop.server.server.closeAllConnections();
  await Promise.all([shop.server.close(), shop.backend?.close()]);
}

async function main(): Promise<boolean> {
  const workDir = mkdtempSync(join(tmpdir(), 'shop-load-'));
  const dataDir = join(workDir, 'pglite');
  // Confirmation emails go to the run's own outbox, not the developer's local/.data/outbox.jsonl.
  process.env.LOCAL_OUTBOX_FILE = join(workDir, 'outbox.jsonl');
  const port = await freePort();
  const log = (text: string) => console.log(text);
  log(`Load run: ${SHOPPERS} shoppers for ${DURATION_S} s on http://127.0.0.1:${port}${FAULT ? ', server and database restarted midway' : ''}`);
  log(`  data: ${dataDir}`);
  log(
    `  load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')} on ${availableParallelism()} cores (the shop, its database and the shoppers share them)`,
  );

  let shop = await startShop({ projectRoot, port, data: { dir: dataDir } });
  const initialStock = await prepareCatalog(port, BOOK_STOCK, LIMITED_STOCK);

  const recorder = new Recorder();
  const ledger = new Ledger();
  const started = Date.now();
  const deadline = started + DURATION_S * 1000;
  let restarting = false;
  let downtimeMs = 0;
  const random = mulberry32(20261122);
  const ctx = { port: () => port, recorder, ledger, deadline, restarting: () => restarting, random };

  // First, more buyers than copies of the limited edition, all at once.
  await lastCopiesRace(ctx, RACE_BUYERS, RACE_QUANTITY);

  const fault = (async () => {
    if (!FAULT) return;
    await new Promise((resolve) => setTimeout(resolve, (DURATION_S * 1000) / 2));
    restarting = true;
    recorder.phase = 'restart';
    const down = Date.now();
    log(`  ${((down - started) / 1000).toFixed(1)} s: closing the server and the database mid-traffic`);
    await closeAbruptly(shop);
    shop = await startShop({ projectRoot, port, data: { dir: dataDir } });
    downtimeMs = Date.now() - down;
    recorder.phase = 'after-restart';
    restarting = false;
    log(`  back after ${(downtimeMs / 1000).toFixed(1)} s on the same data folder`);
  })();

  const progress = setInterval(() => log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${recorder.samples.length} requests, ${ledger.orders.size} orders`), 10_000);
  await Promise.all([...Array.from({ length: SHOPPERS }, (_, i) => runShopper(ctx, i, SHOPPERS)), fault]);
  clearInterval(progress);
  const seconds = (Date.now() - started) / 1000;
  await shop.close();

  // ------------------------------------------------------------------ figures
  const stats = endpointStats(recorder.samples, seconds);
  log(
    `\n${recorder.samples.length} requests in ${seconds.toFixed(1)} s: ${(recorder.samples.length / seconds).toFixed(1)} requests/s; ${ledger.orders.size} orders created${FAULT ? `; restart took ${(downtimeMs / 1000).toFixed(1)} s` : ''}\n`,
  );
  log(`${'endpoint'.padEnd(28)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}  statuses`);
  for (const s of stats) {
    const n = (v: number) => (Number.isNaN(v) ? '—' : v.toFixed(0)).padStart(7);
    const statuses = Object.entries(s.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    log(`${s.endpoint.padEnd(28)} ${String(s.requests).padStart(8)} ${s.perSecond.toFixed(1).padStart(7)} ${n(s.p50)} ${n(s.p95)} ${n(s.p99)} ${n(s.max)}  ${statuses}`);
  }
  const errors = errorCounts(recorder.samples);
  log(`\nErrors by status${errors.length ? '' : ': none'}`);
  for (const e of errors) log(`  ${e.status.padEnd(12)} ${e.endpoint.padEnd(28)} ${String(e.count).padStart(6)}  (${e.phase})`);
  log(`\nShopper outcomes (${emails} confirmation emails written to the run's outbox)`);
  for (const [outcome, count] of [...ledger.outcomes.entries()].sort((a, b) => b[1] - a[1])) log(`  ${String(count).padStart(6)}  ${outcome}`);
  if (serverErrors.size) {
    log('\nServer-side errors logged (expected only around the restart)');
    for (const [message, count] of serverErrors) log(`  ${String(count).padStart(6)}  ${message}`);
  }

  // ------------------------------------------------------------------ consistency
  const { checks, figures } = await checkConsistency(dataDir, initialStock, ledger);
  log(
    `\nDatabase: ${figures.orders} orders (${Object.entries(figures.byPaymentStatus)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); ${figures.untold} created by requests cut off before their answer`,
  );
  log('\nConsistency');
  for (const check of checks) log(`  ${check.pass ? 'PASS' : 'FAIL'}  ${check.name}\n          ${check.detail}`);
  const pass = checks.every((check) => check.pass);
  log(`\nConsistency check: ${pass ? 'PASS' : 'FAIL'}`);

  if (pass && process.env.LOAD_KEEP_DATA !== '1') rmSync(workDir, { recursive: true, force: true });
  else log(`Data kept in ${workDir}`);
  return pass;
}

(LIVE_PRICE ? freePort().then((port) => runLivePrice({ projectRoot, port, durationS: DURATION_S, rate: RATE, log: (line) => console.log(line) })) : main()).then(
  (pass) => process.exit(pass ? 0 : 1),
  (error: unknown) => {
    originalError(error);
    process.exit(1);
  },
);
