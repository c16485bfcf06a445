/**
 * The back office at scale: a shop's five years of orders made in SQL (generate_series, no round trips), and
 * every back-office function called as PostgREST calls it for a staff user. `npm run scale` (scale.ts) times
 * them at 1,000, 10,000 and 100,000 orders; the growth test uses the same orders.
 *
 * The orders are the same for the same count and seed: every "random" choice is a hash of the seed, the order's
 * number and what is being chosen, so the plan the database picks cannot change them.
 */
import pg from 'pg';
import { applyMigrations, seedSql, supabaseBaselineSql } from '../../local/backend/database';
import { syncEmbedded } from '../../local/catalog';
import { type PgDatabase, pgDatabase } from '../../tools/postgres/pg-database';
import { connectionConfig, type PostgresServer, SUPERUSER_NAME } from '../../tools/postgres/server';

/** The migration that pages the back office: `npm run scale -- --before` stops short of it. */

export const SCALE_STAFF = '00000000-0000-4000-8000-00000005ca1e';
const STAFF_EMAIL = 'scale-staff@example.com';
/** The last day orders are placed: fixed, so a run today and a run next year see the same shop. */
export const LAST_DAY = '2026-11-20';
/** Five years of orders, ending on LAST_DAY. */
export const FIRST_DAY = '2021-11-21';
/** The publisher's books at scale: 40 of them, $12 to $34. */
const BOOKS = 40;

const FIRST_NAMES = [
  'Ann',
  'Ben',
  'Cara',
  'Dominic',
  'Elena',
  'Francis',
  'Grace',
  'Hugh',
  'Isabel',
  'Joseph',
  'Kate',
  'Luke',
  'Maria',
  'Noah',
  'Olivia',
  'Peter',
  'Rose',
  'Thomas',
  'Therese',
  'Vincent',
];
const LAST_NAMES = [
  'Nguyen',
  'Smith',
  'Jones',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Martin',
  'Anderson',
  'Thompson',
  'Tran',
  'Lee',
  'Walker',
  'Harris',
  'Ryan',
  "O'Brien",
  'Kelly',
  'Murphy',
  'Rossi',
  'Santos',
];

/** The id of the generated `what` (an order, a customer's user) at position `i`, an SQL expression: the same in every run. */
const generatedId = (seed: number, what: string, i: string) => `md5('${seed}:${what}:' || ${i})::uuid`;

/**
 * SQL that adds the same `count` orders as generateOrdersSql (the same ids, in the order placed) and nothing else: no
 * customers, lines or payments, for what only counts orders, such as the numbers the database gives them.
 */
export function generateBareOrdersSql(count: number, seed = 1): string {
  return `
    insert into public.orders (id, created_at, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method)
    select ${generatedId(seed, 'order', 'g.i')}, '${FIRST_DAY}'::timestamptz + (g.i - 1) * ((('${LAST_DAY}'::date + 1) - '${FIRST_DAY}'::date) * interval '1 day' / ${count}),
      'reader' || g.i || '@example.com', 22, 15, 37, '{"country": "AU"}', '{"name": "AU Standard Courier"}'
    from generate_series(1, ${count}) g(i)
    order by g.i;`;
}

const sqlArray = (values: string[]) => `(array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}])`;

/**
 * SQL that adds `count` orders to a database holding the migrations and the seed: a staff user, 40 books, the
 * customers (about one per five orders, a third of them with a sign-in), the orders with 1–3 books each, their part
 * refunds and the stock changes of their sales. Paid over five years; about 3% unpaid or expired, 2% refunded in
 * full, 0.5% waiting for a refund, 2% part refunded, 5% gifts, 10% abroad; the last two days' orders not packed yet.
 */
