-- Orders: checkout writes an order and links its payment page; the payment fulfils it once, under row locks. A
-- sent invoice is an order too (kind 'invoice', _invoicing.sql). Here also each order's number, the one rule for
-- "to pack", promotion codes as checkout and payment read and take them, and the look-ups a checkout page makes.

-- ===============================================================================================================
-- Tables

-- Who bought the order, as the shop names them everywhere (orders.bought_by, so every screen, email, slip and CSV
-- reads the one answer): the payer's name; else, for an order that is not a gift, the delivery name the
-- shopper typed (the placeholder of an order placed without one is no name). Null when unknown.
create function public.order_buyer_name(p_buyer_name text, p_customer_name text, p_is_gift boolean)
returns text
language sql
immutable
as $$
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
create function public.order_to_pack(p_status text, p_payment_status text, p_ship_before_payment boolean)
returns boolean
language sql
immutable
as $$
  select p_status = 'processing' and (p_payment_status = 'paid' or p_ship_before_payment)
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

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: promotion codes
--
-- A use is taken at payment, never held by an unpaid checkout. A hold per email address let one visitor with many
-- addresses (a+1@x, a+2@x …) keep a code from every real buyer with unpaid checkouts, renewed every half hour. Only a
-- payment takes a use: fulfil_order counts the code's paid orders under the code's row lock, and a payment that
-- arrives after the last use went is refunded in full, as one that finds the copies sold out is. However many
-- checkouts are left open, a buyer can apply a code that has uses left and pay with it; the price is that two buyers
-- paying at once for the last use get one order and one refund. A code that has ended (past its end, used up,
-- switched off) answers as a code that never existed.

-- A code's uses: its orders that were paid for (and not cancelled). Unpaid checkouts hold nothing.
create function public.promotion_code_uses(p_code_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer from public.orders o
   where o.promotion_code_id = p_code_id and o.payment_status <> 'unpaid' and o.status <> 'cancelled';
$$;

-- What a code does for goods worth p_subtotal, now: its status and, when it applies, the discount (rounded half up
-- for a percentage; never more than the goods). A code that has not started, has ended or is used up answers as a
-- code that does not exist ('not_valid'): a guesser learns nothing of it. p_shopper no longer changes the answer
-- (no checkout holds a use for anyone); it stays so the callers' signature stands.
create function public.promotion_code_answer(p_code public.promotion_codes, p_subtotal numeric, p_shopper text default null)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_discount numeric;
begin
  if p_code.id is null or not p_code.active
     or (p_code.starts_at is not null and now() < p_code.starts_at)
     or (p_code.ends_at is not null and now() >= p_code.ends_at)
     or (p_code.max_uses is not null and public.promotion_code_uses(p_code.id) >= p_code.max_uses) then
    return jsonb_build_object('status', 'not_valid');
  end if;
  if p_subtotal < p_code.min_subtotal then
    return jsonb_build_object('status', 'spend_more', 'code', p_code.code, 'min_subtotal', p_code.min_subtotal, 'shortfall', p_code.min_subtotal - p_subtotal);
  end if;
  v_discount := case p_code.kind when 'percent' then round(p_subtotal * p_code.amount / 100, 2) else least(p_code.amount, p_subtotal) end;
  return jsonb_build_object('status', 'ok', 'code', p_code.code, 'kind', p_code.kind, 'amount', p_code.amount, 'discount', v_discount);
end;
$$;

-- The shopper's check, through /api/promotion-code (the server prices the cart first). Reveals nothing about
-- other codes, nor a code's limits beyond what the shopper needs to be told.
create function public.check_promotion_code(p_code text, p_subtotal numeric, p_shopper text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_code public.promotion_codes;
begin
  select * into v_code from public.promotion_codes where code = upper(btrim(coalesce(p_code, '')));
  return public.promotion_code_answer(v_code, coalesce(p_subtotal, 0), nullif(btrim(coalesce(p_shopper, '')), ''));
end;
$$;

-- The publisher's codes, newest first, with the uses taken and what they took off paid orders.
create function public.admin_list_codes()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  perform public.require_staff();
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', c.id, 'code', c.code, 'kind', c.kind, 'amount', c.amount, 'min_subtotal', c.min_subtotal, 'starts_at', c.starts_at,
      'ends_at', c.ends_at, 'max_uses', c.max_uses, 'active', c.active, 'created_at', c.created_at, 'created_by', c.created_by,
      'uses', public.promotion_code_uses(c.id),
      'paid_orders', (select count(*) from public.orders o where o.promotion_code_id = c.id and o.payment_status = 'paid'),
      'discount_given', (select coalesce(sum(o.discount_amount), 0) from public.orders o where o.promotion_code_id = c.id and o.payment_status = 'paid')
    ) order by c.created_at desc, c.code), '[]'::jsonb)
    into v_result from public.promotion_codes c;
  return v_result;
