-- Orders: checkout writes an order and links its payment page; the payment fulfils it once, under row locks. A
-- sent invoice is an order too (kind 'invoice', _invoicing.sql). Here also each order's number, the one rule for
-- "to pack", promotion codes as checkout and payment read and take them, and the look-ups a checkout page makes.
-- This file holds the tables, the rule for "to pack", an order's row locks, a part refund's checks and reservation,
-- and the indexes; the other functions follow in
-- _orders_promotion_codes.sql, _orders_checkout_payment.sql and _orders_numbers_lookups.sql.

-- ===============================================================================================================
-- Tables

-- Who bought the order, as the shop names them everywhere (orders.bought_by, so every screen, email, slip and CSV
-- reads the one answer): the payer's name; else, for an order that is not a gift, the delivery name the
-- shopper typed (the placeholder of an order placed without one is no name). Null when unknown.
create function public.order_buyer_name(p_buyer_name text, p_customer_name text, p_is_gift boolean) returns text
language sql immutable as $$
  select coalesce(p_buyer_name, case when not coalesce(p_is_gift, false) and p_customer_name <> 'Guest Customer' then p_customer_name end);
$$;

-- Orders. An unpaid checkout attempt (payment_status 'unpaid' or 'expired') is not an order to the publisher. An
-- order paid for but sold out at fulfilment, or cancelled by the publisher after payment, has payment_status
-- 'refund_due'; once refunded in full it also has refund_id (the provider's reference) and refunded_at.
--
-- A gift order carries the buyer's message for the recipient (plain text: up to 200 characters as a person counts
-- them, on at most six lines, no control characters, no bidirectional overrides) and whether the parcel leaves
-- prices out. The delivery name (customer_name) is the recipient's; the buyer's email stays the buyer's, and the
-- name the payer gave the payment page is kept as buyer_name.
--
-- A shopper may agree at checkout to one reminder if they leave the payment page unpaid. The agreement is kept
-- with its time; the reminder is claimed once per order, so a replayed payment event sends none. The claim gives
-- the order a recovery token: the reminder's link brings the order's books back to the cart.
--
-- One cart, one payment: each order carries the browser's cart (cart_id) and what it was priced from (cart_key).
-- Checkout gives back the open payment page of an unpaid order with the same key, and closes (replaced_at) any
-- other open page of the cart before it writes a new order; a second payment that still arrives for one cart is
-- refunded (duplicate_of names the order kept).
create table public.orders (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  user_id uuid references auth.users (id) on delete set null,
  customer_email text not null check (char_length(customer_email) <= 254 and customer_email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  customer_name text not null default 'Guest Customer' check (char_length(customer_name) between 1 and 100),
  -- shipped is between processing and completed. A paid order holding a title not yet released waits as
  -- 'preorder' (never to pack) until the release moves it to 'processing'.
  status text not null default 'pending' check (status in ('pending', 'preorder', 'processing', 'shipped', 'completed', 'cancelled')),
  payment_status text not null default 'unpaid' check (payment_status in ('unpaid', 'paid', 'expired', 'refund_due')),
  currency text not null default 'AUD' check (currency = 'AUD'),
  subtotal_amount numeric(10, 2) not null check (subtotal_amount >= 0),
  shipping_amount numeric(10, 2) not null check (shipping_amount >= 0),
  total_amount numeric(10, 2) not null check (total_amount >= 0),
  shipping_address jsonb not null check (jsonb_typeof(shipping_address) = 'object'),
  shipping_method jsonb not null check (jsonb_typeof(shipping_method) = 'object'),
  payment_provider text not null default 'stripe' check (payment_provider in ('stripe', 'local-test')),
  checkout_session_id text unique,
  paid_at timestamptz,
  fulfilled_at timestamptz,
  confirmation_email_sent_at timestamptz,
  -- The payment provider's refund of the whole order and when it was made; set once, and the one caller that
  -- sets them emails the shopper.
  refund_id text,
  refunded_at timestamptz,
  refund_email_sent_at timestamptz,
  -- 244 random bits, hex: the only key to an order's status page, so it is never the order id.
  status_token text not null default (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
    check (status_token ~ '^[0-9a-f]{64}$'),
  tracking_number text check (tracking_number is null or char_length(tracking_number) between 3 and 64),
  tracking_carrier text check (tracking_carrier is null or char_length(tracking_carrier) between 2 and 60),
  shipped_at timestamptz,
  -- The tracking number the shopper was last emailed: one email per number, a correction when it changes.
  shipping_email_tracking text,
  delivered_at timestamptz,
  cancelled_at timestamptz,
  -- When the publisher was told of the paid order (once).
  publisher_notified_at timestamptz,
  is_gift boolean not null default false,
  gift_message text,
  gift_hide_prices boolean not null default false,
  reminder_consent_at timestamptz,
  reminder_sent_at timestamptz,
  recovery_token text,
  promotion_code_id uuid references public.promotion_codes (id),
  promotion_code text check (promotion_code is null or char_length(promotion_code) between 3 and 32),
  discount_amount numeric(10, 2) not null default 0 check (discount_amount >= 0),
  checkout_expires_at timestamptz,
  cart_id text,
  cart_key text,
  checkout_url text,
  replaced_at timestamptz,
  duplicate_of uuid references public.orders (id),
  buyer_name text check (buyer_name is null or (char_length(buyer_name) between 1 and 100 and buyer_name !~ '[[:cntrl:]]')),
  -- Stored, since the rule is immutable; a change to the rule recomputes it.
  bought_by text generated always as (public.order_buyer_name(buyer_name, customer_name, is_gift)) stored,
  -- A gift's buyer may leave their name off the gift slip.
  gift_hide_sender boolean not null default false,
  -- The latest tracking event the platform reported, shown to the shopper on the status page and in their profile.
  tracking_status text check (tracking_status is null or char_length(tracking_status) between 1 and 60),
  tracking_status_at timestamptz,
  -- A card checkout's order, or a sent invoice's (with whom it is for and their PO number). An invoice's order may
  -- be packed before it is paid.
  kind text not null default 'checkout' check (kind in ('checkout', 'invoice')),
  organisation text check (organisation is null or char_length(btrim(organisation)) between 1 and 200),
  po_number text check (po_number is null or char_length(btrim(po_number)) between 1 and 60),
  ship_before_payment boolean not null default false,
  -- The order's own number, 1001, 1002 …, never used again (see the column's comment).
  number integer generated always as identity (start with 1001) unique,
  -- Whether a paid order was refunded because its code's last use went to another payment first.
  code_used_up boolean not null default false,
  -- A pre-order's emails, each claimed once: its titles are out and it is being packed; and the release date it
  -- was last told of when the publisher moved the date (one email per new date).
  preorder_ready_email_sent_at timestamptz,
  preorder_date_emailed date,
  constraint orders_total_adds_up check (total_amount = subtotal_amount - discount_amount + shipping_amount),
  -- A paid order the publisher cancels keeps its fulfilled_at while its refund is due.
  constraint orders_fulfilled_only_when_paid check (fulfilled_at is null or payment_status in ('paid', 'refund_due')),
  constraint orders_refunded_only_when_refund_due check (refunded_at is null or payment_status = 'refund_due'),
  constraint orders_refund_recorded_whole check ((refund_id is null) = (refunded_at is null)),
  constraint orders_refund_id_length check (refund_id is null or char_length(refund_id) between 1 and 255),
  constraint orders_refund_email_after_refund check (refund_email_sent_at is null or refunded_at is not null),
  constraint orders_shipped_with_tracking check (status not in ('shipped', 'completed') or shipped_at is null or tracking_number is not null),
  -- A gift message is up to 200 characters as a person counts them: a family emoji, a flag or an accented letter
  -- typed as two code points is one character. The functions check that count (giftMessageProblem, with the
  -- browser's and Node's grapheme segmenter); a character can be several code points, which is all the table can
  -- count, so its own bound allows ten to a character and still keeps a message short enough to print.
  constraint orders_gift_message_plain check (
    gift_message is null or (
      char_length(gift_message) between 1 and 2000
      and gift_message = btrim(gift_message)
      and array_length(string_to_array(gift_message, E'\n'), 1) <= 6
      and gift_message !~ '[\u0001-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
    )
  ),
  constraint orders_gift_details_need_gift check (is_gift or (gift_message is null and not gift_hide_prices)),
  constraint orders_reminder_needs_consent check (reminder_sent_at is null or reminder_consent_at is not null),
  constraint orders_recovery_token_format check (recovery_token is null or recovery_token ~ '^[0-9a-f]{64}$'),
  constraint orders_discount_with_code check ((promotion_code_id is null) = (promotion_code is null) and (promotion_code is not null or discount_amount = 0)),
  constraint orders_discount_within_goods check (discount_amount <= subtotal_amount),
  constraint orders_cart_id_shape check (cart_id is null or cart_id ~ '^[A-Za-z0-9_-]{8,100}$'),
  constraint orders_cart_key_shape check (cart_key is null or cart_key ~ '^[0-9a-f]{64}$'),
  constraint orders_checkout_url_length check (checkout_url is null or char_length(checkout_url) between 1 and 2000),
  constraint orders_duplicate_is_refunded check (duplicate_of is null or payment_status = 'refund_due'),
  constraint orders_on_account_only_invoices check (kind = 'invoice' or (organisation is null and po_number is null and not ship_before_payment)),
  constraint orders_invoice_names_organisation check (kind = 'checkout' or organisation is not null)
);
comment on column public.orders.checkout_expires_at is 'when the order''s payment page closes; until then the cart has its one open payment page';
comment on column public.orders.cart_id is 'the browser''s id of the cart the order was made from: one cart, one payment page open';
comment on column public.orders.cart_key is 'SHA-256 of what the order was priced from (lines, address, delivery, code, email, gift): the same key reuses the open page';
comment on column public.orders.checkout_url is 'the payment page''s address, given back while it is open';
comment on column public.orders.replaced_at is 'when a newer checkout of the same cart closed this order''s payment page';
comment on column public.orders.duplicate_of is 'the paid order of the same cart this second payment was refunded for';
comment on column public.orders.tracking_status is 'the latest tracking event from the shipping platform, in words (e.g. In transit)';
comment on column public.orders.tracking_status_at is 'when the carrier reported that event';
comment on column public.orders.number is 'the order''s number as buyers, the publisher and the shipping platform read it (1001, 1002 …), from public.order_label';
comment on column public.orders.code_used_up is 'paid, but its promotion code''s last use went to another payment first: refunded in full';

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  product_id text not null references public.products (id),
  title text not null check (char_length(title) between 1 and 200),
  -- A class set or a parish's order is more than a cart's 99 copies of a book: the cart's limit stays for card
  -- orders (order_items_cart_limit), an invoice's line may hold up to 5000.
  quantity integer not null check (quantity between 1 and 5000),
  price_at_time numeric(10, 2) not null check (price_at_time >= 0),
  unique (order_id, product_id)
);

