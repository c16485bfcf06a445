/**
 * Row-level security against the real migrations on PGlite: every table × role × operation, as a matrix
 * of expected allow (✓) or deny (✗). A deny is a permission error or a statement that touches no row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../local/backend/database';

const USER_A = '00000000-0000-4000-8000-00000000000a';
const USER_B = '00000000-0000-4000-8000-00000000000b';
const ORDER_A = '00000000-0000-4000-8000-0000000000a1';

type Role = 'anon' | 'userA' | 'userB' | 'service';
type Operation = 'select' | 'insert' | 'update' | 'delete';
const ROLES: Role[] = ['anon', 'userA', 'userB', 'service'];

/** For each table and operation, the SQL to try and who may do it. Rows "owned" are user A's. */
const MATRIX: Record<string, Record<Operation, { sql: string; allowed: Role[] }>> = {
  products: {
    select: { sql: `select id from public.products where id = 'book-10-reasons'`, allowed: ['anon', 'userA', 'userB', 'service'] },
    insert: { sql: `insert into public.products (id, title, price) values ('new-book', 'New', 10)`, allowed: ['service'] },
    update: { sql: `update public.products set price = 1, stock = 999 where id = 'book-10-reasons'`, allowed: ['service'] },
    delete: { sql: `delete from public.products where id = 'rosary-kit'`, allowed: ['service'] },
  },
  wishlists: {
    select: { sql: `select id from public.wishlists where user_id = '${USER_A}'`, allowed: ['userA', 'service'] },
    insert: { sql: `insert into public.wishlists (user_id, product_id) values ('${USER_A}', 'rosary-kit')`, allowed: ['userA', 'service'] },
    update: { sql: `update public.wishlists set product_id = 'rosary-kit' where user_id = '${USER_A}'`, allowed: ['service'] },
    delete: { sql: `delete from public.wishlists where user_id = '${USER_A}'`, allowed: ['userA', 'service'] },
  },
  orders: {
    select: { sql: `select id from public.orders where id = '${ORDER_A}'`, allowed: ['userA', 'service'] },
    insert: {
      sql: `insert into public.orders (user_id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method)
            values ('${USER_A}', 'a@example.com', 22, 15, 37, '{}', '{}')`,
      allowed: ['service'],
    },
    update: { sql: `update public.orders set status = 'completed', total_amount = 0, subtotal_amount = 0, shipping_amount = 0 where id = '${ORDER_A}'`, allowed: ['service'] },
    delete: { sql: `delete from public.orders where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  order_items: {
    select: { sql: `select id from public.order_items where order_id = '${ORDER_A}'`, allowed: ['userA', 'service'] },
    insert: { sql: `insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${ORDER_A}', 'rosary-kit', 'Kit', 1, 0)`, allowed: ['service'] },
    update: { sql: `update public.order_items set price_at_time = 0 where order_id = '${ORDER_A}'`, allowed: ['service'] },
    delete: { sql: `delete from public.order_items where order_id = '${ORDER_A}'`, allowed: ['service'] },
  },
  newsletter_subscriptions: {
    select: { sql: `select email from public.newsletter_subscriptions`, allowed: ['service'] },
    insert: { sql: `insert into public.newsletter_subscriptions (email) values ('new@example.com')`, allowed: ['service'] },
    update: { sql: `update public.newsletter_subscriptions set email = 'x@example.com'`, allowed: ['service'] },
    delete: { sql: `delete from public.newsletter_subscriptions`, allowed: ['service'] },
  },
  contact_submissions: {
    select: { sql: `select message from public.contact_submissions`, allowed: ['service'] },
    insert: { sql: `insert into public.contact_submissions (name, email, subject, message) values ('N', 'n@example.com', 'S', 'M')`, allowed: ['service'] },
    update: { sql: `update public.contact_submissions set message = 'changed'`, allowed: ['service'] },
    delete: { sql: `delete from public.contact_submissions`, allowed: ['service'] },
  },
  payment_events: {
    select: { sql: `select id from public.payment_events`, allowed: ['service'] },
    insert: { sql: `insert into public.payment_events (id, type) values ('evt_new', 'x')`, allowed: ['service'] },
    update: { sql: `update public.payment_events set type = 'y'`, allowed: ['service'] },
    delete: { sql: `delete from public.payment_events`, allowed: ['service'] },
  },
};

let db: Database;

beforeAll(async () => {
  db = await openDatabase('memory');
  await db.exec(`
    insert into auth.users (id, email) values ('${USER_A}', 'a@example.com'), ('${USER_B}', 'b@example.com');
    insert into public.products (id, title, price, stock) values ('rosary-kit', 'Rosary Kit', 15, 5);
    insert into public.wishlists (user_id, product_id) values ('${USER_A}', 'book-10-reasons');
    insert into public.orders (id, user_id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method)
      values ('${ORDER_A}', '${USER_A}', 'a@example.com', 22, 15, 37, '{"line1": "1 Test St"}', '{"name": "AU Standard Courier"}');
    insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${ORDER_A}', 'book-10-reasons', 'Book', 1, 22);
    insert into public.newsletter_subscriptions (email) values ('a@example.com');
    insert into public.contact_submissions (name, email, subject, message) values ('A', 'a@example.com', 'Hi', 'Hello');
    insert into public.payment_events (id, type) values ('evt_1', 'checkout.session.completed');
  `);
});
afterAll(() => db.close());

/** Runs one statement as a role in a transaction that is always rolled back. */
async function attempt(role: Role, sql: string): Promise<boolean> {
  const dbRole = role === 'service' ? 'service_role' : role === 'anon' ? 'anon' : 'authenticated';
  const sub = role === 'userA' ? USER_A : role === 'userB' ? USER_B : undefined;
  try {
    return await db.transaction(async (tx) => {
      await tx.exec(`set local role ${dbRole}`);
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role: dbRole, sub })]);
      const result = await tx.query(sql);
      await tx.rollback();
      return (result.affectedRows ?? 0) > 0 || result.rows.length > 0;
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Permission and policy errors are denials; anything else is a broken test.
    if (code === '42501') return false;
    throw error;
  }
}

