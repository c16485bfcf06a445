/**
 * The RLS matrix's callers, fixtures and runner, shared by its area files (tests/integration/rls-matrix-*.test.ts):
 * row-level security and grants against the real migrations, on the embedded backend and on PostgreSQL 17 set up
 * as Supabase sets up a project, as a matrix of expected allow (✓) or deny (✗). A deny is a permission error or a
 * statement that touches no row. Statements run as PostgREST runs a request (`set local role`,
 * `request.jwt.claims`) and are rolled back.
 *
 * A table, column or function gets its row in its area's file: tables, columns, functions (who may execute each),
 * function calls (who may call them, and what they answer). A table or function no file lists fails the run.
 */
import { describe } from 'vitest';
import { type ApiRole, DATABASES, GOOGLE_IDENTITIES, isPermissionError, type TestDatabase, useTestDatabase } from './test-databases';

export const USER_A = '00000000-0000-4000-8000-00000000000a';
export const USER_B = '00000000-0000-4000-8000-00000000000b';
const STAFF_USER = '00000000-0000-4000-8000-0000000000cc';
export const UNCONFIRMED_USER = '00000000-0000-4000-8000-0000000000dd';
export const ORDER_A = '00000000-0000-4000-8000-0000000000a1';
/** An order with no history, so deleting it meets no append-only row. */
export const ORDER_C = '00000000-0000-4000-8000-0000000000c1';
export const PART_REFUND = '00000000-0000-4000-8000-0000000000f1';
export const NEWSLETTER = '00000000-0000-4000-8000-0000000000f2';
export const CODE_ID = '00000000-0000-4000-8000-0000000000f3';
export const QUOTE = '00000000-0000-4000-8000-0000000000f4';
export const INVOICE = '00000000-0000-4000-8000-0000000000f5';

/**
 * The callers: a visitor, two shoppers (A owns the fixtures), the publisher's staff (a confirmed address on the
 * staff list), someone signed in as a staff address nobody confirmed, and the server functions.
 */
export const CALLERS = {
  anon: { role: 'anon', claims: {} },
  shopperA: { role: 'authenticated', claims: { sub: USER_A } },
  shopperB: { role: 'authenticated', claims: { sub: USER_B } },
  staff: { role: 'authenticated', claims: { sub: STAFF_USER } },
  unconfirmed: { role: 'authenticated', claims: { sub: UNCONFIRMED_USER } },
  service: { role: 'service_role', claims: {} },
} as const satisfies Record<string, { role: ApiRole; claims: Record<string, unknown> }>;
export type Caller = keyof typeof CALLERS;
export const CALLER_NAMES = Object.keys(CALLERS) as Caller[];

type Operation = 'select' | 'insert' | 'update' | 'delete' | 'truncate';
export type TableRow = Record<Exclude<Operation, 'truncate'>, { sql: string; allowed: Caller[] }> & { truncate: Caller[] };

export const SHOPPERS_AND_STAFF: Caller[] = ['anon', 'shopperA', 'shopperB', 'staff', 'unconfirmed', 'service'];