end;
$$;

-- Creates a code; answers its id. Its dates are Sydney days, both included: it starts at midnight of starts_on and
-- ends at the midnight after ends_on. The table's checks refuse what does not make sense.
create function public.admin_create_code(p_code jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_id uuid;
begin
  insert into public.promotion_codes (code, kind, amount, min_subtotal, starts_at, ends_at, max_uses, created_by)
  values (
    upper(btrim(p_code ->> 'code')),
    p_code ->> 'kind',
    (p_code ->> 'amount')::numeric,
    coalesce((p_code ->> 'min_subtotal')::numeric, 0),
    (nullif(p_code ->> 'starts_on', ''))::date::timestamp at time zone 'Australia/Sydney',
    ((nullif(p_code ->> 'ends_on', ''))::date + 1)::timestamp at time zone 'Australia/Sydney',
    (nullif(p_code ->> 'max_uses', ''))::integer,
    v_actor
  ) returning id into v_id;
  return v_id;
exception
  when unique_violation then
    raise exception 'There is already a code %.', upper(btrim(p_code ->> 'code')) using errcode = '23505';
  when check_violation then
    raise exception 'Check the code: 3 to 32 capital letters, digits, - or _; a percentage from 1 to 100 or an amount above 0; an end on or after the start.' using errcode = '23514';
end;
$$;

-- Switches a code off (or on again); an order already paid with it keeps its discount.
create function public.admin_set_code_active(p_id uuid, p_active boolean)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.require_staff();
  update public.promotion_codes set active = p_active where id = p_id;
  return found;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: checkout and payment

-- Checkout writes the order (create_order) and links its payment page (link_checkout_session); the payment
-- webhook and verify-payment fulfil it, or cancel it when the page expires unpaid. Each email is claimed by the one
-- caller that sends it, and given back when the send fails, so it is retried and never sent twice.

-- Checkout writes the order and its items together, or neither. Prices arrive already read from public.products
-- by the checkout function; the table constraints check the sums. An order of a cart whose other order's page is
-- still open is refused. A promotion code is checked again under its row lock; the discount must be the one the
-- checkout priced, or the order is refused (its use is taken at payment, by fulfil_order).
create function public.create_order(p_order jsonb, p_items jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order_id uuid;
  v_code public.promotion_codes;
  v_answer jsonb;
  v_discount numeric := 0;
  v_cart text := nullif(btrim(coalesce(p_order ->> 'cart_id', '')), '');
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'an order needs at least one item' using errcode = '22023';
  end if;

  if v_cart is not null then
    -- Two presses of Proceed for one cart are served one after the other; the second finds the first's order.
    perform pg_advisory_xact_lock(hashtextextended('cart:' || v_cart, 0));
    if exists (
      select 1 from public.orders o
       where o.cart_id = v_cart and o.payment_status = 'unpaid' and o.status <> 'cancelled'
         and (o.checkout_expires_at is null or o.checkout_expires_at > now())
    ) then
      raise exception 'cart checkout open' using errcode = 'P0001', hint = 'cart_checkout_open';
    end if;
  end if;

  if nullif(btrim(coalesce(p_order ->> 'promotion_code', '')), '') is not null then
    -- The row lock makes concurrent orders for the same code count each other's uses.
    select * into v_code from public.promotion_codes where code = upper(btrim(p_order ->> 'promotion_code')) for update;
    v_answer := public.promotion_code_answer(v_code, (p_order ->> 'subtotal_amount')::numeric, p_order ->> 'customer_email');
    if v_answer ->> 'status' <> 'ok' then
      raise exception 'promotion code refused: %', v_answer ->> 'status' using errcode = 'P0001', hint = v_answer::text;
    end if;
    v_discount := (v_answer ->> 'discount')::numeric;
    if v_discount <> coalesce((p_order ->> 'discount_amount')::numeric, 0) then
      raise exception 'promotion code refused: changed' using errcode = 'P0001', hint = v_answer::text;
    end if;
  end if;

  insert into public.orders (
    user_id, customer_email, customer_name, subtotal_amount, shipping_amount, total_amount,
    shipping_address, shipping_method, payment_provider, promotion_code_id, promotion_code, discount_amount, checkout_expires_at,
    cart_id, cart_key
  ) values (
    nullif(p_order ->> 'user_id', '')::uuid,
    p_order ->> 'customer_email',
    coalesce(nullif(p_order ->> 'customer_name', ''), 'Guest Customer'),
    (p_order ->> 'subtotal_amount')::numeric,
    (p_order ->> 'shipping_amount')::numeric,
    (p_order ->> 'total_amount')::numeric,
    p_order -> 'shipping_address',
    p_order -> 'shipping_method',
    p_order ->> 'payment_provider',
    v_code.id,
    v_code.code,
    v_discount,
    now() + interval '31 minutes',
    v_cart,
    nullif(p_order ->> 'cart_key', '')
  ) returning id into v_order_id;

  insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
  select v_order_id, item ->> 'product_id', item ->> 'title', (item ->> 'quantity')::integer, (item ->> 'price_at_time')::numeric
  from jsonb_array_elements(p_items) as item;

  return v_order_id;
end;
$$;

-- Links the payment session to its order, with when its page closes and its address. Repeating the same link is a
-- no-op (a retried checkout gets the same session from the provider's idempotency key); a different session for a
-- linked order, or any session for an order no longer unpaid, is refused.
create function public.link_checkout_session(p_order_id uuid, p_session_id text, p_expires_at timestamptz default null, p_url text default null)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with linked as (
    update public.orders
       set checkout_session_id = p_session_id,
           checkout_expires_at = coalesce(p_expires_at, checkout_expires_at),
           checkout_url = coalesce(p_url, checkout_url)
     where id = p_order_id and (checkout_session_id is null or checkout_session_id = p_session_id)
       and payment_status = 'unpaid' and status <> 'cancelled'
     returning 1
  )
  select exists (select 1 from linked);
$$;

-- Fulfilment: the one place stock and pre-order copies are taken, and a limited code's use. Called by the payment
-- webhook and by verify-payment, possibly at the same time; the order row lock makes the second caller see the
-- first one's result. A repeat fulfilment of an order flagged for a refund answers the same reason again, never 'already_fulfilled': a
-- second verify-payment or webhook retry must not tell the shopper the order is paid. Locks are taken in one order
-- (order, cart, code, products), as create_order takes cart then code, so concurrent fulfilments cannot deadlock.
create function public.fulfil_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_code public.promotion_codes;
  v_item record;
  v_short boolean := false;
  v_preorder boolean := false;
  v_kept uuid;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status = 'refund_due' then
    return case when v_order.duplicate_of is not null then 'duplicate' when v_order.code_used_up then 'code_used_up' else 'out_of_stock' end;
  end if;
  if v_order.fulfilled_at is not null then
    return 'already_fulfilled';
  end if;
  if v_order.status = 'cancelled' then
    return 'cancelled';
  end if;

  if v_order.cart_id is not null then
    -- Two payments of one cart arriving together: one keeps its order, the other finds it.
    perform pg_advisory_xact_lock(hashtextextended('cart:' || v_order.cart_id, 0));
    -- An order of the same cart paid after this one was made: this one was open then, so it is the second payment.
    select o.id into v_kept from public.orders o
     where o.cart_id = v_order.cart_id and o.id <> v_order.id and o.fulfilled_at is not null and o.paid_at > v_order.created_at
     order by o.paid_at limit 1;
    if v_kept is not null then
      update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now()), duplicate_of = v_kept
        where id = p_order_id;
      return 'duplicate';
    end if;
  end if;

  if v_order.promotion_code_id is not null then
    -- The code's row lock makes payments for its last use count each other: the first takes it, a later one is refunded.
    select * into v_code from public.promotion_codes where id = v_order.promotion_code_id for update;
    if v_code.max_uses is not null and public.promotion_code_uses(v_code.id) >= v_code.max_uses then
      update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now()), code_used_up = true
        where id = p_order_id;
      return 'code_used_up';
    end if;
  end if;

  -- Lock the products in a fixed order so concurrent fulfilments cannot deadlock.
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;

  -- A title on pre-order is sold from its copies left to pre-order, read under the same lock: two payments for
  -- the last allocated copy count each other as two for the last copy in stock do.
  for v_item in select oi.product_id, oi.quantity, p.stock, public.on_preorder(p.release_date, p.released_at) as on_preorder
      from public.order_items oi join public.products p on p.id = oi.product_id where oi.order_id = p_order_id loop
    if v_item.on_preorder then
      v_preorder := true;
      if public.preorder_left(v_item.product_id) < v_item.quantity then
        v_short := true;
      end if;
    elsif v_item.stock < v_item.quantity then
      v_short := true;
    end if;
  end loop;

  if v_short then
    -- Paid, but the last copies went to another order first: flagged for a refund, stock untouched.
    update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now())
      where id = p_order_id;
    return 'out_of_stock';
  end if;

  -- Stock is taken for the lines in stock; a pre-order line's copy is taken by the order waiting ('preorder'),
  -- and from the first delivery's stock at the release. The whole order waits and ships once.
  update public.products p set stock = p.stock - oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id and not public.on_preorder(p.release_date, p.released_at);
  update public.orders set payment_status = 'paid', status = case when v_preorder then 'preorder' else 'processing' end,
      paid_at = coalesce(paid_at, now()), fulfilled_at = now()
    where id = p_order_id;
  return 'fulfilled';