-- The order's internal note lives apart from the order: a shopper reads their own order's row, never this one.
-- Only the staff functions reach it.
create table public.order_notes (
  order_id uuid primary key references public.orders (id) on delete cascade,
  note text not null check (char_length(note) between 1 and 2000),
  updated_at timestamptz not null default now(),
  updated_by text not null check (char_length(updated_by) between 1 and 254)
);

-- An order's history: every staff action on it (and the emails they sent), who and when. Append-only (triggers
-- below): nobody may change or remove a row, the service role included.
create table public.order_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id),
  action text not null check (action in (
    'shipped', 'tracking_corrected', 'shipping_emailed', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'confirmation_resent',
    'note_changed', 'address_changed', 'delivery_undone', 'refunded_part',
    'shipment_sent', 'shipment_failed', 'label_printed', 'tracking_update',
    'invoice_sent', 'invoice_emailed', 'invoice_reminded', 'invoice_paid', 'invoice_voided', 'invoice_uncollectible', 'ship_before_payment',
    'preorder_released')),
  detail text not null default '' check (char_length(detail) <= 500),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now()
);

-- Refunding part of an order: an amount and a reason, never more than what is left of its payment. A part
-- refund is reserved under the order's row lock before the payment provider is asked (two staff pressing at
-- once cannot refund more than was paid), then settled with the provider's answer. Each one is written to the
-- order's history; the sales figures and the customers' totals count what was refunded. An order refunded in
-- full by its parts ends as a refunded order (payment_status 'refund_due' with refunded_at set).
create table public.order_refunds (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  amount numeric(10, 2) not null check (amount > 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 500),
  -- pending: reserved, the provider not yet answered; it counts against what is left until it is settled.
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  provider_refund_id text check (provider_refund_id is null or char_length(provider_refund_id) between 1 and 255),
  failure text check (failure is null or char_length(failure) <= 500),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  constraint order_refunds_settled_whole check ((status = 'pending') = (settled_at is null))
);