const FIXTURES = `
  insert into auth.users (id, email, email_confirmed_at) values
    ('${USER_A}', 'a@example.com', now()), ('${USER_B}', 'b@example.com', now()),
    ('${STAFF_USER}', 'Publisher@Example.com', now()), ('${UNCONFIRMED_USER}', 'helper@example.com', null);
  insert into public.staff_members (email) values ('publisher@example.com'), ('helper@example.com');
  ${GOOGLE_IDENTITIES};
  insert into public.products (id, title, price, stock) values ('rosary-kit', 'Rosary Kit', 15, 5), ('spare-book', 'Spare', 9, 1);
  insert into public.wishlists (user_id, product_id) values ('${USER_A}', 'book-10-reasons');
  insert into public.product_quantity_prices (product_id, min_quantity, price) values ('rosary-kit', 10, 12);
  insert into public.promotion_codes (id, code, kind, amount, created_by) values ('${CODE_ID}', 'PARISH10', 'percent', 10, 'publisher@example.com');
  insert into public.orders (id, user_id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method) values
    ('${ORDER_A}', '${USER_A}', 'a@example.com', 22, 15, 37, '{"line1": "1 Test St"}', '{"name": "AU Standard Courier"}'),
    ('${ORDER_C}', '${USER_A}', 'a@example.com', 22, 15, 37, '{"line1": "1 Test St"}', '{"name": "AU Standard Courier"}');
  insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${ORDER_A}', 'book-10-reasons', 'Book', 1, 22);
  insert into public.newsletter_subscriptions (email) values ('a@example.com');
  insert into public.contact_submissions (name, email, subject, message) values ('A', 'a@example.com', 'Hi', 'Hello');
  insert into public.payment_events (id, type) values ('evt_1', 'checkout.session.completed');
  insert into public.order_events (order_id, action, actor) values ('${ORDER_A}', 'shipped', 'publisher@example.com');
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values ('rosary-kit', 4, 5, 'count', 'publisher@example.com');
  insert into public.order_notes (order_id, note, updated_by) values ('${ORDER_A}', 'Gift', 'publisher@example.com');
  insert into public.low_stock_alerts (product_id, level, stock, order_id) values ('rosary-kit', 10, 5, '${ORDER_A}');
  insert into public.back_in_stock_requests (product_id, email, confirmed_at) values ('rosary-kit', 'waiting@example.com', now());
  insert into public.marketing_opt_outs (email, via) values ('gone@example.com', 'reminder');
  insert into public.shipments (order_id, order_number, platform, state, platform_order_id) values ('${ORDER_A}', '9002', 'starshipit', 'sent', '1');
  insert into public.shipment_tracking_events (order_id, event_key, status, occurred_at) values ('${ORDER_A}', repeat('a', 64), 'InTransit', now());
  insert into public.order_refunds (id, order_id, amount, reason, actor) values ('${PART_REFUND}', '${ORDER_A}', 5, 'Damaged corner', 'publisher@example.com');
  insert into public.newsletters (id, subject, body_markdown, created_by) values ('${NEWSLETTER}', 'News', 'Hello', 'publisher@example.com');
  insert into public.newsletter_deliveries (newsletter_id, email, subscription_id) select '${NEWSLETTER}', lower(email), id from public.newsletter_subscriptions;
  insert into public.quote_requests (id, organisation, contact_name, email, phone, address, lines)
    values ('${QUOTE}', 'St Mary''s School', 'Ann', 'office@example.com', '02 9999 0000', '{"line1": "1 School Rd", "country": "AU"}', '[{"product_id": "rosary-kit", "quantity": 30}]');
  insert into public.invoices (id, created_by, organisation, contact_name, email, address, terms_days, shipping_kind, shipping_name, shipping_amount, subtotal, total, gst)
    values ('${INVOICE}', 'publisher@example.com', 'St Mary''s School', 'Ann', 'office@example.com', '{"line1": "1 School Rd", "country": "AU"}', 30, 'rate_card', 'AU Standard Courier', 0, 360, 360, 32.73);
  insert into public.invoice_lines (invoice_id, product_id, title, quantity, list_unit_price, unit_price, position) values ('${INVOICE}', 'rosary-kit', 'Rosary Kit', 30, 12, 12, 1);
  insert into public.review_requests (order_id, email, sent_at) values ('${ORDER_A}', 'a@example.com', now());
  insert into public.reviews (order_id, product_id, rating, title, body, display_name, publish_consent, status, published_at)
    values ('${ORDER_A}', 'book-10-reasons', 5, 'Loved it', 'Read every night', 'Ann A.', true, 'published', now());
  insert into public.review_history (review_id, action, actor, rating, title, body, display_name) select id, 'submitted', 'buyer', 5, 'Loved it', 'Read every night', 'Ann A.' from public.reviews;
  insert into public.xero_postings (key, kind, order_id, occurred_at, status, xero_id, posted_at) values ('sale:${ORDER_A}', 'sale', '${ORDER_A}', now(), 'posted', 'inv-1', now());
  insert into public.xero_syncs (trigger, finished_at) values ('schedule', now());
`;

export const matrixLabel = (allowed: Caller[]) => CALLER_NAMES.map((c) => `${c} ${allowed.includes(c) ? '✓' : '✗'}`).join(', ');
export const expected = (allowed: Caller[]) => Object.fromEntries(CALLER_NAMES.map((c) => [c, allowed.includes(c)]));

/** One database of the matrix, with the fixtures in it, and the callers' attempts on it. */
export interface Matrix {
  db: TestDatabase;
  /** True when the caller's statement did something; false when it was refused or touched no row. */
  attempt(caller: Caller, sql: string, operation?: Operation): Promise<boolean>;
  /** Every caller's attempt at one statement. */
  outcomes(sql: string, operation: Operation): Promise<Record<Caller, boolean>>;
}

/** An area's part of the matrix, run on both databases, each made from the migrations with the fixtures in it. */
export function describeMatrix(area: string, tests: (matrix: Matrix) => void): void {
  describe.each(DATABASES)(`RLS and grants, ${area}, on the $label`, ({ open }) => {
    const db = useTestDatabase(open, FIXTURES);

    async function attempt(caller: Caller, sql: string, operation: Operation = 'select'): Promise<boolean> {
      const { role, claims } = CALLERS[caller];
      try {
        const result = await db.request(role, claims, sql);
        // A truncate that runs has done its harm whatever it reports.
        return operation === 'truncate' || result.affected > 0 || result.rows.length > 0;
      } catch (error) {
        // Permission and policy errors are denials; anything else is a broken test.
        if (isPermissionError(error)) return false;
        throw error;
      }
    }

    async function outcomes(sql: string, operation: Operation): Promise<Record<Caller, boolean>> {
      const results: Partial<Record<Caller, boolean>> = {};
      for (const caller of CALLER_NAMES) results[caller] = await attempt(caller, sql, operation);
      return results as Record<Caller, boolean>;
    }

    tests({ db, attempt, outcomes });
  });
}
