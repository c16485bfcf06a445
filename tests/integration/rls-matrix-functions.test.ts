/**
 * The RLS matrix's functions: every function of the public schema × API role that may execute it
 * (tests/helpers/rls-matrix.ts). A new function gets its row here, and a call in rls-matrix-calls.test.ts if an
 * API role may call it.
 */
import { expect, it } from 'vitest';
import { describeMatrix } from '../helpers/rls-matrix';
import type { ApiRole } from '../helpers/test-databases';

/** Functions whose arguments changed: one signature each (PostgREST calls a function by its name), as listed. */
const SIGNATURES = [
  'admin_list_customers(text,text,integer)',
  'admin_list_orders(text,text,text,integer)',
  'admin_sales_orders(date,date,text,integer)',
  'admin_stock_history(text,text,integer)',
  'check_promotion_code(text,numeric,text)',
  'create_order(jsonb,jsonb)',
  'link_checkout_session(uuid,text,timestamp with time zone,text)',
  'promotion_code_answer(promotion_codes,numeric,text)',
  'promotion_code_uses(uuid)',
  'review_submit(uuid,text,integer,text,text,text,boolean,integer)',
  'xero_waiting(date,jsonb)',
];

const SERVICE_FUNCTIONS = [
  'take_lookup',
  'create_order',
  'link_checkout_session',
  'fulfil_order',
  'cancel_unpaid_order',
  'claim_confirmation_email',
  'record_refund',
  'claim_refund_email',
  'ship_order',
  'claim_shipping_email',
  'release_shipping_email',
  'mark_order_delivered',
  'cancel_paid_order',
  'claim_publisher_notice',
  'claim_checkout_reminder',
  'sync_catalog',
  'claim_low_stock_alerts',
  'release_low_stock_alert',
  'newsletter_request',
  'back_in_stock_request',
  'sign_up_not_sent',
  'newsletter_confirm',
  'newsletter_decline',
  'back_in_stock_confirm',
  'back_in_stock_decline',
  'marketing_opt_out',
  'availability_create_mailing',
  'sync_low_stock_levels',
  'sync_customs',
  'begin_part_refund',
  'settle_part_refund',
  'newsletter_claim_batch',
  'newsletter_batch_sent',
  'newsletter_unsubscribe',
  'check_promotion_code',
  'claim_shipment_send',
  'record_shipment_sent',
  'record_shipment_failed',
  'record_shipment_label',
  'record_shipment_cancelled',
  'record_tracking_event',
  'shipments_to_retry',
  'quote_request_create',
  'quote_request_decline',
  'invoice_save_draft',
  // The editor's running totals, priced by the server function as the save prices them.
  'invoice_totals',
  'invoice_send',
  'invoice_provider_step',
  'invoice_mark_paid',
  'invoice_close',
  'invoice_set_ship_before_payment',
  'invoice_reminded',
  'invoice_begin_credit',
  'claim_review_requests',
  'review_requests_sent',
  'release_review_requests',
  'review_form',
  'review_submit',
  'review_moderate',
  'review_reply',
  'xero_claim',
  'xero_settle',
  'release_due_titles',
  'claim_preorder_ready_email',
  'claim_preorder_date_email',
];
const STAFF_FUNCTIONS = [
  'require_staff',
  'admin_list_orders',
  'admin_get_order',
  'admin_set_stock',
  'admin_mark_message_handled',
  'admin_remove_subscriber',
  'admin_sales',
  'admin_sales_orders',
  'admin_list_customers',
  'admin_get_customer',
  'admin_set_order_note',
  'admin_change_address',
  'admin_undo_delivered',
  'admin_receive_stock',
  'admin_list_stock',
  'admin_stock_history',
  'admin_order_refunds',
  'admin_create_newsletter',
  'admin_list_newsletters',
  'admin_list_codes',
  'admin_create_code',
  'admin_set_code_active',
  'admin_get_orders',
  'admin_list_invoices',
  'admin_get_invoice',
  'admin_list_quotes',
  'admin_list_reviews',
  'admin_review_counts',
  'admin_xero_status',
  'release_title',
  'admin_list_preorders',
  'admin_preorder_buyers',
  'admin_set_preorder',
  'admin_move_release_date',
];