-- Payment provider events already handled, so a replayed webhook does nothing twice.
create table public.payment_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);

-- Address and courier look-ups, counted per visitor across every function instance. A visitor is the hash of the
-- cookie its look-up session is bound to (never the cookie itself); each kind has one window of a minute, which
-- starts at the first look-up after the last window ended. Only `take_lookup` reads or writes the rows.
create table public.lookup_counts (
  visitor text not null check (visitor ~ '^[A-Za-z0-9_-]{16,64}$'),
  kind text not null check (kind in ('places', 'rates')),
  window_start timestamptz not null default now(),
  used integer not null default 1 check (used >= 1),
  primary key (visitor, kind)
);

-- ===============================================================================================================
-- "To pack", one rule written once: the order lists, the badge's count, the index below, the label run
-- (orders_to_pack), the send to the shipping platform, shipping and the tracking events all read it, so an invoice's
-- order packed before payment is to pack everywhere a paid order is, and reaches the platform the same way.

-- To pack: not yet shipped, and paid, or an invoice's order the publisher packs before payment. Plain SQL and
-- immutable, so the planner inlines it in every query and in the index's condition alike.
create function public.order_to_pack(p_status text, p_payment_status text, p_ship_before_payment boolean) returns boolean
language sql immutable as $$
  select p_status = 'processing' and (p_payment_status = 'paid' or p_ship_before_payment)
