-- Grants: nothing by default, then each table, sequence and function to the role that uses it. Written once, here,
-- for every object the files before this one define, so who may read, write or run what reads in one place. (A
-- migration after this one grants what it creates in the same file: its default privileges already keep it closed
-- to anon and authenticated.)

revoke all on all tables in schema public from public, anon, authenticated, service_role;
revoke all on all sequences in schema public from public, anon, authenticated, service_role;
revoke all on all functions in schema public from public, anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;

-- ===============================================================================================================
-- Tables. Row-level security narrows what anon and authenticated read: the books for sale, a shopper's own
-- wishlist and orders, and the staff's messages, subscribers and histories.

grant select on public.products, public.product_quantity_prices to anon, authenticated;
grant select, insert, delete on public.wishlists to authenticated;
grant select on public.orders, public.order_items, public.order_events, public.stock_changes, public.contact_submissions,
  public.newsletter_subscriptions to authenticated;

-- The server functions' role: rows, never truncate; the histories are append-only; the back office's own records
-- (notes, refunds, mailings, opt-outs), the shipments and the invoices are written only through the functions, and
-- the service role reads them. The look-up counts and the sales summary are the functions' alone.
grant select, insert, update, delete on public.products, public.product_quantity_prices, public.promotion_codes, public.wishlists,
  public.orders, public.order_items, public.payment_events, public.staff_members, public.contact_submissions,
  public.newsletter_subscriptions, public.back_in_stock_requests to service_role;
grant select, insert on public.order_events, public.stock_changes to service_role;
grant select, insert, update on public.low_stock_alerts to service_role;
grant select on public.order_notes, public.order_refunds, public.newsletters, public.newsletter_deliveries, public.marketing_opt_outs,
  public.shipments, public.shipment_tracking_events, public.quote_requests, public.invoices, public.invoice_lines
  to service_role;

-- ===============================================================================================================
-- Sequences (the histories' identity columns).

grant usage, select on public.order_events_id_seq, public.stock_changes_id_seq to service_role;
grant usage, select, update on public.low_stock_alerts_id_seq to service_role;
-- These two keep the project's default grant they were created with (nothing of the service role's writes to them).
grant usage, select, update on public.shipment_tracking_events_id_seq, public.sales_days_stale_id_seq to service_role;

-- ===============================================================================================================
-- Functions. Helpers and triggers are run only by the functions that call them (security definer, as their
-- owner): no API role runs them.

-- Everyone: whether the caller is staff, and the rule for "to pack" (a policy or a query may read both).
grant execute on function public.is_staff(), public.order_to_pack(text, text, boolean) to anon, authenticated, service_role;

-- Signed in: the staff functions (each checks require_staff), the header's count, and a shopper's guest orders.
grant execute on function public.require_staff(), public.staff_orders_to_pack(), public.claim_guest_orders(),
  -- stock and promotion codes
  public.admin_set_stock(text, integer, text), public.admin_receive_stock(text, integer, text), public.admin_list_stock(),
  public.admin_stock_history(text, text, integer), public.admin_list_codes(), public.admin_create_code(jsonb), public.admin_set_code_active(uuid, boolean),
  -- orders, refunds, sales and customers
  public.admin_list_orders(text, text, text, integer), public.admin_get_order(uuid), public.admin_get_orders(uuid[]),
  public.admin_set_order_note(uuid, text), public.admin_change_address(uuid, jsonb), public.admin_undo_delivered(uuid),
  public.admin_order_refunds(uuid), public.admin_sales(date, date, text), public.admin_sales_orders(date, date, text, integer),
  public.admin_list_customers(text, text, integer), public.admin_get_customer(text),
  -- invoices on account
  public.admin_list_invoices(text, text, text, integer), public.admin_get_invoice(uuid), public.admin_list_quotes(text, text, integer),
  -- mailing lists and messages
  public.admin_create_newsletter(text, text), public.admin_list_newsletters(), public.admin_remove_subscriber(uuid),
  public.admin_mark_message_handled(uuid)
  to authenticated;

-- The server functions.
grant execute on function
  -- the catalog sync and stock alerts
  public.sync_catalog(jsonb), public.sync_low_stock_levels(jsonb), public.sync_customs(jsonb), public.claim_low_stock_alerts(uuid),
  public.release_low_stock_alert(bigint),
  -- checkout and payment
  public.check_promotion_code(text, numeric, text), public.create_order(jsonb, jsonb), public.link_checkout_session(uuid, text, timestamptz, text),
  public.fulfil_order(uuid), public.cancel_unpaid_order(uuid), public.claim_confirmation_email(uuid), public.claim_publisher_notice(uuid),
  public.record_refund(uuid, text), public.claim_refund_email(uuid), public.claim_checkout_reminder(uuid, integer), public.take_lookup(text, text),
  -- shipping and the packing bench
  public.ship_order(uuid, text, text, text), public.claim_shipping_email(uuid), public.release_shipping_email(uuid, text),
  public.mark_order_delivered(uuid, text), public.orders_to_pack(integer), public.claim_shipment_send(uuid, text),
  public.record_shipment_sent(uuid, text, text), public.record_shipment_failed(uuid, text, text), public.record_shipment_label(uuid, text, text, text),
  public.record_shipment_cancelled(uuid, text, text), public.record_tracking_event(text, text, text, text, text, timestamptz, text),
  public.shipments_to_retry(integer),
  -- staff actions that email or refund, and the tax invoice
  public.cancel_paid_order(uuid, text), public.begin_part_refund(uuid, numeric, text, text), public.settle_part_refund(uuid, text, text),
  public.order_tax_figures(uuid),
  -- invoices on account
  public.order_on_account(uuid), public.quote_request_create(jsonb), public.quote_request_decline(uuid, text),
  public.invoice_totals(jsonb), public.invoice_save_draft(uuid, uuid, jsonb, text), public.invoice_send(uuid, text, text), public.invoice_provider_step(uuid, text, text, text),
  public.invoice_mark_paid(text, bigint, text, text), public.invoice_close(uuid, text, text, text),
  public.invoice_set_ship_before_payment(uuid, boolean, text), public.invoice_reminded(uuid, text), public.invoice_begin_credit(uuid, numeric, text, text),
  -- mailing lists
  public.newsletter_request(text, text), public.back_in_stock_request(text, text), public.sign_up_not_sent(text, uuid, timestamptz),
  public.newsletter_confirm(uuid, text, timestamptz), public.newsletter_decline(uuid), public.back_in_stock_confirm(uuid, timestamptz),
  public.back_in_stock_decline(uuid), public.newsletter_unsubscribe(uuid), public.marketing_opt_out(text, text),
  public.availability_create_mailing(text, text, text, text), public.newsletter_claim_batch(uuid, integer), public.newsletter_batch_sent(uuid, integer)
  to service_role;

-- Writing an order computes orders.bought_by, so the role that writes orders runs its rule.
grant execute on function public.order_buyer_name(text, text, boolean) to service_role;