export function generateOrdersSql(count: number, seed = 1): string {
  const customers = Math.max(20, Math.round(count / 5));
  // A number in [0, 1) from the seed, the order's number and what is chosen.
  const r = (what: string, i = 'g.i') => `(('x' || substr(md5('${seed}:' || ${i} || ':${what}'), 1, 8))::bit(32)::bigint / 4294967296.0)`;
  const id = (what: string, i: string) => generatedId(seed, what, i);
  return `
    insert into auth.users (id, email, email_confirmed_at) values ('${SCALE_STAFF}', '${STAFF_EMAIL}', now()) on conflict do nothing;
    insert into public.staff_members (email) values ('${STAFF_EMAIL}') on conflict do nothing;
    insert into auth.identities (provider_id, user_id, identity_data, provider) values ('${SCALE_STAFF}', '${SCALE_STAFF}', jsonb_build_object('email', '${STAFF_EMAIL}'), 'google') on conflict do nothing;
    insert into public.products (id, title, price, stock)
      select 'scale-book-' || b, 'Scale Book ' || b, 12 + (b * 7) % 23, 500 from generate_series(1, ${BOOKS}) b
      on conflict (id) do nothing;

    create temp table scale_customers on commit drop as
      select c, ${sqlArray(FIRST_NAMES)}[1 + (c % ${FIRST_NAMES.length})] || ' ' || ${sqlArray(LAST_NAMES)}[1 + ((c / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})] as name,
        lower(${sqlArray(FIRST_NAMES)}[1 + (c % ${FIRST_NAMES.length})] || '.' || replace(${sqlArray(LAST_NAMES)}[1 + ((c / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})], '''', '')) || c || '@example.com' as email,
        case when c % 3 = 0 then ${id('user', 'c')} end as user_id
      from generate_series(0, ${customers - 1}) c;
    insert into auth.users (id, email, email_confirmed_at, created_at)
      select user_id, email, case when c % 9 <> 0 then '${FIRST_DAY}'::timestamptz end, '${FIRST_DAY}'::timestamptz from scale_customers where user_id is not null
      on conflict do nothing;

    create temp table scale_orders on commit drop as
      select g.i, ${id('order', 'g.i')} as id,
        -- Orders spread evenly over the five years, each at its own moment.
        '${FIRST_DAY}'::timestamptz + (g.i - 1 + ${r('at')} * 0.9) * ((('${LAST_DAY}'::date + 1) - '${FIRST_DAY}'::date) * interval '1 day' / ${count}) as created_at,
        -- Returning customers: a few buy often, most once or twice.
        floor(power(${r('who')}, 1.6) * ${customers})::int as c,
        ${r('what')} as what, ${r('where')} as abroad, ${r('gift')} as gift, 1 + floor(${r('lines')} * 3)::int as lines
      from generate_series(1, ${count}) g(i);

    create temp table scale_items on commit drop as
      select o.id as order_id, 'scale-book-' || (1 + (floor(${r('book', 'o.i')} * ${BOOKS})::int + l * 7) % ${BOOKS}) as product_id,
        1 + floor(power(${r('q', "o.i || '.' || l")}, 3) * 3)::int as quantity
      from scale_orders o cross join generate_series(0, o.lines - 1) l;

    insert into public.orders (id, created_at, updated_at, user_id, customer_email, customer_name, buyer_name, is_gift, status, payment_status,
      subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method, paid_at, fulfilled_at, refund_id, refunded_at, tracking_number)
    select o.id, o.created_at, o.created_at, case when c.user_id is not null and o.i % 2 = 0 then c.user_id end,
      case when o.i % 17 = 0 then initcap(c.email) else c.email end,
      case when o.gift < 0.05 then 'Recipient ' || o.i when o.what between 0.5 and 0.52 then 'Guest Customer' else c.name end,
      case when o.gift < 0.05 or o.i % 3 = 0 then c.name end,
      o.gift < 0.05,
      case when o.what < 0.015 then 'pending' when o.what < 0.055 then 'cancelled'
        when o.created_at > '${LAST_DAY}'::date - 1 then 'processing'
        when o.created_at > '${LAST_DAY}'::date - 30 or o.what > 0.9 then 'shipped' else 'completed' end,
      case when o.what < 0.015 then 'unpaid' when o.what < 0.03 then 'expired' when o.what < 0.055 then 'refund_due' else 'paid' end,
      s.subtotal, case when o.abroad < 0.1 then 25 else 15 end, s.subtotal + case when o.abroad < 0.1 then 25 else 15 end,
      jsonb_build_object('addressLine1', (o.i % 200 + 1) || ' Church St', 'city', case when o.abroad < 0.1 then 'London' else 'Parramatta' end,
        'state', case when o.abroad < 0.1 then '' else 'NSW' end, 'postalCode', case when o.abroad < 0.1 then 'SW1A 1AA' else '2150' end,
        'country', case when o.abroad < 0.04 then 'GB' when o.abroad < 0.07 then 'NZ' when o.abroad < 0.1 then 'US' else 'AU' end),
      jsonb_build_object('name', case when o.abroad < 0.1 then 'International' when o.i % 4 = 0 then 'AU Express Courier' else 'AU Standard Courier' end),
      case when o.what >= 0.03 then o.created_at + interval '2 minutes' end,
      case when o.what >= 0.03 then o.created_at + interval '3 minutes' end,
      case when o.what >= 0.03 and o.what < 0.05 then 're_scale_' || o.i end,
      case when o.what >= 0.03 and o.what < 0.05 then o.created_at + interval '2 days' end,
      case when o.what >= 0.055 and o.created_at <= '${LAST_DAY}'::date - 1 then '33SC' || lpad(o.i::text, 8, '0') end
    from scale_orders o
    join scale_customers c on c.c = o.c
    join (select i.order_id, sum(i.quantity * p.price) as subtotal from scale_items i join public.products p on p.id = i.product_id group by i.order_id) s on s.order_id = o.id
    -- In the order placed, so the database numbers them as a shop's orders are (1001 the oldest).
    order by o.i;

    insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
      select i.order_id, i.product_id, p.title, i.quantity, p.price from scale_items i join public.products p on p.id = i.product_id;

    -- Part refunds: a settled one on 2% of the paid orders, a failed attempt beside some.
    insert into public.order_refunds (order_id, amount, reason, status, provider_refund_id, actor, created_at, settled_at)
      select o.id, 5, 'Damaged corner', 'succeeded', 're_part_' || o.i, '${STAFF_EMAIL}', o.created_at + interval '5 days', o.created_at + interval '5 days'
      from scale_orders o where o.what > 0.98
      union all
      select o.id, 3, 'Late parcel', 'failed', null, '${STAFF_EMAIL}', o.created_at + interval '6 days', o.created_at + interval '6 days'
      from scale_orders o where o.what > 0.995;

    -- Each paid order's sale in its first book's stock history.
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, created_at, order_id)
      select i.product_id, 500, 500 - i.quantity, 'Sold', 'system', o.created_at + interval '3 minutes', o.id
      from scale_orders o join (select distinct on (x.order_id) x.* from scale_items x order by x.order_id, x.product_id) i on i.order_id = o.id
      where o.what >= 0.03
      order by o.created_at;
    analyze public.orders, public.order_items, public.order_refunds, public.stock_changes, auth.users;
  `;
}

