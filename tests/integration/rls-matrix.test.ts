/**
 * Row-level security and grants against the real migrations, on the embedded backend and on PostgreSQL 17 set
 * up as Supabase sets up a project: every table × caller × operation, and every function × API role, as a
 * matrix of expected allow (✓) or deny (✗). A deny is a permission error or a statement that touches no row.
 * Statements run as PostgREST runs a request (`set local role`, `request.jwt.claims`) and are rolled back.
 *
 * A table or function the matrix does not list fails the run: each new one gets its row here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiRole, DATABASES, GOOGLE_IDENTITIES, isPermissionError, type TestDatabase } from '../helpers/test-databases';

const USER_A = '00000000-0000-4000-8000-00000000000a';
const USER_B = '00000000-0000-4000-8000-00000000000b';
const STAFF_USER = '00000000-0000-4000-8000-0000000000cc';
const UNCONFIRMED_USER = '00000000-0000-4000-8000-0000000000dd';
const ORDER_A = '00000000-0000-4000-8000-0000000000a1';
/** An order with no history, so deleting it meets no append-only row. */
const ORDER_C = '00000000-0000-4000-8000-0000000000c1';
const PART_REFUND = '00000000-0000-4000-8000-0000000000f1';
const NEWSLETTER = '00000000-0000-4000-8000-0000000000f2';
const CODE_ID = '00000000-0000-4000-8000-0000000000f3';
const QUOTE = '00000000-0000-4000-8000-0000000000f4';
const INVOICE = '00000000-0000-4000-8000-0000000000f5';

/**
 * The callers: a visitor, two shoppers (A owns the fixtures), the publisher's staff (a confirmed address on the
 * staff list), someone signed in as a staff address nobody confirmed, and the server functions.
 */
const CALLERS = {
  anon: { role: 'anon', claims: {} },
  shopperA: { role: 'authenticated', claims: { sub: USER_A } },
  shopperB: { role: 'authenticated', claims: { sub: USER_B } },
  staff: { role: 'authenticated', claims: { sub: STAFF_USER } },
  unconfirmed: { role: 'authenticated', claims: { sub: UNCONFIRMED_USER } },
  service: { role: 'service_role', claims: {} },
} as const satisfies Record<string, { role: ApiRole; claims: Record<string, unknown> }>;
type Caller = keyof typeof CALLERS;
const CALLER_NAMES = Object.keys(CALLERS) as Caller[];

type Operation = 'select' | 'insert' | 'update' | 'delete' | 'truncate';
type TableRow = Record<Exclude<Operation, 'truncate'>, { sql: string; allowed: Caller[] }> & { truncate: Caller[] };

const SHOPPERS_AND_STAFF: Caller[] = ['anon', 'shopperA', 'shopperB', 'staff', 'unconfirmed', 'service'];

