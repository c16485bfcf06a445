/**
 * `npx tsx tests/load/xero-sync.ts [orders]`: how long a sync of N waiting paid orders (1,000 by default) takes
 * against the local Xero stand-in, and how many calls it makes (Xero allows 60 a minute and 5,000 a day). A shop on
 * an in-memory embedded backend, the orders written in one statement, the TEST organisation connected, then runs of
 * the sync until nothing waits; prints each run's time, calls and documents posted.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalXero, localXeroBooks } from '../../functions/_lib/providers/local-xero';
import { finishConnect, beginConnect } from '../../functions/_lib/xero-connection';
import { syncToXero } from '../../functions/_lib/xero-sync';
import { readServerEnv } from '../../src/config/env';
import { startTestShop } from '../helpers/shop';

const count = Number(process.argv[2] ?? 1000);
const file = join(mkdtempSync(join(tmpdir(), 'xero-load-')), 'xero.jsonl');
process.env.LOCAL_SCHEDULES = 'off';
const t = await startTestShop({ data: 'memory' });
try {
  await t.shop.backend!.db.exec(`
    insert into public.orders (id, customer_email, status, payment_status, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at)
      select gen_random_uuid(), 'load' || n || '@example.com', 'processing', 'paid', 44, 15, 59,
        jsonb_build_object('country', case when n % 10 = 0 then 'US' else 'AU' end), '{"name": "Courier"}', now() - n * interval '1 second'
      from generate_series(1, ${count}) n;
    insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
      select id, 'book-10-reasons', 'Ten Reasons', 2, 22 from public.orders where customer_email like 'load%';`);
  const env = readServerEnv();
  const xero = createLocalXero({ file });
  const db = t.service();
  const consent = new URL(await beginConnect(db, xero, t.url, 'load@example.com'));
  await finishConnect(db, env, xero, t.url, 'load-code', consent.searchParams.get('state')!);

  let runs = 0;
  let calls = 0;
  const started = performance.now();
  for (;;) {
    const runStarted = performance.now();
    const outcome = await syncToXero(db, env, xero, { trigger: 'schedule' });
    runs += 1;
    calls += outcome.calls;
    console.log(`run ${runs}: ${outcome.posted} posted, ${outcome.calls} calls, ${((performance.now() - runStarted) / 1000).toFixed(1)} s — ${outcome.message}`);
    if (outcome.status === 'done' || outcome.posted === 0) break;
  }
  const books = await localXeroBooks(file);
  console.log(`${count} orders: ${books.documents.length} invoices in the stand-in, ${runs} run(s), ${calls} calls (token refresh included), ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await t.close();
}