/** What the calls ask about, read by the superuser (staff see orders only through the functions). */
export interface ScaleFixtures {
  orderId: string;
  numberStart: string;
  orderNumber: number;
  customerEmail: string;
  busiestBook: string;
  orderIds: string[];
}

export async function readFixtures(admin: PgDatabase): Promise<ScaleFixtures> {
  const { rows } = await admin.query<ScaleFixtures>(`
    select (select id::text from public.orders order by id limit 1) as "orderId",
      -- The middle order's number, as typed from a slip: the lowest id starts with zeros, which the generated
      -- addresses (reader1000@…) are full of, so its search would time the addresses' digits, not the number.
      (select left(id::text, 6) from public.orders order by id offset (select count(*) / 2 from public.orders) limit 1) as "numberStart",
      -- The middle order's number, as the buyer reads it over the phone.
      (select number from public.orders order by number offset (select count(*) / 2 from public.orders) limit 1) as "orderNumber",
      (select lower(customer_email) from public.orders where payment_status = 'paid' order by id limit 1) as "customerEmail",
      (select product_id from public.stock_changes group by product_id order by count(*) desc, product_id limit 1) as "busiestBook",
      array(select id::text from public.orders order by id limit 200) as "orderIds"`);
  const fixtures = rows[0];
  if (!fixtures) throw new Error('No orders to ask about');
  return fixtures;
}