describe('RLS matrix: table × role × operation', () => {
  for (const [table, operations] of Object.entries(MATRIX)) {
    for (const [operation, { sql, allowed }] of Object.entries(operations)) {
      it(`${table} ${operation}: ${ROLES.map((r) => `${r} ${allowed.includes(r) ? '✓' : '✗'}`).join(', ')}`, async () => {
        const outcome = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await attempt(role, sql)] as const)));
        expect(outcome).toEqual(Object.fromEntries(ROLES.map((role) => [role, allowed.includes(role)])));
      });
    }
  }

  it('user B can neither add to nor remove from user A’s wishlist by naming A’s id', async () => {
    expect(await attempt('userB', `insert into public.wishlists (user_id, product_id) values ('${USER_A}', 'rosary-kit')`)).toBe(false);
    expect(await attempt('userB', `delete from public.wishlists where user_id = '${USER_A}'`)).toBe(false);
  });

  it('a wishlist entry defaults to the signed-in user', async () => {
    const owner = await db.transaction(async (tx) => {
      await tx.exec('set local role authenticated');
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role: 'authenticated', sub: USER_B })]);
      const { rows } = await tx.query<{ user_id: string }>(`insert into public.wishlists (product_id) values ('rosary-kit') returning user_id`);
      await tx.rollback();
      return rows[0]?.user_id;
    });
    expect(owner).toBe(USER_B);
  });

  it('only the service role may sync the catalog, and a book taken off sale is hidden from shoppers but kept', async () => {
    const books = JSON.stringify([{ id: 'book-10-reasons', title: 'Synced', price: 1, category: 'Books', weight: 1, dimensions: { length: 1, width: 1, height: 1 } }]);
    const sync = `select public.sync_catalog('${books}'::jsonb)`;
    expect(await attempt('anon', sync), 'as anon').toBe(false);
    expect(await attempt('userA', sync), 'as a shopper').toBe(false);
    expect(await attempt('service', sync), 'as service').toBe(true);
    await db.exec(`update public.products set for_sale = false where id = 'rosary-kit'`);
    try {
      for (const role of ['anon', 'userA'] as const) expect(await attempt(role, `select id from public.products where id = 'rosary-kit'`), role).toBe(false);
      expect(await attempt('service', `select id from public.products where id = 'rosary-kit'`)).toBe(true);
    } finally {
      await db.exec(`update public.products set for_sale = true where id = 'rosary-kit'`);
    }
  });

  it('only the service role may run fulfilment and the other stock functions', async () => {
    const calls: [fn: string, sql: string][] = [
      ...['fulfil_order', 'cancel_unpaid_order', 'claim_confirmation_email'].map((fn): [string, string] => [fn, `select public.${fn}('${ORDER_A}')`]),
      ['record_refund', `select public.record_refund('${ORDER_A}', 're_forged')`],
      ['claim_refund_email', `select public.claim_refund_email('${ORDER_A}')`],
      ['link_checkout_session', `select public.link_checkout_session('${ORDER_A}', 'cs_forged')`],
      [
        'create_order',
        `select public.create_order('{"customer_email":"x@example.com","subtotal_amount":1,"shipping_amount":0,"total_amount":1,"shipping_address":{},"shipping_method":{},"payment_provider":"stripe"}', '[{"product_id":"rosary-kit","title":"Kit","quantity":1,"price_at_time":1}]')`,
      ],
    ];
    for (const [fn, sql] of calls) {
      expect(await attempt('anon', sql), `${fn} as anon`).toBe(false);
      expect(await attempt('userA', sql), `${fn} as its owner`).toBe(false);
      expect(await attempt('service', sql), `${fn} as service`).toBe(true);
    }
  });

  it('every table in the public schema has RLS enabled', async () => {
    const { rows } = await db.query<{ relname: string }>(
      `select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Back office: the staff role. A staff member is a signed-in user whose email is on public.staff_members; user A
// (who owns ORDER_A) and user B are signed in but not staff.

const STAFF_USER = '00000000-0000-4000-8000-0000000000cc';
type StaffRole = 'anon' | 'userA' | 'userB' | 'staff' | 'service';
const STAFF_ROLES: StaffRole[] = ['anon', 'userA', 'userB', 'staff', 'service'];

const STAFF_MATRIX: Record<string, Partial<Record<Operation, { sql: string; allowed: StaffRole[] }>>> = {
  staff_members: {
    select: { sql: `select email from public.staff_members`, allowed: ['service'] },
    insert: { sql: `insert into public.staff_members (email) values ('b@example.com')`, allowed: ['service'] },
    delete: { sql: `delete from public.staff_members`, allowed: ['service'] },
  },
  orders: {
    select: { sql: `select id from public.orders where id = '${ORDER_A}'`, allowed: ['userA', 'staff', 'service'] },
    update: { sql: `update public.orders set status = 'shipped' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  order_items: {
    select: { sql: `select id from public.order_items where order_id = '${ORDER_A}'`, allowed: ['userA', 'staff', 'service'] },
  },
  order_events: {
    select: { sql: `select id from public.order_events`, allowed: ['staff', 'service'] },
    insert: { sql: `insert into public.order_events (order_id, action, actor) values ('${ORDER_A}', 'delivered', 'x@example.com')`, allowed: ['service'] },
    // Append-only: nobody changes or removes history, the service role included.
    update: { sql: `update public.order_events set actor = 'y@example.com'`, allowed: [] },
    delete: { sql: `delete from public.order_events`, allowed: [] },
  },
  stock_changes: {
    select: { sql: `select id from public.stock_changes`, allowed: ['staff', 'service'] },
    insert: { sql: `insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values ('rosary-kit', 5, 6, 'r', 'x@example.com')`, allowed: ['service'] },
    update: { sql: `update public.stock_changes set reason = 'changed'`, allowed: [] },
    delete: { sql: `delete from public.stock_changes`, allowed: [] },
  },
  newsletter_subscriptions: {
    select: { sql: `select email from public.newsletter_subscriptions`, allowed: ['staff', 'service'] },
    delete: { sql: `delete from public.newsletter_subscriptions`, allowed: ['service'] },
  },
  contact_submissions: {
    select: { sql: `select message from public.contact_submissions`, allowed: ['staff', 'service'] },
    update: { sql: `update public.contact_submissions set handled_at = now()`, allowed: ['service'] },
  },
};

/** Like attempt(), with the staff member as a fifth caller. */
async function attemptAs(role: StaffRole, sql: string): Promise<boolean> {
  if (role !== 'staff') return attempt(role, sql);
  try {
    return await db.transaction(async (tx) => {
      await tx.exec('set local role authenticated');
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ role: 'authenticated', sub: STAFF_USER })]);
      const result = await tx.query(sql);
      await tx.rollback();
      return (result.affectedRows ?? 0) > 0 || result.rows.length > 0;
    });
  } catch (error) {
    if ((error as { code?: string }).code === '42501') return false;
    throw error;
  }
}