/** Columns added to a table after its row above: read and written as their table's rows are. */
const COLUMNS: Record<string, Record<'select' | 'update', { sql: string; allowed: Caller[] }>> = {
  // A review's order, its moderation and its unpublished rows are nobody's to read but the server's.
  'reviews.order_id': {
    select: { sql: `select order_id from public.reviews`, allowed: ['service'] },
    update: { sql: `update public.reviews set order_id = '${ORDER_C}'`, allowed: [] },
  },
  'reviews.rejection_note': {
    select: { sql: `select rejection_note from public.reviews`, allowed: ['service'] },
    update: { sql: `update public.reviews set rejection_note = 'x'`, allowed: [] },
  },
  // How many times the buyer saved it: written by review_submit alone, read by the server's form.
  'reviews.version': {
    select: { sql: `select version from public.reviews`, allowed: ['service'] },
    update: { sql: `update public.reviews set version = version + 1`, allowed: [] },
  },
  // When the order's payment page closes: its shopper may read it with the order; only the server writes it.
  'orders.checkout_expires_at': {
    select: { sql: `select checkout_expires_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set checkout_expires_at = now() + interval '1 day' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // A gift's "Leave my name off the gift slip": its shopper reads it with the order; only the server writes it.
  'orders.gift_hide_sender': {
    select: { sql: `select gift_hide_sender from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set gift_hide_sender = true where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // The name the payer gave the payment page: its shopper reads it with the order; only the server writes it.
  'orders.buyer_name': {
    select: { sql: `select buyer_name from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set buyer_name = 'Payer' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // Who bought the order, filled by the database from the names (public.order_buyer_name): read with the order; it
  // can only be set to its default, the rule's answer, by whoever may write the order.
  'orders.bought_by': {
    select: { sql: `select bought_by from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set bought_by = default where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // One cart, one payment: the cart, what the order was priced from, its page's address, when a newer checkout of
  // the cart closed it, and the order a second payment was refunded for. Read with the order; only the server writes them.
  'orders.cart_id': {
    select: { sql: `select cart_id from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set cart_id = 'cart-forged-1' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.cart_key': {
    select: { sql: `select cart_key from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set cart_key = repeat('f', 64) where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.checkout_url': {
    select: { sql: `select checkout_url from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set checkout_url = 'https://example.com/pay' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.replaced_at': {
    select: { sql: `select replaced_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set replaced_at = now() where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.duplicate_of': {
    select: { sql: `select duplicate_of from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set duplicate_of = null where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // A payment refunded because its code's last use went to another payment first: read with the order; only the server writes it.
  'orders.code_used_up': {
    select: { sql: `select code_used_up from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set code_used_up = true where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // When a confirmed address that signed up again was told so: read as the list's rows are; only the server writes it.
  'newsletter_subscriptions.notice_sent_at': {
    select: { sql: `select notice_sent_at from public.newsletter_subscriptions`, allowed: ['staff', 'service'] },
    update: { sql: `update public.newsletter_subscriptions set notice_sent_at = now()`, allowed: ['service'] },
  },
  'back_in_stock_requests.notice_sent_at': {
    select: { sql: `select notice_sent_at from public.back_in_stock_requests`, allowed: ['service'] },
    update: { sql: `update public.back_in_stock_requests set notice_sent_at = now()`, allowed: ['service'] },
  },
  // The latest tracking event the shipping platform reported: its shopper reads it with the order; only the server writes it.
  'orders.tracking_status': {
    select: { sql: `select tracking_status from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set tracking_status = 'Delivered' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.tracking_status_at': {
    select: { sql: `select tracking_status_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set tracking_status_at = now() where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  // A book's customs data, from its book file: public facts about a book for sale, like its weight; only the
  // catalog sync (the service role) writes them.
  'products.customs_description': {
    select: { sql: `select customs_description from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set customs_description = 'Printed book' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.hs_code': {
    select: { sql: `select hs_code from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set hs_code = '4901.99' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  // A title's pre-order state: read as the rest of a book for sale; written by the catalog sync, the release
  // and the staff functions (security definer), so only the server's role writes it directly.
  'products.release_date': {
    select: { sql: `select release_date from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set release_date = '2027-06-01' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.released_at': {
    select: { sql: `select released_at from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set release_date = '2027-06-01', released_at = now() where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.preorder_allocation': {
    select: { sql: `select preorder_allocation from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set preorder_allocation = 50 where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  'products.preorder_first_delivery': {
    select: { sql: `select preorder_first_delivery from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set preorder_first_delivery = 500 where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  // A pre-order's two once-only emails: its shopper reads them with the order; only the server writes them.
  'orders.preorder_ready_email_sent_at': {
    select: { sql: `select preorder_ready_email_sent_at from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set preorder_ready_email_sent_at = now() where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.preorder_date_emailed': {
    select: { sql: `select preorder_date_emailed from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set preorder_date_emailed = '2027-06-01' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'products.origin_country': {
    select: { sql: `select origin_country from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    update: { sql: `update public.products set origin_country = 'CN' where id = 'book-10-reasons'`, allowed: ['service'] },
  },
  // Buying on account: an invoice's order, who it is for, their PO number, and whether it is packed before payment.
  // Its shopper reads them with the order; only the server writes them.
  // The order's number: its shopper reads it with the order; nobody changes it, the server included.
  'orders.number': {
    select: { sql: `select number from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set number = default where id = '${ORDER_A}'`, allowed: [] },
  },
  'orders.kind': {
    select: { sql: `select kind from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set kind = 'checkout' where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.organisation': {
    select: { sql: `select organisation from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set organisation = null where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.po_number': {
    select: { sql: `select po_number from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set po_number = null where id = '${ORDER_A}'`, allowed: ['service'] },
  },
  'orders.ship_before_payment': {
    select: { sql: `select ship_before_payment from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.orders set ship_before_payment = false where id = '${ORDER_A}'`, allowed: ['service'] },
  },
};

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

/** Every table of the public schema. Nobody truncates anything: it skips row-level security and triggers. */
const TABLES: Record<string, TableRow> = {
  products: {
    select: { sql: `select id from public.products where id = 'book-10-reasons'`, allowed: SHOPPERS_AND_STAFF },
    insert: { sql: `insert into public.products (id, title, price) values ('new-book', 'New', 10)`, allowed: ['service'] },
    update: { sql: `update public.products set price = 1, stock = 999 where id = 'book-10-reasons'`, allowed: ['service'] },
    delete: { sql: `delete from public.products where id = 'spare-book'`, allowed: ['service'] },
    truncate: [],
  },
  // Written by the catalog sync only; read by everyone for books for sale (the pages show them).
  product_quantity_prices: {
    select: { sql: `select min_quantity from public.product_quantity_prices where product_id = 'rosary-kit'`, allowed: SHOPPERS_AND_STAFF },
    insert: { sql: `insert into public.product_quantity_prices (product_id, min_quantity, price) values ('rosary-kit', 50, 10)`, allowed: ['service'] },
    update: { sql: `update public.product_quantity_prices set price = 1 where product_id = 'rosary-kit'`, allowed: ['service'] },
    delete: { sql: `delete from public.product_quantity_prices where product_id = 'rosary-kit'`, allowed: ['service'] },
    truncate: [],
  },
  // Nobody but the server reads the codes: shoppers check one through check_promotion_code (via the server), staff
  // manage them through the admin functions.
  promotion_codes: {
    select: { sql: `select code from public.promotion_codes`, allowed: ['service'] },
    insert: { sql: `insert into public.promotion_codes (code, kind, amount, created_by) values ('NEWCODE', 'amount', 5, 'x@example.com')`, allowed: ['service'] },
    update: { sql: `update public.promotion_codes set amount = 100`, allowed: ['service'] },
    delete: { sql: `delete from public.promotion_codes`, allowed: ['service'] },
    truncate: [],
  },
  wishlists: {
    select: { sql: `select id from public.wishlists where user_id = '${USER_A}'`, allowed: ['shopperA', 'service'] },
    insert: { sql: `insert into public.wishlists (user_id, product_id) values ('${USER_A}', 'rosary-kit')`, allowed: ['shopperA', 'service'] },
    update: { sql: `update public.wishlists set product_id = 'rosary-kit' where user_id = '${USER_A}'`, allowed: ['service'] },
    delete: { sql: `delete from public.wishlists where user_id = '${USER_A}'`, allowed: ['shopperA', 'service'] },
    truncate: [],
  },
  orders: {
    // Staff read orders through the admin functions, which leave out the status token; never the table.
    select: { sql: `select id, status_token from public.orders where id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    insert: {
      sql: `insert into public.orders (user_id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method)
            values ('${USER_A}', 'a@example.com', 22, 15, 37, '{}', '{}')`,
      allowed: ['service'],
    },
    update: { sql: `update public.orders set status = 'completed', total_amount = 0, subtotal_amount = 0, shipping_amount = 0 where id = '${ORDER_A}'`, allowed: ['service'] },
    delete: { sql: `delete from public.orders where id = '${ORDER_C}'`, allowed: ['service'] },
    truncate: [],
  },
  order_items: {
    select: { sql: `select id from public.order_items where order_id = '${ORDER_A}'`, allowed: ['shopperA', 'service'] },
    insert: { sql: `insert into public.order_items (order_id, product_id, title, quantity, price_at_time) values ('${ORDER_A}', 'rosary-kit', 'Kit', 1, 0)`, allowed: ['service'] },
    update: { sql: `update public.order_items set price_at_time = 0 where order_id = '${ORDER_A}'`, allowed: ['service'] },
    delete: { sql: `delete from public.order_items where order_id = '${ORDER_A}'`, allowed: ['service'] },
    truncate: [],
  },
  newsletter_subscriptions: {
    select: { sql: `select email from public.newsletter_subscriptions`, allowed: ['staff', 'service'] },
    insert: {
      sql: `insert into public.newsletter_subscriptions (email, consent_at, consent_source, confirmation_sent_at) values ('new@example.com', null, null, now())`,
      allowed: ['service'],
    },
    update: { sql: `update public.newsletter_subscriptions set email = 'x@example.com'`, allowed: ['service'] },
    delete: { sql: `delete from public.newsletter_subscriptions`, allowed: ['service'] },
    truncate: [],
  },
  contact_submissions: {
    select: { sql: `select message from public.contact_submissions`, allowed: ['staff', 'service'] },
    insert: { sql: `insert into public.contact_submissions (name, email, subject, message) values ('N', 'n@example.com', 'S', 'M')`, allowed: ['service'] },
    update: { sql: `update public.contact_submissions set handled_at = now()`, allowed: ['service'] },
    delete: { sql: `delete from public.contact_submissions`, allowed: ['service'] },
    truncate: [],
  },
  payment_events: {
    select: { sql: `select id from public.payment_events`, allowed: ['service'] },
    insert: { sql: `insert into public.payment_events (id, type) values ('evt_new', 'x')`, allowed: ['service'] },
    update: { sql: `update public.payment_events set type = 'y'`, allowed: ['service'] },
    delete: { sql: `delete from public.payment_events`, allowed: ['service'] },
    truncate: [],
  },
  staff_members: {
    select: { sql: `select email from public.staff_members`, allowed: ['service'] },
    insert: { sql: `insert into public.staff_members (email) values ('b@example.com')`, allowed: ['service'] },
    update: { sql: `update public.staff_members set added_at = now()`, allowed: ['service'] },
    delete: { sql: `delete from public.staff_members`, allowed: ['service'] },
    truncate: [],
  },
  // Reached only through the staff functions: a shopper never reads a note on their order.
  order_notes: {
    select: { sql: `select note from public.order_notes`, allowed: ['service'] },
    insert: { sql: `insert into public.order_notes (order_id, note, updated_by) values ('${ORDER_C}', 'n', 'x@example.com')`, allowed: [] },
    update: { sql: `update public.order_notes set note = 'changed'`, allowed: [] },
    delete: { sql: `delete from public.order_notes`, allowed: [] },
    truncate: [],
  },
  // Append-only: nobody changes or removes history, the service role included.
  order_events: {
    select: { sql: `select id from public.order_events`, allowed: ['staff', 'service'] },
    insert: { sql: `insert into public.order_events (order_id, action, actor) values ('${ORDER_A}', 'delivered', 'x@example.com')`, allowed: ['service'] },
    update: { sql: `update public.order_events set actor = 'y@example.com'`, allowed: [] },
    delete: { sql: `delete from public.order_events`, allowed: [] },
    truncate: [],
  },
  // Each order at the shipping platform: written only by the shipment functions, read by the server; staff read it
  // through admin_get_order, shoppers never.
  shipments: {
    select: { sql: `select state from public.shipments`, allowed: ['service'] },
    insert: { sql: `insert into public.shipments (order_id, order_number, platform) values ('${ORDER_C}', '9001', 'starshipit')`, allowed: [] },
    update: { sql: `update public.shipments set state = 'delivered'`, allowed: [] },
    delete: { sql: `delete from public.shipments`, allowed: [] },
    truncate: [],
  },
  // The tracking events received, once each: append-only, written only by record_tracking_event.
  shipment_tracking_events: {
    select: { sql: `select status from public.shipment_tracking_events`, allowed: ['service'] },
    insert: {
      sql: `insert into public.shipment_tracking_events (order_id, event_key, status, occurred_at) values ('${ORDER_A}', repeat('b', 64), 'Delivered', now())`,
      allowed: [],
    },
    update: { sql: `update public.shipment_tracking_events set status = 'Delivered'`, allowed: [] },
    delete: { sql: `delete from public.shipment_tracking_events`, allowed: [] },
    truncate: [],
  },
  // Written only by the refund functions; staff read them through admin_order_refunds.
  order_refunds: {
    select: { sql: `select amount from public.order_refunds`, allowed: ['service'] },
    insert: { sql: `insert into public.order_refunds (order_id, amount, reason, actor) values ('${ORDER_A}', 1, 'r', 'x@example.com')`, allowed: [] },
    update: { sql: `update public.order_refunds set amount = 99`, allowed: [] },
    delete: { sql: `delete from public.order_refunds`, allowed: [] },
    truncate: [],
  },
  // Written only by the newsletter functions; staff read them through admin_list_newsletters.
  newsletters: {
    select: { sql: `select subject from public.newsletters`, allowed: ['service'] },
    insert: { sql: `insert into public.newsletters (subject, body_markdown, created_by) values ('S', 'B', 'x@example.com')`, allowed: [] },
    update: { sql: `update public.newsletters set subject = 'changed'`, allowed: [] },
    delete: { sql: `delete from public.newsletters`, allowed: [] },
    truncate: [],
  },
  newsletter_deliveries: {
    select: { sql: `select email from public.newsletter_deliveries`, allowed: ['service'] },
    insert: { sql: `insert into public.newsletter_deliveries (newsletter_id, email) values ('${NEWSLETTER}', 'new@example.com')`, allowed: [] },
    update: { sql: `update public.newsletter_deliveries set status = 'skipped'`, allowed: [] },
    delete: { sql: `delete from public.newsletter_deliveries`, allowed: [] },
    truncate: [],
  },
  stock_changes: {
    select: { sql: `select id from public.stock_changes`, allowed: ['staff', 'service'] },
    insert: { sql: `insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values ('rosary-kit', 5, 6, 'r', 'x@example.com')`, allowed: ['service'] },
    update: { sql: `update public.stock_changes set reason = 'changed'`, allowed: [] },
    delete: { sql: `delete from public.stock_changes`, allowed: [] },
    truncate: [],
  },
  // Buying on account: quote requests come in through the forms function, drafts and invoices change only through
  // the invoice functions (the server's, after its staff check); staff read them through admin_list_quotes,
  // admin_list_invoices and admin_get_invoice; the server reads them (the webhook finds an invoice by its provider id).
  quote_requests: {
    select: { sql: `select organisation from public.quote_requests`, allowed: ['service'] },
    insert: {
      sql: `insert into public.quote_requests (organisation, contact_name, email, phone, address, lines) values ('St X', 'N', 'n@example.com', '02', '{}', '[{}]')`,
      allowed: [],
    },
    update: { sql: `update public.quote_requests set organisation = 'changed'`, allowed: [] },
    delete: { sql: `delete from public.quote_requests`, allowed: [] },
    truncate: [],
  },
  invoices: {
    select: { sql: `select number from public.invoices`, allowed: ['service'] },
    insert: {
      sql: `insert into public.invoices (created_by, organisation, contact_name, email, address, terms_days, shipping_kind, shipping_name, shipping_amount, subtotal, total, gst)
            values ('x@example.com', 'St Y', 'N', 'n@example.com', '{"country": "AU"}', 30, 'rate_card', 'AU Standard Courier', 0, 11, 11, 1)`,
      allowed: [],
    },
    update: { sql: `update public.invoices set note = 'changed'`, allowed: [] },
    delete: { sql: `delete from public.invoices`, allowed: [] },
    truncate: [],
  },
  invoice_lines: {
    select: { sql: `select quantity from public.invoice_lines`, allowed: ['service'] },
    insert: {
      sql: `insert into public.invoice_lines (invoice_id, product_id, title, quantity, list_unit_price, unit_price, position) values ('${INVOICE}', 'spare-book', 'Spare', 1, 9, 9, 2)`,
      allowed: [],
    },
    update: { sql: `update public.invoice_lines set unit_price = 0, price_reason = 'free'`, allowed: [] },
    delete: { sql: `delete from public.invoice_lines`, allowed: [] },
    truncate: [],
  },
  // Written by the sales' trigger, claimed and given back by the server functions; nobody else sees them.
  // The sales figures per day, kept by the staff sales function alone: nobody reads or writes them directly.
  sales_days: {
    select: { sql: `select day from public.sales_days`, allowed: [] },
    insert: { sql: `insert into public.sales_days (day, orders, goods, discounts, shipping, refunds, net, copies) values ('2020-01-01', 1, 1, 0, 0, 0, 1, 1)`, allowed: [] },
    update: { sql: `update public.sales_days set orders = 9`, allowed: [] },
    delete: { sql: `delete from public.sales_days`, allowed: [] },
    truncate: [],
  },
  sales_day_titles: {
    select: { sql: `select day from public.sales_day_titles`, allowed: [] },
    insert: { sql: `insert into public.sales_day_titles (day, product_id, title, copies, goods) values ('2020-01-01', 'x', 'x', 1, 1)`, allowed: [] },
    update: { sql: `update public.sales_day_titles set copies = 9`, allowed: [] },
    delete: { sql: `delete from public.sales_day_titles`, allowed: [] },
    truncate: [],
  },
  sales_days_stale: {
    select: { sql: `select day from public.sales_days_stale`, allowed: [] },
    insert: { sql: `insert into public.sales_days_stale (day) values ('2020-01-01')`, allowed: [] },
    update: { sql: `update public.sales_days_stale set day = '2020-01-02'`, allowed: [] },
    delete: { sql: `delete from public.sales_days_stale`, allowed: [] },
    truncate: [],
  },
  low_stock_alerts: {
    select: { sql: `select id from public.low_stock_alerts`, allowed: ['service'] },
    insert: { sql: `insert into public.low_stock_alerts (product_id, level, stock) values ('spare-book', 10, 1)`, allowed: ['service'] },
    update: { sql: `update public.low_stock_alerts set emailed_at = now()`, allowed: ['service'] },
    delete: { sql: `delete from public.low_stock_alerts`, allowed: [] },
    truncate: [],
  },
  // Signed up only through the server function behind the bot-check; staff see only how many wait per title.
  back_in_stock_requests: {
    select: { sql: `select email from public.back_in_stock_requests`, allowed: ['service'] },
    insert: { sql: `insert into public.back_in_stock_requests (product_id, email, confirmation_sent_at) values ('spare-book', 'new@example.com', now())`, allowed: ['service'] },
    update: { sql: `update public.back_in_stock_requests set claimed_at = now()`, allowed: ['service'] },
    delete: { sql: `delete from public.back_in_stock_requests`, allowed: ['service'] },
    truncate: [],
  },
  // Look-ups counted per visitor: only take_lookup (security definer) reads or writes them, for the service role.
  lookup_counts: {
    select: { sql: `select visitor from public.lookup_counts`, allowed: [] },
    insert: { sql: `insert into public.lookup_counts (visitor, kind) values ('aaaaaaaaaaaaaaaaaaaaaa', 'places')`, allowed: [] },
    update: { sql: `update public.lookup_counts set used = 1`, allowed: [] },
    delete: { sql: `delete from public.lookup_counts`, allowed: [] },
    truncate: [],
  },
  // Review requests, reviews and their history: written only by the review functions (security definer). Anyone
  // may read a published review's public columns (the build reads them with the anon key); nothing else.
  review_requests: {
    select: { sql: `select order_id from public.review_requests`, allowed: ['service'] },
    insert: { sql: `insert into public.review_requests (order_id, email) values ('${ORDER_C}', 'a@example.com')`, allowed: [] },
    update: { sql: `update public.review_requests set sent_at = now()`, allowed: [] },
    delete: { sql: `delete from public.review_requests`, allowed: [] },
    truncate: [],
  },
  reviews: {
    select: { sql: `select id, rating, body from public.reviews`, allowed: SHOPPERS_AND_STAFF },
    insert: {
      sql: `insert into public.reviews (order_id, product_id, rating, title, body, display_name, publish_consent) values ('${ORDER_C}', 'book-10-reasons', 5, 'T', 'B', 'N', true)`,
      allowed: [],
    },
    update: { sql: `update public.reviews set status = 'published', published_at = now()`, allowed: [] },
    delete: { sql: `delete from public.reviews`, allowed: [] },
    truncate: [],
  },
  review_history: {
    select: { sql: `select id from public.review_history`, allowed: ['service'] },
    insert: { sql: `insert into public.review_history (review_id, action, actor, rating, title, body, display_name) select id, 'edited', 'x', 1, 'T', 'B', 'N' from public.reviews`, allowed: [] },
    update: { sql: `update public.review_history set note = 'x'`, allowed: [] },
    delete: { sql: `delete from public.review_history`, allowed: [] },
    truncate: [],
  },
  // The Xero connection: its sealed refresh token is read and renewed by the server functions alone; staff see its
  // state through admin_xero_status. The one row exists from the migration: nobody adds or removes one.
  xero_connection: {
    select: { sql: `select tenant_id from public.xero_connection`, allowed: ['service'] },
    insert: { sql: `insert into public.xero_connection (id) values (true) on conflict do nothing`, allowed: [] },
    update: { sql: `update public.xero_connection set renewal_reason = 'Xero refused the refresh token.'`, allowed: ['service'] },
    delete: { sql: `delete from public.xero_connection`, allowed: [] },
    truncate: [],
  },
  // The ledger of what was posted to Xero: written only by xero_claim and xero_settle; the server reads it.
  xero_postings: {
    select: { sql: `select key from public.xero_postings`, allowed: ['service'] },
    insert: {
      sql: `insert into public.xero_postings (key, kind, order_id, occurred_at, status, xero_id, posted_at) values ('sale:${ORDER_C}', 'sale', '${ORDER_C}', now(), 'posted', 'inv-2', now())`,
      allowed: [],
    },
    update: { sql: `update public.xero_postings set xero_id = 'other'`, allowed: [] },
    delete: { sql: `delete from public.xero_postings`, allowed: [] },
    truncate: [],
  },
  // Each run of the sync, written by the server functions; staff see the last through admin_xero_status.
  xero_syncs: {
    select: { sql: `select id from public.xero_syncs`, allowed: ['service'] },
    insert: { sql: `insert into public.xero_syncs (trigger) values ('staff')`, allowed: ['service'] },
    update: { sql: `update public.xero_syncs set posted = 1`, allowed: ['service'] },
    delete: { sql: `delete from public.xero_syncs`, allowed: [] },
    truncate: [],
  },
  // Written only by the unsubscribe functions (security definer); the service role may read who opted out.
  marketing_opt_outs: {
    select: { sql: `select email from public.marketing_opt_outs`, allowed: ['service'] },
    insert: { sql: `insert into public.marketing_opt_outs (email, via) values ('new@example.com', 'reminder')`, allowed: [] },
    update: { sql: `update public.marketing_opt_outs set via = 'newsletter'`, allowed: [] },
    delete: { sql: `delete from public.marketing_opt_outs`, allowed: [] },
    truncate: [],
  },
};

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
  // Called only from inside the code and quantity-price functions and triggers.
  promotion_code_uses: [],
  promotion_code_answer: [],
  check_quantity_prices: [],
  // Called only from inside the invoice functions and triggers.
  quantity_unit_price: [],
  invoice_label: [],
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

/** Thrown to leave a transaction rolled back, carrying what was read inside it. */
class RolledBack {
  constructor(readonly rows: unknown[]) {}
}

const matrixLabel = (allowed: Caller[]) => CALLER_NAMES.map((c) => `${c} ${allowed.includes(c) ? '✓' : '✗'}`).join(', ');

describe.each(DATABASES)('RLS and grants on the $label', ({ open }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await open();
    await db.admin.exec(FIXTURES);
  });
  afterAll(() => db.close());

  /** True when the caller's statement did something; false when it was refused or touched no row. */
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
  const expected = (allowed: Caller[]) => Object.fromEntries(CALLER_NAMES.map((c) => [c, allowed.includes(c)]));

  it('the matrix lists every table of the public schema, and every table has row-level security on', async () => {
    const { rows } = await db.admin.query<{ relname: string; relrowsecurity: boolean }>(
      `select relname, relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') order by relname`,
    );
    expect(rows.map((r) => r.relname)).toEqual(Object.keys(TABLES).sort());
    expect(rows.filter((r) => !r.relrowsecurity).map((r) => r.relname)).toEqual([]);
  });

  for (const [table, row] of Object.entries(TABLES)) {
    for (const operation of ['select', 'insert', 'update', 'delete'] as const) {
      const { sql, allowed } = row[operation];
      it(`${table} ${operation}: ${matrixLabel(allowed)}`, async () => {
        expect(await outcomes(sql, operation)).toEqual(expected(allowed));
      });
    }
    it(`${table} truncate: ${matrixLabel(row.truncate)}`, async () => {
      expect(await outcomes(`truncate public.${table} cascade`, 'truncate')).toEqual(expected(row.truncate));
    });
  }

  for (const [column, row] of Object.entries(COLUMNS)) {
    for (const operation of ['select', 'update'] as const) {
      const { sql, allowed } = row[operation];
      it(`${column} ${operation}: ${matrixLabel(allowed)}`, async () => {
        expect(await outcomes(sql, operation)).toEqual(expected(allowed));
      });
    }
  }

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

  it('staff functions run for confirmed staff only; functions that email or refund for the service role only', async () => {
    const staffCalls = [
      `select public.admin_list_orders('all', '')`,
      `select public.admin_list_orders('unpaid', '')`,
      `select public.admin_get_order('${ORDER_A}')`,
      `select public.admin_set_stock('rosary-kit', 6, 'count')`,
      `select public.admin_mark_message_handled((select id from public.contact_submissions limit 1))`,
      `select public.admin_remove_subscriber(gen_random_uuid())`,
      `select public.require_staff()`,
      `select public.admin_sales('2026-01-01', '2026-12-31', 'month')`,
      `select public.admin_sales_orders('2026-01-01', '2026-12-31')`,
      `select public.admin_list_customers('')`,
      `select public.admin_get_customer('a@example.com')`,
      `select public.admin_set_order_note('${ORDER_A}', 'Wrap as a gift')`,
      `select public.admin_change_address('${ORDER_A}', '{"addressLine1": "2 New St", "city": "Sydney"}')`,
      `select public.admin_undo_delivered('${ORDER_A}')`,
      `select public.admin_receive_stock('rosary-kit', 3, 'delivery')`,
      `select public.admin_list_stock()`,
      `select public.admin_stock_history('rosary-kit')`,
      `select public.admin_order_refunds('${ORDER_A}')`,
      `select public.admin_create_newsletter('Spring news', 'Hello **all**')`,
      `select public.admin_list_newsletters()`,
      `select public.admin_list_codes()`,
      `select public.admin_create_code('{"code": "STAFF5", "kind": "amount", "amount": 5}')`,
      `select public.admin_set_code_active('${CODE_ID}', false)`,
      `select public.admin_get_orders(array['${ORDER_A}'::uuid])`,
      `select public.admin_list_orders('to_pack', 'a', null, 10)`,
      `select public.admin_list_invoices('all')`,
      `select public.admin_get_invoice('${INVOICE}')`,
      `select public.admin_list_quotes('new')`,
      `select public.admin_list_reviews()`,
      `select public.admin_review_counts()`,
      `select public.admin_list_preorders()`,
      `select public.admin_preorder_buyers('rosary-kit')`,
      `select public.release_title('rosary-kit', 5)`,
    ];
    for (const sql of staffCalls) expect(await outcomes(sql, 'select'), sql).toEqual(expected(['staff']));
    const serviceCalls = [
      ...[
        'fulfil_order',
        'cancel_unpaid_order',
        'claim_confirmation_email',
        'claim_refund_email',
        'claim_shipping_email',
        'claim_publisher_notice',
        'claim_preorder_ready_email',
        'claim_preorder_date_email',
      ].map((fn) => `select public.${fn}('${ORDER_A}')`),
      `select public.release_due_titles()`,
      `select public.claim_checkout_reminder('${ORDER_A}', 30)`,
      `select public.claim_review_requests(3, 10, 5)`,
      `select public.review_requests_sent(array['${ORDER_C}'::uuid])`,
      `select public.release_review_requests(array['${ORDER_C}'::uuid])`,
      `select public.review_form('${ORDER_A}')`,
      `select public.review_submit('${ORDER_A}', 'book-10-reasons', 4, 'Forged', 'Forged', 'X', true, 0)`,
      `select public.review_moderate((select id from public.reviews limit 1), 'reject', 'x', 'x')`,
      `select public.review_reply((select id from public.reviews limit 1), 'Thank you', 'x')`,
      `select public.record_refund('${ORDER_A}', 're_forged')`,
      `select public.link_checkout_session('${ORDER_A}', 'cs_forged', now() + interval '1 day', 'https://example.com/pay')`,
      `select public.ship_order('${ORDER_A}', '33ABC1234567', 'Australia Post', 'x')`,
      `select public.release_shipping_email('${ORDER_A}', null)`,
      `select public.mark_order_delivered('${ORDER_A}', 'x')`,
      `select public.cancel_paid_order('${ORDER_A}', 'x')`,
      `select public.check_promotion_code('PARISH10', 100, 'a@example.com')`,
      `select public.claim_shipment_send('${ORDER_A}', 'starshipit')`,
      `select public.record_shipment_sent('${ORDER_A}', '2', 'x')`,
      `select public.record_shipment_failed('${ORDER_A}', 'refused', 'x')`,
      `select public.record_shipment_label('${ORDER_A}', '33ABC1234567', 'Australia Post', 'x')`,
      `select public.record_shipment_cancelled('${ORDER_A}', 'Taken off Starshipit', 'x')`,
      `select public.record_tracking_event('00000000', repeat('c', 64), 'Delivered', null, null, now(), 'x')`,
      `select count(*) from public.shipments_to_retry(5)`,
      `select public.sync_catalog('${JSON.stringify([{ id: 'book-10-reasons', title: 'Synced', price: 1, category: 'Books', weight: 1, dimensions: { length: 1, width: 1, height: 1 } }])}'::jsonb)`,
      `select public.claim_low_stock_alerts('${ORDER_A}')`,
      `select public.release_low_stock_alert((select id from public.low_stock_alerts limit 1))`,
      `select public.availability_create_mailing('spare-book', 'Back', 'Body', 'x')`,
      `select public.back_in_stock_request('rosary-kit', 'x@example.com')`,
      `select public.back_in_stock_confirm(gen_random_uuid(), now())`,
      `select public.back_in_stock_decline(gen_random_uuid())`,
      `select public.marketing_opt_out('x@example.com', 'reminder')`,
      `select public.sync_low_stock_levels('[{"id": "rosary-kit", "low_stock_level": 3}]')`,
      `select public.sync_customs('[{"id": "rosary-kit", "customs_description": "Rosary kit", "hs_code": "7117.90", "origin_country": "IT"}]')`,
      `select public.begin_part_refund('${ORDER_A}', 1, 'Damaged', 'x')`,
      `select public.settle_part_refund('${PART_REFUND}', 're_forged', null)`,
      `select public.newsletter_claim_batch('${NEWSLETTER}', 10)`,
      `select public.newsletter_batch_sent('${NEWSLETTER}', 1)`,
      `select public.newsletter_unsubscribe(gen_random_uuid())`,
      `select public.newsletter_request('x@example.com', '/blog')`,
      `select public.newsletter_confirm(gen_random_uuid(), 'x', now())`,
      `select public.newsletter_decline(gen_random_uuid())`,
      `select public.sign_up_not_sent('newsletter', gen_random_uuid(), now())`,
      `select public.quote_request_create('{"organisation":"St Z","contact_name":"N","email":"n@example.com","phone":"02","address":{"country":"AU"},"lines":[{"product_id":"rosary-kit","quantity":2}]}')`,
      `select public.quote_request_decline('${QUOTE}', 'x')`,
      `select public.invoice_set_ship_before_payment('${INVOICE}', true, 'x')`,
      `select public.invoice_close(null, 'in_forged', 'void', 'x')`,
      `select public.invoice_mark_paid('in_forged', 100, 'aud', 'x')`,
      `select public.create_order('{"customer_email":"x@example.com","subtotal_amount":1,"shipping_amount":0,"total_amount":1,"shipping_address":{},"shipping_method":{},"payment_provider":"stripe"}', '[{"product_id":"rosary-kit","title":"Kit","quantity":1,"price_at_time":1}]')`,
    ];
    for (const sql of serviceCalls) expect(await outcomes(sql, 'select'), sql).toEqual(expected(['service']));
  });

  it('staff_orders_to_pack() counts the orders to pack for staff, and answers null to everyone else signed in', async () => {
    await db.admin.exec(`update public.orders set payment_status = 'paid', status = 'processing', paid_at = now() where id = '${ORDER_A}'`);
    try {
      const count = async (caller: Caller) => {
        try {
          return (await db.request(CALLERS[caller].role, CALLERS[caller].claims, 'select public.staff_orders_to_pack() as n')).rows[0]?.n;
        } catch (error) {
          if (isPermissionError(error)) return 'denied';
          throw error;
        }
      };
      expect(Object.fromEntries(await Promise.all(CALLER_NAMES.map(async (c) => [c, await count(c)])))).toEqual({
        anon: 'denied',
        shopperA: null,
        shopperB: null,
        staff: 1,
        unconfirmed: null,
        service: 'denied',
      });
    } finally {
      await db.admin.exec(`update public.orders set payment_status = 'unpaid', status = 'pending', paid_at = null where id = '${ORDER_A}'`);
    }
  });

  it('is_staff() is true only for a signed-in user with a confirmed address on the staff list, whatever its case', async () => {
    const isStaff = async (caller: Caller) => (await db.request(CALLERS[caller].role, CALLERS[caller].claims, 'select public.is_staff() as staff')).rows[0]?.staff;
    const results = Object.fromEntries(await Promise.all(CALLER_NAMES.map(async (c) => [c, await isStaff(c)] as const)));
    expect(results).toEqual(expected(['staff']));
  });

  it('an address confirmed later becomes staff then, not before', async () => {
    const { role, claims } = CALLERS.unconfirmed;
    const asHelper = `update auth.users set email_confirmed_at = now() where id = '${UNCONFIRMED_USER}'`;
    await db.admin.exec(asHelper);
    try {
      expect((await db.request(role, claims, 'select public.is_staff() as staff')).rows[0]?.staff).toBe(true);
    } finally {
      await db.admin.exec(`update auth.users set email_confirmed_at = null where id = '${UNCONFIRMED_USER}'`);
    }
  });

  it('staff read an order through admin_get_order, without its status token, and cannot read the token from the table', async () => {
    const { role, claims } = CALLERS.staff;
    const order = (await db.request(role, claims, `select public.admin_get_order('${ORDER_A}') as o`)).rows[0]?.o as Record<string, unknown>;
    expect(order.id).toBe(ORDER_A);
    expect(order).not.toHaveProperty('status_token');
    expect((await db.request(role, claims, 'select status_token from public.orders')).rows).toEqual([]);
  });

  it('shopper B can neither add to nor remove from shopper A’s wishlist by naming A’s id; a new entry defaults to the signed-in user', async () => {
    expect(await attempt('shopperB', `insert into public.wishlists (user_id, product_id) values ('${USER_A}', 'rosary-kit')`)).toBe(false);
    expect(await attempt('shopperB', `delete from public.wishlists where user_id = '${USER_A}'`)).toBe(false);
    const { role, claims } = CALLERS.shopperB;
    const { rows } = await db.request(role, claims, `insert into public.wishlists (product_id) values ('rosary-kit') returning user_id`);
    expect(rows[0]?.user_id).toBe(USER_B);
  });

  it('a book taken off sale is hidden from shoppers but kept', async () => {
    await db.admin.exec(`update public.products set for_sale = false where id = 'rosary-kit'`);
    try {
      expect(await outcomes(`select id from public.products where id = 'rosary-kit'`, 'select')).toEqual(expected(['service']));
    } finally {
      await db.admin.exec(`update public.products set for_sale = true where id = 'rosary-kit'`);
    }
  });

  it('guest orders join the account that signs in with their confirmed address, and no other', async () => {
    const GUEST_ORDER = '00000000-0000-4000-8000-0000000000e1';
    const OTHERS_ORDER = '00000000-0000-4000-8000-0000000000e2';
    await db.admin.exec(`
      insert into public.orders (id, user_id, customer_email, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method) values
        ('${GUEST_ORDER}', null, 'B@Example.com', 22, 15, 37, '{}', '{}'),
        ('${OTHERS_ORDER}', '${USER_A}', 'b@example.com', 22, 15, 37, '{}', '{}'),
        ('00000000-0000-4000-8000-0000000000e3', null, 'helper@example.com', 22, 15, 37, '{}', '{}')`);
    const claim = async (caller: Caller) => (await db.request(CALLERS[caller].role, CALLERS[caller].claims, 'select public.claim_guest_orders() as n', { commit: true })).rows[0]?.n;
    // Nobody confirmed the helper's address: its guest order stays a guest's.
    expect(await claim('unconfirmed')).toBe(0);
    expect(await claim('shopperB')).toBe(1);
    expect(await claim('shopperB')).toBe(0);
    const { rows } = await db.admin.query<{ id: string; user_id: string | null }>(`select id, user_id from public.orders where id::text like '00000000-0000-4000-8000-0000000000e%' order by id`);
    expect(rows.map((r) => r.user_id)).toEqual([USER_B, USER_A, null]);
  });

  it('every security-definer function fixes its search_path', async () => {
    const { rows } = await db.admin.query<{ proname: string }>(`
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`);
    expect(rows).toEqual([]);
  });
});
