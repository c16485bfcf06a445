/**
 * The RLS matrix's tables: every table of the public schema × caller × operation (tests/helpers/rls-matrix.ts).
 * A new table gets its row here.
 */
import { expect, it } from 'vitest';
import { CALLERS, type Caller, describeMatrix, expected, matrixLabel, ORDER_A, ORDER_C, INVOICE, NEWSLETTER, SHOPPERS_AND_STAFF, type TableRow, USER_A, USER_B } from '../helpers/rls-matrix';

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

describeMatrix('tables', ({ db, attempt, outcomes }) => {
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
});