describe('RLS matrix, back office: table × role (with staff) × operation', () => {
  beforeAll(async () => {
    await db.exec(`
      insert into auth.users (id, email) values ('${STAFF_USER}', 'Publisher@Example.com');
      insert into public.staff_members (email) values ('publisher@example.com');
      insert into public.order_events (order_id, action, actor) values ('${ORDER_A}', 'shipped', 'publisher@example.com');
      insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values ('rosary-kit', 4, 5, 'count', 'publisher@example.com');
    `);
  });

  for (const [table, operations] of Object.entries(STAFF_MATRIX)) {
    for (const [operation, { sql, allowed }] of Object.entries(operations)) {
      it(`${table} ${operation}: ${STAFF_ROLES.map((r) => `${r} ${allowed.includes(r) ? '✓' : '✗'}`).join(', ')}`, async () => {
        const outcome = Object.fromEntries(await Promise.all(STAFF_ROLES.map(async (role) => [role, await attemptAs(role, sql)] as const)));
        expect(outcome).toEqual(Object.fromEntries(STAFF_ROLES.map((role) => [role, allowed.includes(role)])));
      });
    }
  }

  it('staff RPCs run for staff only; order changes that email or refund run for the service role only', async () => {
    const staffRpcs = [
      `select public.admin_list_orders('all', '')`,
      `select public.admin_get_order('${ORDER_A}')`,
      `select public.admin_set_stock('rosary-kit', 6, 'count')`,
      `select public.admin_mark_message_handled((select id from public.contact_submissions limit 1))`,
      `select public.admin_remove_subscriber(gen_random_uuid())`,
      `select public.require_staff()`,
    ];
    for (const sql of staffRpcs) {
      for (const role of ['anon', 'userA', 'userB', 'service'] as const) expect(await attemptAs(role, sql), `${sql} as ${role}`).toBe(false);
      expect(await attemptAs('staff', sql), `${sql} as staff`).toBe(true);
    }
    const serviceOnly = [
      `select public.ship_order('${ORDER_A}', '33ABC1234567', 'Australia Post', 'x')`,
      `select public.claim_shipping_email('${ORDER_A}')`,
      `select public.release_shipping_email('${ORDER_A}', null)`,
      `select public.mark_order_delivered('${ORDER_A}', 'x')`,
      `select public.cancel_paid_order('${ORDER_A}', 'x')`,
      `select public.claim_publisher_notice('${ORDER_A}')`,
    ];
    for (const sql of serviceOnly) {
      for (const role of ['anon', 'userA', 'userB', 'staff'] as const) expect(await attemptAs(role, sql), `${sql} as ${role}`).toBe(false);
      expect(await attemptAs('service', sql), `${sql} as service`).toBe(true);
    }
  });

  it('is_staff() is true only for a signed-in user whose email is on the staff list, whatever its case', async () => {
    const isStaff = async (role: StaffRole) =>
      db.transaction(async (tx) => {
        const sub = role === 'staff' ? STAFF_USER : role === 'userA' ? USER_A : undefined;
        await tx.exec(`set local role ${role === 'anon' ? 'anon' : role === 'service' ? 'service_role' : 'authenticated'}`);
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub })]);
        const { rows } = await tx.query<{ staff: boolean }>('select public.is_staff() as staff');
        await tx.rollback();
        return rows[0]?.staff;
      });
    expect({ anon: await isStaff('anon'), userA: await isStaff('userA'), staff: await isStaff('staff'), service: await isStaff('service') }).toEqual({
      anon: false,
      userA: false,
      staff: true,
      service: false,
    });
  });

  it('every back-office function fixes its search_path', async () => {
    const { rows } = await db.query<{ proname: string }>(`
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`);
    expect(rows).toEqual([]);
  });
});
