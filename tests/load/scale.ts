/**
 * `npm run scale`: the back office at 1,000, 10,000 and 100,000 orders on PostgreSQL 17 set up as Supabase. Each
 * size gets a fresh database with the migrations, the seed and the orders (back-office-orders.ts), then every
 * back-office read is called as PostgREST calls it for a staff user: the median and the spread of 5 warm runs.
 *
 *   npm run scale                      every migration
 *   npm run scale -- --sizes 1000,10000
 */
import { startPostgresServer } from '../../tools/postgres/server';
import { createScaleDatabase, generateOrders, NEW_CALLS, readAllPages, readFixtures, timeCall, YEAR } from './back-office-orders';

const args = process.argv.slice(2);
const sizesArg = args[args.indexOf('--sizes') + 1];
const sizes = args.includes('--sizes') && sizesArg ? sizesArg.split(',').map(Number) : [1_000, 10_000, 100_000];

const started = Date.now();
const { server, stop } = await startPostgresServer();
console.log(`PostgreSQL 17 ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
const results = new Map<string, string[]>();
try {
  for (const size of sizes) {
    const db = await createScaleDatabase(server, `scale_${size}`);
    try {
      const made = Date.now();
      await generateOrders(db.admin, size);
      console.log(`${size.toLocaleString('en-AU')} orders made in ${((Date.now() - made) / 1000).toFixed(1)} s`);
      const fixtures = await readFixtures(db.admin);
      for (const call of NEW_CALLS) {
        const { median, min, max, answer } = await timeCall(db.api, call.sql(fixtures));
        const cell = `${median.toFixed(0)} ms (${min.toFixed(0)}–${max.toFixed(0)}), ${call.rows(answer)} rows`;
        console.log(`  ${call.name}: ${cell}`);
        results.set(call.name, [...(results.get(call.name) ?? []), cell]);
      }
      // The accountant's CSV of a year as the browser gets it: every page, one after another.
      for (const limit of [1000, 5000]) {
        const started = performance.now();
        const { rows, pages } = await readAllPages(db.api, 'orders', `select public.admin_sales_orders('${YEAR.from}', '${YEAR.to}', $1, ${limit}) as r`);
        const cell = `${(performance.now() - started).toFixed(0)} ms, ${rows.length} rows in ${pages} pages`;
        const name = `a year's CSV end to end, pages of ${limit.toLocaleString('en-AU')}`;
        console.log(`  ${name}: ${cell}`);
        results.set(name, [...(results.get(name) ?? []), cell]);
      }
    } finally {
      await db.drop();
    }
  }
} finally {
  await stop();
}

console.log(`\n| function | ${sizes.map((s) => `${s.toLocaleString('en-AU')} orders`).join(' | ')} |`);
console.log(`|---|${sizes.map(() => '---').join('|')}|`);
for (const [name, cells] of results) console.log(`| ${name} | ${cells.join(' | ')} |`);