/**
 * A database on the test server with Supabase's baseline, every migration, the catalog and the seed; or, with
 * `fromTemplate`, a copy of the server's template, which holds them all already.
 */
export async function createScaleDatabase(server: PostgresServer, name: string, options: { fromTemplate?: boolean } = {}): Promise<{ admin: PgDatabase; api: PgDatabase; drop: () => Promise<void> }> {
  const superuser = new pg.Client(connectionConfig(server, SUPERUSER_NAME, 'postgres'));
  await superuser.connect();
  try {
    await superuser.query(`drop database if exists "${name}" with (force)`);
    await superuser.query(options.fromTemplate ? `create database "${name}" template ${server.template}` : `create database "${name}"`);
    await superuser.query(`grant all on database "${name}" to postgres`);
  } finally {
    await superuser.end();
  }
  const admin = await pgDatabase(connectionConfig(server, SUPERUSER_NAME, name));
  const owner = await pgDatabase(connectionConfig(server, 'postgres', name));
  if (!options.fromTemplate) {
    try {
      // The roles belong to the server and exist already: the rest of the baseline is the database's own.
      await admin.exec(supabaseBaselineSql().replace(/^create role .*;$/gm, ''));
      await applyMigrations(owner);
      await syncEmbedded(owner);
      await owner.exec(seedSql());
    } catch (error) {
      await owner.close();
      await admin.close();
      throw error;
    }
  }
  const api = await pgDatabase(connectionConfig(server, 'authenticator', name));
  return {
    admin,
    api,
    drop: async () => {
      await owner.close();
      await admin.close();
      await api.close();
      const client = new pg.Client(connectionConfig(server, SUPERUSER_NAME, 'postgres'));
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Adds the orders, in one transaction. */
export const generateOrders = (admin: PgDatabase, count: number, seed = 1) => admin.transaction((tx) => tx.exec(generateOrdersSql(count, seed)));

/**
 * One call as PostgREST makes it for the staff user: a transaction, `set local role authenticated`, the claims,
 * committed (admin_sales keeps the days it summed).
 */
export async function asStaff<T = unknown>(api: PgDatabase, sql: string, params: unknown[] = []): Promise<T> {
  const client = await api.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local role authenticated');
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role: 'authenticated', sub: SCALE_STAFF })]);
    const result = await client.query(sql, params);
    await client.query('commit');
    return result.rows[0]?.r as T;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Every back-office read, as the browser asks for it: a name, the call and how many rows it answers. */
export interface BackOfficeCall {
  name: string;
  /** `select public.fn(...) as r` */
  sql: (f: ScaleFixtures) => string;
  /** The rows the answer holds (the page's, for a paged list). */
  rows: (answer: unknown) => number;
  /** What the time should grow with: the rows, or for the sales figures the orders summed. */
  work: (answer: unknown) => number;
}

const length = (key?: string) => (answer: unknown) => {
  const list = key ? (answer as Record<string, unknown> | null)?.[key] : answer;
  return Array.isArray(list) ? list.length : 0;
};
const seriesLength = (answer: unknown) => length('series')(answer);
const ordersSummed = (answer: unknown) => Number((answer as { totals?: { orders?: number } } | null)?.totals?.orders ?? 0);
const call = (name: string, sql: (f: ScaleFixtures) => string, rows: (answer: unknown) => number, work = rows): BackOfficeCall => ({ name, sql, rows, work });

/** A year: the last full year of the generated shop. */
export const YEAR = { from: '2025-11-21', to: '2026-11-20' };