$$;

-- ===============================================================================================================
-- An order's row lock, as the functions that change an order by its id take it: the locked row, or the one error for
-- an order that does not exist. Called only from inside the database.
create function public.lock_order(p_order_id uuid) returns public.orders
language plpgsql security definer set search_path = '' as $$
declare
  v_order public.orders%rowtype;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  return v_order;
end;
$$;

-- An order's books locked in one order (by id), as payment, a cancellation and an invoice's payment or closing take
-- them, so two of these at once cannot deadlock.
create function public.lock_order_books(p_order_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;
end;
$$;

-- A part refund (begin_part_refund) or an invoice's credit note (invoice_begin_credit), checked the same way: an
-- amount in dollars and cents, more than zero, and a reason of up to p_max characters, its spaces made one. Answers
-- the reason as it is kept.
create function public.part_refund_reason(p_amount numeric, p_reason text, p_max integer, p_what text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  v_reason text := regexp_replace(btrim(coalesce(p_reason, '')), '\s+', ' ', 'g');
begin
  if p_amount is null or p_amount <= 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Give an amount in dollars and cents, more than zero.' using errcode = '22023';
  end if;
  if char_length(v_reason) not between 1 and p_max then
    raise exception 'Give a reason for the %, of up to % characters.', p_what, p_max using errcode = '22023';
  end if;
  return v_reason;
end;
$$;

-- Reserves a part refund of an order its caller has locked, so every reservation waits for the one before it and
-- what is left is read after it committed: the payment less the refunds reserved or paid. Answers { outcome:
-- 'reserved', refund_id, remaining } (remaining once this one is paid back) or { outcome: 'too_much', remaining }.
create function public.reserve_part_refund(p_order_id uuid, p_total numeric, p_amount numeric, p_reason text, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_left numeric := p_total - (select coalesce(sum(amount), 0) from public.order_refunds where order_id = p_order_id and status in ('pending', 'succeeded'));
  v_id uuid;
begin
  if p_amount > v_left then
    return jsonb_build_object('outcome', 'too_much', 'remaining', v_left);
  end if;
  insert into public.order_refunds (order_id, amount, reason, actor) values (p_order_id, p_amount, p_reason, p_actor) returning id into v_id;
  return jsonb_build_object('outcome', 'reserved', 'refund_id', v_id, 'remaining', v_left - p_amount);
end;
$$;

-- ===============================================================================================================
-- Indexes

create index orders_user_id_created_at_idx on public.orders (user_id, created_at desc);
create unique index orders_status_token_key on public.orders (status_token);
create unique index orders_recovery_token_key on public.orders (recovery_token) where recovery_token is not null;
create index orders_promotion_code_id on public.orders (promotion_code_id) where promotion_code_id is not null;
-- Orders looked up by address, as a person types it in any case (checkout reminders, customers).
create index orders_customer_email_lower_idx on public.orders (lower(customer_email));
create index orders_open_by_cart on public.orders (cart_id) where cart_id is not null and payment_status = 'unpaid' and status <> 'cancelled';
create index order_items_order_id_idx on public.order_items (order_id);
create index order_events_order_id_idx on public.order_events (order_id, id);
create index order_refunds_order_id_idx on public.order_refunds (order_id);
create index orders_shipped_idx on public.orders (created_at desc, id desc) where status = 'shipped';
create index orders_refunds_due_idx on public.orders (created_at desc, id desc) where payment_status = 'refund_due' and refunded_at is null;
create index orders_unpaid_idx on public.orders (created_at desc, id desc) where payment_status in ('unpaid', 'expired');
create index orders_sold_idx on public.orders (created_at desc, id desc) where payment_status in ('paid', 'refund_due');
-- Sales by the time paid, and the customers walked newest first.
create index orders_sold_paid_at_idx on public.orders (paid_at, id) where payment_status in ('paid', 'refund_due') and paid_at is not null;
create index orders_customer_sold_idx on public.orders (lower(customer_email), paid_at desc) where payment_status in ('paid', 'refund_due') and paid_at is not null;
-- Searches for part of an address or a name.
create index orders_email_trgm_idx on public.orders using gin (lower(customer_email) extensions.gin_trgm_ops);
create index orders_names_trgm_idx on public.orders using gin (lower(customer_name) extensions.gin_trgm_ops, lower(coalesce(buyer_name, '')) extensions.gin_trgm_ops);
create index lookup_counts_window_start on public.lookup_counts (window_start);
-- The To pack list, in its order, on the rule's own condition.
create index orders_to_pack_idx on public.orders ((coalesce(paid_at, created_at)), id)
  where public.order_to_pack(status, payment_status, ship_before_payment);