end;
$$;

-- A session that expired or was cancelled before payment: the order is cancelled, stock untouched.
create function public.cancel_unpaid_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  update public.orders set status = 'cancelled', payment_status = 'expired'
    where id = p_order_id and payment_status = 'unpaid'
    returning status into v_status;
  return case when v_status is null then 'unchanged' else 'cancelled' end;
end;
$$;

-- Marks the confirmation email as sent; true only for the one caller that claims it.
create function public.claim_confirmation_email(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set confirmation_email_sent_at = now()
      where id = p_order_id and fulfilled_at is not null and confirmation_email_sent_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

-- The publisher hears of every paid order, and of a second payment for one cart (refunded).
create function public.claim_publisher_notice(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set publisher_notified_at = now()
      where id = p_order_id and (fulfilled_at is not null or duplicate_of is not null) and publisher_notified_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

-- True only for the caller that records the refund (concurrent webhook and verify-payment: one email).
create function public.record_refund(p_order_id uuid, p_refund_id text)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with recorded as (
    update public.orders set refund_id = p_refund_id, refunded_at = now()
      where id = p_order_id and payment_status = 'refund_due' and refunded_at is null
      returning 1
  )
  select exists (select 1 from recorded);
$$;

-- True only for the one caller that claims the refund email; the claim is given back when the send fails.
create function public.claim_refund_email(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set refund_email_sent_at = now()
      where id = p_order_id and refunded_at is not null and refund_email_sent_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

-- Claims the one reminder of an order left unpaid; answers the order's recovery token to the one caller that
-- claims it, and null to every other: no consent, already sent, paid, the shopper has placed a newer order with
-- the same email since (they came back by themselves), the address unsubscribed from any marketing email, or it
-- was sent a reminder in the last p_once_within_days days (the shop's setting), whichever order that was for.
-- Claims for one address are taken one at a time, so two sessions expiring in the same second send one.
create function public.claim_checkout_reminder(p_order_id uuid, p_once_within_days integer)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_token text;
begin
  if p_once_within_days is null or p_once_within_days < 0 then
    raise exception 'p_once_within_days must be zero or more' using errcode = '22023';
  end if;
  select lower(o.customer_email) into v_email from public.orders o where o.id = p_order_id;
  if v_email is null then
    return null;
  end if;
  if exists (select 1 from public.marketing_opt_outs where email = v_email) then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('checkout_reminder:' || v_email, 0));

  update public.orders o
     set reminder_sent_at = now(),
         recovery_token = coalesce(o.recovery_token, replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
   where o.id = p_order_id
     and o.reminder_consent_at is not null
     and o.reminder_sent_at is null
     and o.payment_status in ('unpaid', 'expired')
     -- They came back by themselves: a newer order with the same email.
     and not exists (
       select 1 from public.orders later
        where lower(later.customer_email) = v_email and later.id <> o.id and later.created_at > o.created_at
     )
     -- They have heard from the shop already.
     and not exists (
       select 1 from public.orders reminded
        where lower(reminded.customer_email) = v_email and reminded.id <> o.id
          and reminded.reminder_sent_at > now() - make_interval(days => p_once_within_days)
     )
  returning o.recovery_token into v_token;
  return v_token;
end;
$$;

-- Gives the signed-in user the guest orders placed with their address, when that address is confirmed;
-- answers how many joined. Orders of another account are never moved.
create function public.claim_guest_orders()
returns integer
language sql
security definer
set search_path = ''
as $$
  with joined as (
    update public.orders o set user_id = u.id
      from auth.users u
      where u.id = (select auth.uid()) and u.email_confirmed_at is not null and u.email is not null
        and o.user_id is null and lower(o.customer_email) = lower(u.email)
      returning 1
  )
  select count(*)::integer from joined;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: an order's lines and its number

-- A card order's line keeps the cart's limit of 99 copies; an invoice's may hold more.
create function public.order_items_cart_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.quantity > 99 and not exists (select 1 from public.orders o where o.id = new.order_id and o.kind = 'invoice') then
    raise exception 'A card order holds at most 99 copies of a book' using errcode = '23514';
  end if;
  return new;
end;
$$;

-- A number once given stays the order's: the platform, the slips and the emails know the order by it.
create function public.keep_order_number()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'Order % keeps its number.', old.number using errcode = '42501';
end;
$$;

-- The order number as it is written everywhere, from the database's number: the digits ("1001"). The TypeScript
-- side writes it with orderNumber() in src/lib/format.ts, the same way.
create function public.order_label(p_number integer)
returns text
language sql
immutable
as $$
  select p_number::text;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: look-ups
--
-- Address and courier look-ups, counted per visitor across every function instance (see lookup_counts).

-- Counts one look-up and answers how many the visitor has made in the current window, this one included: the
-- caller refuses it past its limit. Windows ended more than ten minutes ago are deleted on the way.
create function public.take_lookup(p_visitor text, p_kind text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_used integer;
begin
  if p_visitor is null or p_visitor !~ '^[A-Za-z0-9_-]{16,64}$' then
    raise exception 'take_lookup: the visitor is not a visitor hash' using errcode = '22023';
  end if;
  if p_kind is null or p_kind not in ('places', 'rates') then
    raise exception 'take_lookup: the kind must be places or rates' using errcode = '22023';
  end if;
  insert into public.lookup_counts as c (visitor, kind, window_start, used) values (p_visitor, p_kind, now(), 1)
    on conflict (visitor, kind) do update set
      used = case when c.window_start > now() - interval '1 minute' then c.used + 1 else 1 end,
      window_start = case when c.window_start > now() - interval '1 minute' then c.window_start else now() end
    returning used into v_used;
  delete from public.lookup_counts where window_start < now() - interval '10 minutes';
  return v_used;
end;
$$;

-- ===============================================================================================================
-- Triggers

create trigger orders_touch before update on public.orders for each row execute function public.touch_updated_at();

-- The histories are append-only.
create trigger order_events_append_only before update or delete on public.order_events for each row execute function public.refuse_change();
create trigger order_events_no_truncate before truncate on public.order_events execute function public.refuse_change();

create trigger order_items_cart_limit before insert or update of quantity on public.order_items for each row execute function public.order_items_cart_limit();
create trigger orders_keep_number before update of number on public.orders
  for each row when (new.number is distinct from old.number) execute function public.keep_order_number();

-- ===============================================================================================================
-- Row-level security

alter table public.orders enable row level security;
alter table public.order_items enable row level security;
alter table public.order_notes enable row level security;
alter table public.order_events enable row level security;
alter table public.order_refunds enable row level security;
alter table public.payment_events enable row level security;
alter table public.lookup_counts enable row level security;

-- Orders and their items: owners read; orders are created and changed only by the functions. Staff read orders
-- through admin_list_orders and admin_get_order, which leave out each order's status token (the key to its status
-- page); reading the tables directly would hand them every token.
create policy "own orders: read" on public.orders for select to authenticated using ((select auth.uid()) = user_id);
create policy "own order items: read" on public.order_items for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));
-- Staff read the back-office tables; every other signed-in user reads none of their rows.
create policy "staff: read order history" on public.order_events for select to authenticated using ((select public.is_staff()));