/** Every back-office read: a page each (the first; paging on costs the same). */
export const NEW_CALLS: BackOfficeCall[] = [
  call("admin_list_customers('')", () => `select public.admin_list_customers('') as r`, length('customers')),
  call("admin_list_customers('nguyen')", () => `select public.admin_list_customers('nguyen') as r`, length('customers')),
  call('admin_sales one year by day', () => `select public.admin_sales('${YEAR.from}', '${YEAR.to}', 'day') as r`, seriesLength, ordersSummed),
  call('admin_sales five years by month', () => `select public.admin_sales('${FIRST_DAY}', '${LAST_DAY}', 'month') as r`, seriesLength, ordersSummed),
  call('admin_sales five years by week', () => `select public.admin_sales('${FIRST_DAY}', '${LAST_DAY}', 'week') as r`, seriesLength, ordersSummed),
  call('admin_sales five years by year', () => `select public.admin_sales('${FIRST_DAY}', '${LAST_DAY}', 'year') as r`, seriesLength, ordersSummed),
  call('admin_sales_orders one year, first 1,000', () => `select public.admin_sales_orders('${YEAR.from}', '${YEAR.to}') as r`, length('orders')),
  call("admin_list_orders('all')", () => `select public.admin_list_orders('all', '') as r`, length('orders')),
  call("admin_list_orders('to_pack')", () => `select public.admin_list_orders('to_pack', '') as r`, length('orders')),
  call("admin_list_orders('unpaid')", () => `select public.admin_list_orders('unpaid', '') as r`, length('orders')),
  call('admin_list_orders search email', () => `select public.admin_list_orders('all', 'maria.nguyen') as r`, length('orders')),
  call('admin_list_orders search id start', (f) => `select public.admin_list_orders('all', '${f.numberStart}') as r`, length('orders')),
  call('admin_list_orders search number', (f) => `select public.admin_list_orders('all', '${f.orderNumber}') as r`, length('orders')),
  call('admin_stock_history', (f) => `select public.admin_stock_history('${f.busiestBook}') as r`, length('changes')),
  call(
    'admin_get_order',
    (f) => `select public.admin_get_order('${f.orderId}') as r`,
    () => 1,
  ),
  call('admin_get_orders (200)', (f) => `select public.admin_get_orders('{${f.orderIds.join(',')}}') as r`, length()),
  call(
    'admin_get_customer',
    (f) => `select public.admin_get_customer('${f.customerEmail}') as r`,
    () => 1,
    length('order_list'),
  ),
  call('admin_list_stock', () => `select public.admin_list_stock() as r`, length()),
];

/**
 * Reads a paged list to its end (or until it has `enough` rows): the first page, then each `next`. `call` is the
 * SQL with the cursor as $1. Answers the rows in order and the number of pages.
 */
export async function readAllPages<T>(api: PgDatabase, key: string, call: string, enough = Number.POSITIVE_INFINITY): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Record<string, unknown> = await asStaff<Record<string, unknown>>(api, call, [cursor]);
    rows.push(...(page[key] as T[]));
    cursor = page.next as string | null;
    pages += 1;
    if (pages > 10_000) throw new Error(`${call} did not come to an end`);
  } while (cursor && rows.length < enough);
  return { rows, pages };
}

/**
 * Milliseconds of one call run `repeat` times inside the database (one round trip): the fastest of `runs` after
 * one not counted, divided by `repeat`. Steadier than a single call on a shared machine.
 */
export async function timeInDatabase(api: PgDatabase, sql: string, repeat: number, runs = 3): Promise<number> {
  const call = sql.match(/^select (.*) as r$/s)?.[1];
  if (!call) throw new Error(`Not a call: ${sql}`);
  const batch = `select count(${call}) as r from generate_series(1, ${repeat})`;
  await asStaff(api, batch);
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await asStaff(api, batch);
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest / repeat;
}

/** Milliseconds of one call, warm: the median and the spread of `runs` runs after one not counted. */
export async function timeCall(api: PgDatabase, sql: string, runs = 5): Promise<{ median: number; min: number; max: number; answer: unknown }> {
  let answer = await asStaff(api, sql);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    answer = await asStaff(api, sql);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, min: times[0] ?? 0, max: times[times.length - 1] ?? 0, answer };
}