/** Every function of the public schema and the API roles that may execute it. Trigger functions: nobody. */
const FUNCTIONS: Record<string, ApiRole[]> = {
  is_staff: ['anon', 'authenticated', 'service_role'],
  claim_guest_orders: ['authenticated'],
  // Answers null to anyone signed in who is not staff (the header asks without knowing who is).
  staff_orders_to_pack: ['authenticated'],
  // Called only from inside the staff sales functions.
  sales_orders_in: [],
  // Called only from inside the refund, sales and customer functions.
  order_refunded_amount: [],
  refunded_amount: [],
  // The back office's paging and searching, called only from inside the staff list functions.
  page_cursor: [],
  read_page_cursor: [],
  page_limit: [],
  contains_pattern: [],
  // One order as the staff read it, called only from inside admin_get_order and admin_get_orders.
  order_detail: [],
  // The sales summary per day, summed and marked stale only from inside admin_sales and the triggers.
  sum_sales_days: [],
  mark_sales_day_stale: [],
  sales_day_stale_by_order: [],
  sales_day_stale_by_line: [],
  aud: [],
  // The buyer's name: also the rule of orders.bought_by, which the role that writes orders evaluates.
  order_buyer_name: ['service_role'],
  // The GST rule, called only from inside the sales and tax-figure functions.
  gst_applies: [],
  gst_included: [],
  // "To pack", the one rule: also the index's condition, which whoever writes an order evaluates (it reads nothing).
  order_to_pack: ['anon', 'authenticated', 'service_role'],
  // The label run's orders to pack, and an order on account's paperwork, for the server functions.
  orders_to_pack: ['service_role'],
  order_on_account: ['service_role'],
  // The tax invoice's figures, for the server drawing it from a status-page token.
  order_tax_figures: ['service_role'],
  ...Object.fromEntries(STAFF_FUNCTIONS.map((name) => [name, ['authenticated'] as ApiRole[]])),
  ...Object.fromEntries(SERVICE_FUNCTIONS.map((name) => [name, ['service_role'] as ApiRole[]])),
  touch_updated_at: [],
  refuse_change: [],
  record_order_stock: [],
  record_cancelled_stock: [],
  rearm_low_stock: [],
  // Called only from inside the sign-up functions.
  expire_pending_sign_ups: [],
  // The people waiting for a title, called only from inside the stock and pre-order lists and the availability mailing.
  waiting_for: [],
  // Called only from inside the code and quantity-price functions and triggers.
  promotion_code_uses: [],
  promotion_code_answer: [],
  check_quantity_prices: [],
  // Called only from inside the invoice functions and triggers.
  quantity_unit_price: [],
  invoice_label: [],
  // Row locks taken once, each the row or its one not-found error, and an order's books locked in one order: called
  // only from inside the functions that change them.
  lock_order: [],
  lock_order_books: [],
  lock_invoice: [],
  lock_product: [],
  // A review the publisher acts on, under its row lock, with who acts named; a line of a review's history.
  lock_review: [],
  record_review_history: [],
  // One rule each, called only from inside the database: a part refund's checks and reservation, an invoice's 1 to 20
  // books, a stock change's reason, an invoice order's copies moved with their history, an order's lines as read.
  part_refund_reason: [],
  reserve_part_refund: [],
  check_invoice_lines: [],
  stock_change_reason: [],
  move_order_stock: [],
  order_items_json: [],
  // The order number's form, and the trigger that keeps an order's number: called only from inside the database.
  order_label: [],
  keep_order_number: [],
  invoice_for_provider: [],
  invoice_row: [],
  order_items_cart_limit: [],
  quantity_prices_stay_valid: [],
  // What waits for Xero and one document's content: called only from inside xero_claim and admin_xero_status.
  xero_waiting: [],
  xero_document: [],
  // Pre-orders: the copies pre-ordered and the customs data its orders abroad lack, called only from inside the
  // database; the copies left and the catalog with each title's pre-order state, for the live catalog and checkout.
  on_preorder: [],
  preorder_copies: [],
  preorder_customs_gap: [],
  release_title_as: [],
  lock_preorder_title: [],
  preorder_left: ['service_role'],
  catalog_for_sale: ['service_role'],
};

/** Thrown to leave a transaction rolled back, carrying what was read inside it. */
class RolledBack {
  constructor(readonly rows: unknown[]) {}
}

describeMatrix('functions', ({ db }) => {
  it('functions whose arguments changed have one signature each', async () => {
    const names = [...new Set(SIGNATURES.map((s) => s.slice(0, s.indexOf('('))))];
    const { rows } = await db.admin.query<{ signature: string }>(
      `select replace(p.oid::regprocedure::text, 'public.', '') as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname = any ($1) order by 1`,
      [names],
    );
    expect(rows.map((r) => r.signature)).toEqual(SIGNATURES);
  });

  it('function execute: every function of the public schema × API role', async () => {
    const { rows } = await db.admin.query<{ name: string; anon: boolean; authenticated: boolean; service_role: boolean }>(`
      select p.proname as name,
        has_function_privilege('anon', p.oid, 'execute') as anon,
        has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
        has_function_privilege('service_role', p.oid, 'execute') as service_role
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by p.proname`);
    const actual = Object.fromEntries(rows.map((r) => [r.name, (['anon', 'authenticated', 'service_role'] as const).filter((role) => r[role])]));
    expect(actual).toEqual(
      Object.fromEntries(
        Object.keys(FUNCTIONS)
          .sort()
          .map((name) => [name, FUNCTIONS[name]]),
      ),
    );
  });

  it('a table, sequence or function a later migration creates starts closed to anon and authenticated', async () => {
    type Privileges = { role: string; table_privileges: boolean; sequence_privileges: boolean; execute: boolean };
    const rows = await db.admin
      .transaction(async (tx) => {
        // As the role the migrations run as: Supabase's default privileges are granted for it.
        await tx.exec(`set local role postgres;
          create table public.next_table (id bigint generated always as identity primary key, note text);
          create function public.next_function() returns int language sql as 'select 1';`);
        const { rows } = await tx.query<Privileges>(`
          select role,
            has_table_privilege(role, 'public.next_table', 'select, insert, update, delete, truncate, references, trigger') as table_privileges,
            has_sequence_privilege(role, pg_get_serial_sequence('public.next_table', 'id'), 'usage, select, update') as sequence_privileges,
            has_function_privilege(role, 'public.next_function()', 'execute') as execute
          from unnest(array['anon', 'authenticated']) as role`);
        throw new RolledBack(rows);
      })
      .catch((error) => {
        if (error instanceof RolledBack) return error.rows as Privileges[];
        throw error;
      });
    expect(rows).toEqual([
      { role: 'anon', table_privileges: false, sequence_privileges: false, execute: false },
      { role: 'authenticated', table_privileges: false, sequence_privileges: false, execute: false },
    ]);
  });

  it('every security-definer function fixes its search_path', async () => {
    const { rows } = await db.admin.query<{ proname: string }>(`
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`);
    expect(rows).toEqual([]);
  });
});
