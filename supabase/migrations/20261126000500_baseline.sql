-- The shop's database: every table, index, function, trigger, policy and grant as it stands at launch.
--
-- Money is numeric(10,2) in AUD everywhere; weights in grams; dimensions in centimetres. Dates the publisher reads
-- (sales by day, promotion code periods) are Sydney days.
--
-- Roles: anon (no sign-in), authenticated (signed in; staff are the signed-in users whose confirmed address is on
-- public.staff_members), service_role (the server functions only; bypasses row-level security). Every table has
-- row-level security; every grant of this file's tables, sequences and functions is written out at its end.
--
-- Sections: default privileges; tables (with their column comments); indexes; functions by area; triggers;
-- row-level security policies; grants. The shop defines no types of its own. Later changes are new migrations.

-- ===============================================================================================================
-- Default privileges
--
-- A Supabase project grants anon, authenticated and service_role everything on every table, sequence and function
-- a migration creates (its default privileges on schema public), and PostgreSQL gives execute on every function to
-- PUBLIC. Those defaults are taken back first (the service role keeps the project's), so whatever this or a later
-- migration creates is closed to anon and authenticated until a grant opens it: any signed-in user could otherwise
-- truncate a table, and only row-level security would stand between a policy mistake and self-made staff. (The
-- PUBLIC execute default can only be taken back in the schema-wide form.)

alter default privileges for role postgres in schema public revoke all on tables from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on sequences from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on functions from anon, authenticated;
alter default privileges for role postgres revoke execute on functions from public;

-- ===============================================================================================================
-- Tables

-- The catalog comes from the book files: `npm run catalog:sync` calls sync_catalog with every book, as the
-- service role. It writes the catalog columns and never stock (stock belongs to the database and the back
-- office). A product whose file is gone stays (orders keep their rows) but is no longer for sale.
create table public.products (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{0,99}$'),
  title text not null check (char_length(title) between 1 and 200),
  description text not null default '' check (char_length(description) <= 5000),
  price numeric(10, 2) not null check (price >= 0),
  image_url text check (image_url is null or char_length(image_url) <= 500),
  category text not null default 'Books' check (char_length(category) between 1 and 100),
  stock integer not null default 0 check (stock >= 0),
  weight numeric(8, 2) not null default 0 check (weight >= 0),
  dimensions jsonb not null default '{"length": 0, "width": 0, "height": 0}' check (jsonb_typeof(dimensions) = 'object'),
  featured boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  for_sale boolean not null default true,
  -- The level under which the publisher is told, set per book in its file (the catalog sync writes it).
  low_stock_level integer not null default 10 check (low_stock_level between 0 and 100000)
);
comment on column public.products.weight is 'grams';
comment on column public.products.dimensions is 'centimetres: {"length", "width", "height"}';
comment on column public.products.for_sale is 'false once its book file is removed from the catalog; hidden from the shop';

-- Copies for a class or a parish: a book's price per copy from a number of copies up, written by the catalog sync
-- from the book file (never by hand). Checkout prices every line from these rows; the shopper's browser only
-- previews them.
create table public.product_quantity_prices (
  product_id text not null references public.products (id) on delete cascade,
  min_quantity integer not null check (min_quantity between 2 and 99),
  price numeric(10, 2) not null check (price > 0),
  primary key (product_id, min_quantity)
);
comment on table public.product_quantity_prices is 'a book''s price per copy from min_quantity copies up; from its book file, by the catalog sync';

-- Promotion codes: the publisher's codes, kept in a table nobody but the server and the staff functions reads. A
-- shopper's code is checked through check_promotion_code (called by /api/promotion-code), which answers only
-- whether it applies to this cart and what it takes off. One code per order, off the goods, never the shipping.
-- A code's uses are taken by paid orders, and held by unpaid ones only while their payment page is open (one per
-- shopper): create_order takes one under the code's row lock, so two shoppers racing for the last use are served
-- one after the other and the second is refused before paying; an order cancelled or a page that closes unpaid
-- gives its use back.
create table public.promotion_codes (
  id uuid primary key default gen_random_uuid(),
  -- Stored as typed in capitals; shoppers' input is trimmed and put in capitals before it is compared.
  code text not null unique check (code ~ '^[A-Z0-9][A-Z0-9_-]{2,31}$'),
  kind text not null check (kind in ('percent', 'amount')),
  -- A whole percentage (1-100) off the goods, or AUD off the goods.
  amount numeric(10, 2) not null check (amount > 0),
  min_subtotal numeric(10, 2) not null default 0 check (min_subtotal >= 0),
  starts_at timestamptz,
  ends_at timestamptz,
  max_uses integer check (max_uses is null or max_uses > 0),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  created_by text not null check (char_length(created_by) between 1 and 254),
  constraint promotion_codes_percent_whole check (kind <> 'percent' or (amount <= 100 and amount = trunc(amount))),
  constraint promotion_codes_period check (starts_at is null or ends_at is null or ends_at > starts_at)
);

create table public.wishlists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null references public.products (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (user_id, product_id)
);

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
  -- shipped is between processing and completed.
  status text not null default 'pending' check (status in ('pending', 'processing', 'shipped', 'completed', 'cancelled')),
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
  -- A gift's buyer may leave their name off the gift slip.
  gift_hide_sender boolean not null default false,
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
  constraint orders_duplicate_is_refunded check (duplicate_of is null or payment_status = 'refund_due')
);
comment on column public.orders.checkout_expires_at is 'when the order''s payment page closes; until then an unpaid order holds its promotion code''s use';
comment on column public.orders.cart_id is 'the browser''s id of the cart the order was made from: one cart, one payment page open';
comment on column public.orders.cart_key is 'SHA-256 of what the order was priced from (lines, address, delivery, code, email, gift): the same key reuses the open page';
comment on column public.orders.checkout_url is 'the payment page''s address, given back while it is open';
comment on column public.orders.replaced_at is 'when a newer checkout of the same cart closed this order''s payment page';
comment on column public.orders.duplicate_of is 'the paid order of the same cart this second payment was refunded for';

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  product_id text not null references public.products (id),
  title text not null check (char_length(title) between 1 and 200),
  quantity integer not null check (quantity > 0 and quantity <= 99),
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
    'note_changed', 'address_changed', 'delivery_undone', 'refunded_part')),
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

-- Stock with its story: every change to a product's stock, append-only (triggers below). The publisher's own
-- changes carry their reason; each sale and each cancellation that put copies back names its order.
create table public.stock_changes (
  id bigint generated always as identity primary key,
  product_id text not null references public.products (id),
  previous_stock integer not null,
  new_stock integer not null check (new_stock >= 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 200),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now(),
  order_id uuid references public.orders (id)
);

-- Crossings of the low-stock level: one open row per product at most (rearmed_at null). A sale that leaves a
-- product below its level opens one unless one is open; stock back at or above the level closes it (re-armed).
create table public.low_stock_alerts (
  id bigint generated always as identity primary key,
  product_id text not null references public.products (id),
  level integer not null,
  stock integer not null,
  order_id uuid references public.orders (id),
  crossed_at timestamptz not null default now(),
  -- Claimed by the one caller that emails the publisher; given back if the email fails.
  emailed_at timestamptz,
  rearmed_at timestamptz
);

-- Staff, by email, so the role can be granted before the person has ever signed in. The role is checked here, in
-- the database, by public.is_staff() and public.require_staff().
create table public.staff_members (
  email text primary key check (email = lower(email) and char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  added_at timestamptz not null default now()
);

-- Contact messages, stored by /api/send-notification with the service role after its bot-check (nobody posts
-- rows straight to /rest/v1); staff mark them handled.
create table public.contact_submissions (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  subject text not null check (char_length(btrim(subject)) between 1 and 200),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  created_at timestamptz not null default now(),
  handled_at timestamptz,
  handled_by text check (handled_by is null or char_length(handled_by) <= 254)
);

-- The newsletter's readers, with confirmed opt-in. A sign-up on the website is only a request: it sends one email
-- with a signed confirmation link (valid 7 days), and only an address confirmed from its own inbox is written to.
-- A pending sign-up holds no consent (consent_at stays null) and is deleted once its link has expired. A pending
-- address asks for at most one more confirmation a day, and an address that unsubscribed stays unsubscribed until
-- it confirms again; a stranger's sign-up of it can only send that one confirmation. A reader's consent is when,
-- and where they agreed. Written by the server functions only (after the bot-check).
create table public.newsletter_subscriptions (
  id uuid primary key default gen_random_uuid(),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  created_at timestamptz not null default now(),
  consent_at timestamptz default now(),
  consent_source text default 'Website sign-up form',
  consent_page text check (consent_page is null or char_length(consent_page) <= 300),
  unsubscribed_at timestamptz,
  confirmation_sent_at timestamptz,
  confirmation_page text check (confirmation_page is null or char_length(confirmation_page) <= 300),
  status text generated always as (
    case when unsubscribed_at is not null then 'unsubscribed' when consent_at is not null then 'confirmed' else 'pending' end
  ) stored,
  constraint newsletter_subscriptions_consent_source_length check (char_length(consent_source) between 1 and 200),
  -- A consent is a time and where it was given, or neither.
  constraint newsletter_subscriptions_consent_whole check ((consent_at is null) = (consent_source is null)),
  -- A row without consent is a sign-up waiting for its confirmation (or an address that unsubscribed).
  constraint newsletter_subscriptions_pending_asked check (consent_at is not null or unsubscribed_at is not null or confirmation_sent_at is not null)
);

-- Newsletters, and availability mailings (a newsletters row with the book's id). A mailing's recipients are drawn
-- when it is written, one delivery row each; the sender claims them a batch at a time and marks each batch sent,
-- so a send that stops half-way is resumed without anyone getting it twice (a batch claimed but never confirmed is
-- sent again with the same idempotency key, which the email provider answers without sending again). An
-- unsubscribed address is never sent to.
create table public.newsletters (
  id uuid primary key default gen_random_uuid(),
  subject text not null check (char_length(btrim(subject)) between 1 and 200 and subject !~ '[[:cntrl:]]'),
  body_markdown text not null check (char_length(btrim(body_markdown)) between 1 and 50000),
  created_by text not null check (char_length(created_by) between 1 and 254),
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  -- An availability mailing: the book that came back.
  product_id text references public.products (id)
);

-- Email me when it's available: one row per address and book (in any letter case), written only by the server
-- function behind the bot-check (service role), and confirmed from the address's inbox as a newsletter sign-up
-- is. A stock change draws the book's confirmed requests into an availability mailing, which the back office
-- sends a batch at a time, as it sends a newsletter; a drawn request is then off the list.
create table public.back_in_stock_requests (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.products (id),
  email text not null check (char_length(email) between 3 and 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  created_at timestamptz not null default now(),
  -- Claimed by the one caller sending its email; a claim left by a caller that died is taken again after 15 minutes.
  claimed_at timestamptz,
  confirmation_sent_at timestamptz,
  confirmed_at timestamptz,
  -- The availability mailing it was drawn into: it is then off the list.
  mailing_id uuid references public.newsletters (id) on delete set null,
  drawn_at timestamptz,
  constraint back_in_stock_requests_pending_asked check (confirmed_at is not null or confirmation_sent_at is not null),
  constraint back_in_stock_requests_drawn_confirmed check (drawn_at is null or confirmed_at is not null)
);

-- A newsletter batch is handed to the email provider under one idempotency key, which the provider honours for
-- 24 hours: a batch whose answer never came is sent again under that key only within the window. Past it (23
-- hours from the batch's first claim, to leave room for a slow call), a second send could reach its readers
-- twice, so the batch's recipients are set aside as 'unknown' (whether it reached them is not known) and never
-- sent again; the back office says how many.
create table public.newsletter_deliveries (
  newsletter_id uuid not null references public.newsletters (id) on delete cascade,
  -- The address as it was when the newsletter was written, lower case: one delivery per address.
  email text not null check (email = lower(email) and char_length(email) <= 254),
  subscription_id uuid references public.newsletter_subscriptions (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'claimed', 'sent', 'skipped', 'unknown')),
  batch integer check (batch is null or batch > 0),
  claimed_at timestamptz,
  sent_at timestamptz,
  first_claimed_at timestamptz,
  back_in_stock_request_id uuid references public.back_in_stock_requests (id) on delete set null,
  primary key (newsletter_id, email),
  constraint newsletter_deliveries_batch_when_claimed check ((status in ('claimed', 'sent', 'unknown')) = (batch is not null)),
  constraint newsletter_deliveries_sent_whole check ((status = 'sent') = (sent_at is not null)),
  constraint newsletter_deliveries_first_claim check ((status in ('claimed', 'sent', 'unknown')) = (first_claimed_at is not null))
);

-- An address that unsubscribed from any marketing email (newsletter, availability, checkout reminder): it is sent
-- no checkout reminder again.
create table public.marketing_opt_outs (
  email text primary key check (email = lower(email) and char_length(email) between 3 and 254),
  opted_out_at timestamptz not null default now(),
  via text not null check (via in ('newsletter', 'availability', 'reminder'))
);

-- ===============================================================================================================
-- Indexes (besides those of the primary keys and unique constraints)

create index orders_user_id_created_at_idx on public.orders (user_id, created_at desc);
create unique index orders_status_token_key on public.orders (status_token);
create index orders_to_pack_idx on public.orders (paid_at) where status = 'processing' and payment_status = 'paid';
create unique index orders_recovery_token_key on public.orders (recovery_token) where recovery_token is not null;
create index orders_promotion_code_id on public.orders (promotion_code_id) where promotion_code_id is not null;
-- Orders looked up by address, as a person types it in any case (checkout reminders, customers).
create index orders_customer_email_lower_idx on public.orders (lower(customer_email));
create index orders_open_by_cart on public.orders (cart_id) where cart_id is not null and payment_status = 'unpaid' and status <> 'cancelled';

create index order_items_order_id_idx on public.order_items (order_id);

create index order_events_order_id_idx on public.order_events (order_id, id);

create index order_refunds_order_id_idx on public.order_refunds (order_id);

create index stock_changes_product_idx on public.stock_changes (product_id, id);
create index stock_changes_order_idx on public.stock_changes (order_id) where order_id is not null;

create unique index low_stock_alerts_open_key on public.low_stock_alerts (product_id) where rearmed_at is null;
create index low_stock_alerts_order_idx on public.low_stock_alerts (order_id);

-- One subscription per address, whatever its case.
create unique index newsletter_subscriptions_email_key on public.newsletter_subscriptions (lower(email));
-- The expiry sweep looks only at pending rows.
create index newsletter_subscriptions_pending_idx on public.newsletter_subscriptions (confirmation_sent_at) where consent_at is null and unsubscribed_at is null;

create unique index back_in_stock_requests_address_key on public.back_in_stock_requests (product_id, lower(email));

create index newsletter_deliveries_batch_idx on public.newsletter_deliveries (newsletter_id, batch);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: shared helpers

-- updated_at follows every change of the row.
create function public.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- Append-only records: nobody may change or remove a row, the service role included.
create function public.refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception '% is append-only', tg_table_name using errcode = '42501';
end;
$$;

-- Amounts as the publisher reads them, e.g. A$12.50.
create function public.aud(p_amount numeric)
returns text
language sql
immutable
set search_path = ''
as $$
  select 'A$' || to_char(p_amount, 'FM999999990.00');
$$;

-- GST: what an Australian delivery pays includes one eleventh of GST; an export is GST-free.
create function public.gst_applies(p_country text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select upper(btrim(coalesce(p_country, ''))) = 'AU';
$$;

-- The GST included in a GST-able amount, to the cent.
create function public.gst_included(p_amount numeric)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select round(coalesce(p_amount, 0) / 11, 2);
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: staff
--
-- The back office's role is checked here, in the database. Staff functions (admin_*) are called from /admin with
-- the staff member's own token and start with require_staff(); the order changes that also email the shopper or
-- refund the payment are run by the server functions (service role) after they have checked the caller with
-- is_staff(), with the staff member's email as the actor.

-- True when the signed-in user's email is on the staff list and confirmed. Reads auth.users (the verified sign-in
-- address), never a claim the browser could shape; a session for an address nobody has proven (email sign-up with
-- confirmation off, say) must not open the back office.
create function public.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users u join public.staff_members s on s.email = lower(u.email)
    where u.id = (select auth.uid()) and u.email_confirmed_at is not null
  );
$$;

-- The staff member's email, for the history; raises 42501 (a permission error: 401/403 through the REST API)
-- unless the caller is staff (as is_staff). The server functions ask it with the caller's own token.
create function public.require_staff()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  select lower(u.email) into v_email from auth.users u join public.staff_members s on s.email = lower(u.email)
  where u.id = (select auth.uid()) and u.email_confirmed_at is not null;
  if v_email is null then
    raise exception 'Only the publisher''s staff can do this.' using errcode = '42501';
  end if;
  return v_email;
end;
$$;

-- How many orders wait to be packed, for the header's Back office link: null for anyone who is not staff, so
-- the header asks without knowing who is staff and shows nothing to a shopper.
create function public.staff_orders_to_pack()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when public.is_staff() then (select count(*)::integer from public.orders where status = 'processing' and payment_status = 'paid') end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the catalog and its stock
--
-- Stock with its story: every change to a product's stock is in its history (the publisher's own with their
-- reason, and each sale and each cancellation that put copies back, linked to its order); deliveries are added
-- (+N) rather than typed as a new total; the publisher is emailed once when a sale takes a title below its
-- low-stock level. The functions that take stock (fulfil_order) and put it back (cancel_paid_order) change the
-- products first and then the order or its history, in one transaction; the triggers write the stock history from
-- what that left, so every path that sells or restocks an order is recorded without each of them having to
-- remember to.

-- Writes every book's catalog columns and its quantity prices (a book without any has none), never its stock; a
-- book missing from the list is taken off sale.
create function public.sync_catalog(p_books jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids text[];
  v_withdrawn text[];
begin
  if jsonb_typeof(p_books) is distinct from 'array' or jsonb_array_length(p_books) = 0 then
    -- An empty list would take every book off sale: refuse it rather than empty the shop.
    raise exception 'sync_catalog needs a non-empty array of books' using errcode = '22023';
  end if;

  insert into public.products as p (id, title, description, price, image_url, category, weight, dimensions, featured, for_sale)
  select b.id, b.title, coalesce(b.description, ''), b.price, b.image_url, b.category, b.weight, b.dimensions, coalesce(b.featured, false), true
  from jsonb_to_recordset(p_books) as b(id text, title text, description text, price numeric, image_url text, category text, weight numeric, dimensions jsonb, featured boolean)
  on conflict (id) do update set
    title = excluded.title,
    description = excluded.description,
    price = excluded.price,
    image_url = excluded.image_url,
    category = excluded.category,
    weight = excluded.weight,
    dimensions = excluded.dimensions,
    featured = excluded.featured,
    for_sale = true;

  select array_agg(b ->> 'id') into v_ids from jsonb_array_elements(p_books) as b;

  delete from public.product_quantity_prices where product_id = any (v_ids);
  insert into public.product_quantity_prices (product_id, min_quantity, price)
  select b ->> 'id', (t ->> 'min_quantity')::integer, (t ->> 'price')::numeric
  from jsonb_array_elements(p_books) as b, jsonb_array_elements(coalesce(b -> 'quantity_prices', '[]'::jsonb)) as t;

  with withdrawn as (
    update public.products set for_sale = false
    where for_sale and not (id = any (v_ids))
    returning id
  )
  select coalesce(array_agg(id order by id), '{}') into v_withdrawn from withdrawn;

  return jsonb_build_object('synced', to_jsonb(v_ids), 'withdrawn', to_jsonb(v_withdrawn));
end;
$$;

-- The catalog sync writes each book's low-stock level beside its other facts (a book file without a level keeps
-- the default).
create function public.sync_low_stock_levels(p_books jsonb)
returns integer
language sql
security definer
set search_path = ''
as $$
  with changed as (
    update public.products p set low_stock_level = b.low_stock_level
    from jsonb_to_recordset(p_books) as b(id text, low_stock_level integer)
    where p.id = b.id and b.low_stock_level is not null and p.low_stock_level is distinct from b.low_stock_level
    returning 1
  )
  select count(*)::integer from changed;
$$;

-- The tiers of one book must make sense together: each larger quantity a lower price, all below the book's own.
create function public.check_quantity_prices(p_product_id text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  v_base numeric;
  v_previous numeric;
  v_tier record;
begin
  select price into v_base from public.products where id = p_product_id;
  if v_base is null then
    return;
  end if;
  for v_tier in select min_quantity, price from public.product_quantity_prices where product_id = p_product_id order by min_quantity loop
    if v_tier.price >= v_base then
      raise exception 'Quantity price for % copies of % (%) must be below its price (%)', v_tier.min_quantity, p_product_id, v_tier.price, v_base using errcode = '23514';
    end if;
    if v_previous is not null and v_tier.price >= v_previous then
      raise exception 'Quantity prices of % must fall as the number of copies rises (% copies at %)', p_product_id, v_tier.min_quantity, v_tier.price using errcode = '23514';
    end if;
    v_previous := v_tier.price;
  end loop;
end;
$$;

-- Checks a book's tiers when they or its price change (constraint triggers, at commit).
create function public.quantity_prices_stay_valid()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'products' then
    perform public.check_quantity_prices(new.id);
  elsif tg_op = 'DELETE' then
    perform public.check_quantity_prices(old.product_id);
  else
    perform public.check_quantity_prices(new.product_id);
  end if;
  return null;
end;
$$;

-- A paid order took its copies: one history row per product, and a crossing where it went below the level.
create function public.record_order_stock()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.fulfilled_at is null and new.fulfilled_at is not null then
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock + q.quantity, p.stock, 'Sold', left(new.customer_email, 254), new.id
    from (select product_id, sum(quantity)::integer as quantity from public.order_items where order_id = new.id group by product_id) q
    join public.products p on p.id = q.product_id
    order by p.id;
    insert into public.low_stock_alerts (product_id, level, stock, order_id)
    select p.id, p.low_stock_level, p.stock, new.id
    from public.products p
    where p.id in (select product_id from public.order_items where order_id = new.id) and p.stock < p.low_stock_level
    order by p.id
    on conflict (product_id) where rearmed_at is null do nothing;
  end if;
  return null;
end;
$$;

-- A paid order cancelled before shipping put its copies back (cancel_paid_order restocks, then appends
-- 'cancelled' to the order's history): one history row per product, by the staff member who cancelled it.
create function public.record_cancelled_stock()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.orders o where o.id = new.order_id and o.status = 'cancelled' and o.fulfilled_at is not null) then
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock - q.quantity, p.stock, 'Order cancelled, copies put back', new.actor, new.order_id
    from (select product_id, sum(quantity)::integer as quantity from public.order_items where order_id = new.order_id group by product_id) q
    join public.products p on p.id = q.product_id
    order by p.id;
  end if;
  return null;
end;
$$;

-- Stock back at or above the level (a delivery, a correction, a cancellation, a new level) re-arms the alert.
create function public.rearm_low_stock()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.low_stock_alerts set rearmed_at = now() where product_id = new.id and rearmed_at is null;
  return null;
end;
$$;

-- The crossings an order's sale opened that nobody has emailed yet, claimed by this caller (service role).
create function public.claim_low_stock_alerts(p_order_id uuid)
returns jsonb
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.low_stock_alerts a set emailed_at = now()
    where a.order_id = p_order_id and a.emailed_at is null
    returning a.id, a.product_id, a.level, a.stock
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'product_id', c.product_id, 'title', p.title, 'level', c.level, 'stock', c.stock) order by c.product_id), '[]'::jsonb)
  from claimed c join public.products p on p.id = c.product_id;
$$;

-- Gives a claim back after the email failed, so the next attempt (a webhook retry) sends it.
create function public.release_low_stock_alert(p_alert_id bigint)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.low_stock_alerts set emailed_at = null where id = p_alert_id;
$$;

-- Sets a product's stock, recording the previous figure, the reason and who.
create function public.admin_set_stock(p_product_id text, p_stock integer, p_reason text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_previous integer;
begin
  if p_stock is null or p_stock < 0 or p_stock > 100000 then
    raise exception 'Stock must be a whole number from 0 to 100000.' using errcode = '22023';
  end if;
  if char_length(btrim(coalesce(p_reason, ''))) not between 1 and 200 then
    raise exception 'Give a reason for the change (up to 200 characters).' using errcode = '22023';
  end if;
  select stock into v_previous from public.products where id = p_product_id for update;
  if not found then
    raise exception 'Product % not found', p_product_id using errcode = 'P0002';
  end if;
  update public.products set stock = p_stock where id = p_product_id;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values (p_product_id, v_previous, p_stock, btrim(p_reason), v_actor);
  return p_stock;
end;
$$;

-- A delivery: adds N copies in one statement, whatever else is selling at the same moment.
create function public.admin_receive_stock(p_product_id text, p_quantity integer, p_reason text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_new integer;
begin
  if p_quantity is null or p_quantity < 1 or p_quantity > 100000 then
    raise exception 'Copies received must be a whole number from 1 to 100000.' using errcode = '22023';
  end if;
  if char_length(btrim(coalesce(p_reason, ''))) not between 1 and 200 then
    raise exception 'Give a reason for the change (up to 200 characters).' using errcode = '22023';
  end if;
  update public.products set stock = stock + p_quantity where id = p_product_id and stock + p_quantity <= 100000 returning stock into v_new;
  if v_new is null then
    if exists (select 1 from public.products where id = p_product_id) then
      raise exception 'Stock can be at most 100000.' using errcode = '22023';
    end if;
    raise exception 'Product % not found', p_product_id using errcode = 'P0002';
  end if;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values (p_product_id, v_new - p_quantity, v_new, btrim(p_reason), v_actor);
  return v_new;
end;
$$;

-- Every product for sale with its stock, its low-stock level and how many confirmed shoppers wait for it.
create function public.admin_list_stock()
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
  select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'title', p.title, 'stock', p.stock, 'low_stock_level', p.low_stock_level,
      'waiting', (select count(*) from public.back_in_stock_requests r where r.product_id = p.id and r.confirmed_at is not null and r.drawn_at is null))
      order by p.title, p.id), '[]'::jsonb)
    into v_result
    from public.products p
    where p.for_sale;
  return v_result;
end;
$$;

-- One product's history, newest first: who, when, from, to, why, and the order of a sale or cancellation.
create function public.admin_stock_history(p_product_id text)
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
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'created_at', c.created_at, 'actor', c.actor, 'previous_stock', c.previous_stock,
      'new_stock', c.new_stock, 'reason', c.reason, 'order_id', c.order_id) order by c.id desc), '[]'::jsonb)
    into v_result
    from (select * from public.stock_changes where product_id = p_product_id order by id desc limit 200) c;
  return v_result;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: promotion codes
--
-- A use is taken by a paid order, or held by an unpaid one only while its payment page is open
-- (orders.checkout_expires_at, as the payment provider answered when the page was made). A shopper (their email, in
-- any case) holds at most one use of a code, however many checkouts they start with it: their unpaid orders count
-- once, which leaves an older order's payment page working (a shopper who goes back to it and pays is not refunded
-- for a cancelled order); the price is that a shopper who pays on two open pages uses the code twice, which only
-- they can do. A payment that still arrives for an order whose hold ended is kept: the code is then used once more
-- than its limit, rather than a paid order refused.

-- A code's uses in two counts: taken by paid orders, and held by unpaid orders whose payment page is open, one per
-- shopper. p_shopper's own hold is left out: their next checkout with the code takes it over.
create function public.promotion_code_use_counts(p_code_id uuid, p_shopper text default null)
returns table (paid integer, held integer)
language sql
stable
set search_path = ''
as $$
  select
    (count(*) filter (where o.payment_status <> 'unpaid'))::integer,
    (count(distinct lower(o.customer_email)) filter (
      where o.payment_status = 'unpaid' and o.checkout_expires_at > now() and lower(o.customer_email) is distinct from lower(btrim(p_shopper))
    ))::integer
  from public.orders o
  where o.promotion_code_id = p_code_id and o.status <> 'cancelled';
$$;

-- How many uses a code has now, as the staff list shows them: paid, and held by open payment pages.
create function public.promotion_code_uses(p_code_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select u.paid + u.held from public.promotion_code_use_counts(p_code_id) u;
$$;

-- What a code does for goods worth p_subtotal, now, for the shopper p_shopper: its status and, when it applies,
-- the discount (in cents, rounded half up for a percentage; never more than the goods). A code that has not started
-- answers as a code that does not exist ('not_valid'): a guesser learns nothing of it, nor its start date. A code
-- whose last uses are held by checkouts in progress answers 'held' (try again shortly), not 'used_up'.
create function public.promotion_code_answer(p_code public.promotion_codes, p_subtotal numeric, p_shopper text default null)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_paid integer;
  v_held integer;
  v_discount numeric;
begin
  -- A code not started yet is not told apart from one that does not exist.
  if p_code.id is null or not p_code.active or (p_code.starts_at is not null and now() < p_code.starts_at) then
    return jsonb_build_object('status', 'not_valid');
  end if;
  if p_code.ends_at is not null and now() >= p_code.ends_at then
    return jsonb_build_object('status', 'expired', 'code', p_code.code);
  end if;
  if p_code.max_uses is not null then
    select u.paid, u.held into v_paid, v_held from public.promotion_code_use_counts(p_code.id, p_shopper) u;
    if v_paid >= p_code.max_uses then
      return jsonb_build_object('status', 'used_up', 'code', p_code.code);
    end if;
    if v_paid + v_held >= p_code.max_uses then
      return jsonb_build_object('status', 'held', 'code', p_code.code);
    end if;
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

-- Switches a code off (or on again); orders that hold a use keep it.
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
--
-- Checkout writes the order (create_order) and links its payment page (link_checkout_session); the payment
-- webhook and verify-payment fulfil it, or cancel it when the page expires unpaid. Each email is claimed by the one
-- caller that sends it, and given back when the send fails, so it is retried and never sent twice.

-- Checkout writes the order and its items together, or neither. Prices arrive already read from public.products
-- by the checkout function; the table constraints check the sums. An order of a cart whose other order's page is
-- still open is refused. A promotion code is checked again under its row lock, judged for the order's own shopper,
-- and its use held by the order until the payment page is linked (31 minutes: as long as a page with a code stays
-- open); the discount must be the one the checkout priced, or the order is refused.
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

-- Fulfilment: the one place stock is taken. Called by the payment webhook and by verify-payment, possibly at
-- the same time; the order row lock makes the second caller see the first one's result. A repeat fulfilment of an
-- order flagged for a refund (paid, but sold out at fulfilment) answers 'out_of_stock' again, never
-- 'already_fulfilled': a second verify-payment or webhook retry must not tell the shopper the order is paid and
-- confirmed when it is not. A second payment for one cart is refunded, never fulfilled: 'duplicate'.
create function public.fulfil_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_item record;
  v_short boolean := false;
  v_kept uuid;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status = 'refund_due' then
    return case when v_order.duplicate_of is not null then 'duplicate' else 'out_of_stock' end;
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

  -- Lock the products in a fixed order so concurrent fulfilments cannot deadlock.
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;

  for v_item in select oi.product_id, oi.quantity, p.stock from public.order_items oi
      join public.products p on p.id = oi.product_id where oi.order_id = p_order_id loop
    if v_item.stock < v_item.quantity then
      v_short := true;
    end if;
  end loop;

  if v_short then
    -- Paid, but the last copies went to another order first: flagged for a refund, stock untouched.
    update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now())
      where id = p_order_id;
    return 'out_of_stock';
  end if;

  update public.products p set stock = p.stock - oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id;
  update public.orders set payment_status = 'paid', status = 'processing', paid_at = coalesce(paid_at, now()), fulfilled_at = now()
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
-- Functions: orders in the back office
--
-- Fixing an order: an internal note the customer never sees, a corrected delivery address until the parcel
-- ships (the old address kept in the order's history), a delivery marked by mistake taken back to shipped. Each
-- change is appended to the order's history with who made it.

-- Orders for one view of the list, searched by order number (its first characters) or email. Unpaid checkout
-- attempts have a view of their own and are in no other. The packer's list: where each parcel goes and whether it
-- is a gift, beside how (Express or Standard), and the buyer beside a gift's recipient.
create function public.admin_list_orders(p_view text, p_search text default '')
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(btrim(coalesce(p_search, '')));
  v_result jsonb;
begin
  perform public.require_staff();
  if p_view not in ('to_pack', 'shipped', 'refunds_due', 'all', 'unpaid') then
    raise exception 'Unknown order view %', p_view using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(row_to_json(o.*)::jsonb order by o.sort_key), '[]'::jsonb) into v_result from (
    select id, created_at, paid_at, customer_email, customer_name, status, payment_status, total_amount, shipping_method ->> 'name' as delivery_method,
      tracking_number, refunded_at,
      (select coalesce(sum(quantity), 0) from public.order_items i where i.order_id = orders.id) as item_count,
      upper(coalesce(shipping_address ->> 'country', '')) as country, is_gift,
      public.order_buyer_name(buyer_name, customer_name, is_gift) as buyer_name,
      case when p_view = 'to_pack' then extract(epoch from coalesce(paid_at, created_at)) else -extract(epoch from created_at) end as sort_key
    from public.orders
    where case p_view
        when 'to_pack' then status = 'processing' and payment_status = 'paid'
        when 'shipped' then status = 'shipped'
        when 'refunds_due' then payment_status = 'refund_due' and refunded_at is null
        when 'unpaid' then payment_status in ('unpaid', 'expired')
        else payment_status in ('paid', 'refund_due') end
      and (v_search = '' or left(id::text, char_length(v_search)) = v_search or position(v_search in lower(customer_email)) > 0)
    order by sort_key
    limit 200
  ) o;
  return v_result;
end;
$$;

-- One order with its items, history and internal note, for the detail view and the packing slip.
create function public.admin_get_order(p_order_id uuid)
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
  select to_jsonb(o.*) - 'status_token' - 'shipping_email_tracking'
      || jsonb_build_object(
        'items', (select coalesce(jsonb_agg(jsonb_build_object('product_id', i.product_id, 'title', i.title, 'quantity', i.quantity, 'price_at_time', i.price_at_time) order by i.title), '[]'::jsonb)
          from public.order_items i where i.order_id = o.id),
        'history', (select coalesce(jsonb_agg(jsonb_build_object('action', e.action, 'detail', e.detail, 'actor', e.actor, 'created_at', e.created_at) order by e.id), '[]'::jsonb)
          from public.order_events e where e.order_id = o.id),
        'internal_note', coalesce((select n.note from public.order_notes n where n.order_id = o.id), ''))
    into v_result
    from public.orders o where o.id = p_order_id;
  if v_result is null then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  return v_result;
end;
$$;

-- Sets the order's internal note (empty clears it).
create function public.admin_set_order_note(p_order_id uuid, p_note text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_note text := btrim(coalesce(p_note, ''));
begin
  if char_length(v_note) > 2000 then
    raise exception 'A note can be up to 2000 characters.' using errcode = '22023';
  end if;
  if not exists (select 1 from public.orders where id = p_order_id) then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if coalesce((select note from public.order_notes where order_id = p_order_id), '') = v_note then
    return false;
  end if;
  if v_note = '' then
    delete from public.order_notes where order_id = p_order_id;
  else
    insert into public.order_notes (order_id, note, updated_by) values (p_order_id, v_note, v_actor)
      on conflict (order_id) do update set note = excluded.note, updated_at = now(), updated_by = excluded.updated_by;
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'note_changed', left(v_note, 500), v_actor);
  return true;
end;
$$;

-- Corrects the delivery address of a paid order that has not shipped. The country stays (it decided the shipping
-- price and the GST); the phone stays unless a new one is given. 'changed', 'unchanged' or 'not_editable'.
create function public.admin_change_address(p_order_id uuid, p_address jsonb)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_order public.orders%rowtype;
  v_field text;
  v_value text;
  v_new jsonb := '{}'::jsonb;
  v_old jsonb;
  v_old_line text;
begin
  if p_address is null or jsonb_typeof(p_address) <> 'object' then
    raise exception 'Give the address as its fields.' using errcode = '22023';
  end if;
  foreach v_field in array array['addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'phone'] loop
    v_value := regexp_replace(btrim(coalesce(p_address ->> v_field, '')), '\s+', ' ', 'g');
    if v_value ~ '[[:cntrl:]]' or char_length(v_value) > 200 then
      raise exception 'Each address line is one line of up to 200 characters.' using errcode = '22023';
    end if;
    v_new := v_new || jsonb_build_object(v_field, v_value);
  end loop;
  if v_new ->> 'addressLine1' = '' or v_new ->> 'city' = '' then
    raise exception 'The address needs its first line and its city or suburb.' using errcode = '22023';
  end if;

  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status <> 'processing' or v_order.shipped_at is not null then
    return 'not_editable';
  end if;
  if v_new ->> 'phone' = '' then
    v_new := v_new - 'phone';
    if coalesce(v_order.shipping_address ->> 'phone', '') <> '' then
      v_new := v_new || jsonb_build_object('phone', v_order.shipping_address ->> 'phone');
    end if;
  end if;
  -- The new address in the checkout's own field names, the country kept.
  v_new := v_new || jsonb_build_object('country', v_order.shipping_address -> 'country');
  v_old := jsonb_build_object(
      'addressLine1', coalesce(v_order.shipping_address ->> 'addressLine1', v_order.shipping_address ->> 'line1', ''),
      'addressLine2', coalesce(v_order.shipping_address ->> 'addressLine2', v_order.shipping_address ->> 'line2', ''),
      'city', coalesce(v_order.shipping_address ->> 'city', ''),
      'state', coalesce(v_order.shipping_address ->> 'state', ''),
      'postalCode', coalesce(v_order.shipping_address ->> 'postalCode', v_order.shipping_address ->> 'postal_code', ''),
      'country', v_order.shipping_address -> 'country')
    || jsonb_strip_nulls(jsonb_build_object('phone', nullif(v_order.shipping_address ->> 'phone', '')));
  if v_new = v_old then
    return 'unchanged';
  end if;
  v_old_line := concat_ws(', ',
    nullif(coalesce(v_order.shipping_address ->> 'addressLine1', v_order.shipping_address ->> 'line1'), ''),
    nullif(coalesce(v_order.shipping_address ->> 'addressLine2', v_order.shipping_address ->> 'line2'), ''),
    nullif(concat_ws(' ', nullif(v_order.shipping_address ->> 'city', ''), nullif(v_order.shipping_address ->> 'state', ''),
      nullif(coalesce(v_order.shipping_address ->> 'postalCode', v_order.shipping_address ->> 'postal_code'), '')), ''),
    nullif(v_order.shipping_address ->> 'country', ''));
  update public.orders set shipping_address = v_new where id = p_order_id;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'address_changed', left('was: ' || v_old_line, 500), v_actor);
  return 'changed';
end;
$$;

-- Takes an order marked as delivered by mistake back to shipped. 'shipped' or 'not_delivered'.
create function public.admin_undo_delivered(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
begin
  update public.orders set status = 'shipped', delivered_at = null where id = p_order_id and status = 'completed' and delivered_at is not null;
  if not found then
    return 'not_delivered';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'delivery_undone', '', v_actor);
  return 'shipped';
end;
$$;

-- Ships a paid order, or corrects its tracking number: 'shipped', 'corrected', 'unchanged' or 'not_shippable'.
create function public.ship_order(p_order_id uuid, p_tracking_number text, p_carrier text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'shipped') then
    return 'not_shippable';
  end if;
  if v_order.status = 'shipped' and v_order.tracking_number = p_tracking_number and v_order.tracking_carrier = p_carrier then
    return 'unchanged';
  end if;
  update public.orders set status = 'shipped', tracking_number = p_tracking_number, tracking_carrier = p_carrier, shipped_at = coalesce(shipped_at, now())
    where id = p_order_id;
  insert into public.order_events (order_id, action, detail, actor)
    values (p_order_id, case when v_order.status = 'shipped' then 'tracking_corrected' else 'shipped' end, p_carrier || ' ' || p_tracking_number, p_actor);
  return case when v_order.status = 'shipped' then 'corrected' else 'shipped' end;
end;
$$;

-- Claims the shipping email for the order's current tracking number: 'first', 'correction', or 'none' when the
-- shopper already has this number. The one caller that claims it sends the email.
create function public.claim_shipping_email(p_order_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_previous text;
  v_tracking text;
begin
  select shipping_email_tracking, tracking_number into v_previous, v_tracking from public.orders
    where id = p_order_id and status = 'shipped' for update;
  if not found or v_tracking is null or v_previous is not distinct from v_tracking then
    return jsonb_build_object('kind', 'none');
  end if;
  update public.orders set shipping_email_tracking = v_tracking where id = p_order_id;
  return jsonb_build_object('kind', case when v_previous is null then 'first' else 'correction' end, 'previous', v_previous);
end;
$$;

-- Gives a claim back after the email failed, so the next attempt sends it.
create function public.release_shipping_email(p_order_id uuid, p_previous text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.orders set shipping_email_tracking = p_previous where id = p_order_id;
$$;

-- Shipped → completed: 'delivered' or 'not_shipped'.
create function public.mark_order_delivered(p_order_id uuid, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.orders set status = 'completed', delivered_at = now() where id = p_order_id and status = 'shipped';
  if not found then
    return 'not_shipped';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'delivered', '', p_actor);
  return 'delivered';
end;
$$;

-- Cancels a paid order that has not shipped: its stock goes back and its payment becomes refund due.
-- 'cancelled' or 'not_cancellable'.
create function public.cancel_paid_order(p_order_id uuid, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status <> 'processing' then
    return 'not_cancellable';
  end if;
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;
  update public.products p set stock = p.stock + oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id;
  update public.orders set status = 'cancelled', payment_status = 'refund_due', cancelled_at = now() where id = p_order_id;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'cancelled', 'stock put back', p_actor);
  return 'cancelled';
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: refunds in part

-- What has been refunded on an order: all of it once it is refunded in full, else its settled part refunds.
-- The one rule the sales figures and the customers' totals use.
create function public.order_refunded_amount(p_order_id uuid, p_total numeric, p_refunded_at timestamptz)
returns numeric
language sql
stable
security definer
set search_path = ''
as $$
  select case when p_refunded_at is not null then p_total
    else (select coalesce(sum(r.amount), 0) from public.order_refunds r where r.order_id = p_order_id and r.status = 'succeeded') end;
$$;

-- Reserves a part refund. Answers { outcome: 'reserved', refund_id, remaining } (remaining once this one is
-- paid back), { outcome: 'too_much', remaining } or { outcome: 'not_refundable' }.
create function public.begin_part_refund(p_order_id uuid, p_amount numeric, p_reason text, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_reason text := regexp_replace(btrim(coalesce(p_reason, '')), '\s+', ' ', 'g');
  v_left numeric;
  v_id uuid;
begin
  if p_amount is null or p_amount <= 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Give an amount in dollars and cents, more than zero.' using errcode = '22023';
  end if;
  if char_length(v_reason) not between 1 and 500 then
    raise exception 'Give a reason for the refund, of up to 500 characters.' using errcode = '22023';
  end if;
  -- Every reservation for this order waits here for the one before it: what is left is read after it committed.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.refunded_at is not null or v_order.checkout_session_id is null then
    return jsonb_build_object('outcome', 'not_refundable');
  end if;
  v_left := v_order.total_amount - (select coalesce(sum(amount), 0) from public.order_refunds where order_id = p_order_id and status in ('pending', 'succeeded'));
  if p_amount > v_left then
    return jsonb_build_object('outcome', 'too_much', 'remaining', v_left);
  end if;
  insert into public.order_refunds (order_id, amount, reason, actor) values (p_order_id, p_amount, v_reason, p_actor) returning id into v_id;
  return jsonb_build_object('outcome', 'reserved', 'refund_id', v_id, 'remaining', v_left - p_amount);
end;
$$;

-- Settles a reserved part refund with the provider's answer (its refund id, or why it failed) and writes it to
-- the order's history. When the parts add up to the whole payment, the order becomes refunded (the customer
-- has had an email for each part, so no full-refund email follows). Answers { outcome: 'succeeded' | 'failed'
-- | 'already', amount, refunded, remaining, fully_refunded }.
create function public.settle_part_refund(p_refund_id uuid, p_provider_refund_id text, p_failure text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_refund public.order_refunds%rowtype;
  v_order public.orders%rowtype;
  v_refunded numeric;
  v_pending integer;
  v_full boolean := false;
begin
  select * into v_refund from public.order_refunds where id = p_refund_id;
  if not found then
    raise exception 'Refund % not found', p_refund_id using errcode = 'P0002';
  end if;
  select * into v_order from public.orders where id = v_refund.order_id for update;
  select * into v_refund from public.order_refunds where id = p_refund_id;
  if v_refund.status <> 'pending' then
    return jsonb_build_object('outcome', 'already', 'amount', v_refund.amount);
  end if;
  if p_failure is null then
    update public.order_refunds set status = 'succeeded', provider_refund_id = p_provider_refund_id, settled_at = now() where id = p_refund_id;
    insert into public.order_events (order_id, action, detail, actor)
      values (v_order.id, 'refunded_part', left(public.aud(v_refund.amount) || ': ' || v_refund.reason || coalesce(' (' || p_provider_refund_id || ')', ''), 500), v_refund.actor);
  else
    update public.order_refunds set status = 'failed', failure = left(p_failure, 500), settled_at = now() where id = p_refund_id;
    insert into public.order_events (order_id, action, detail, actor)
      values (v_order.id, 'refund_failed', left('Part refund of ' || public.aud(v_refund.amount) || ' did not go through: ' || p_failure, 500), v_refund.actor);
  end if;
  select coalesce(sum(amount) filter (where status = 'succeeded'), 0), count(*) filter (where status = 'pending')
    into v_refunded, v_pending from public.order_refunds where order_id = v_order.id;
  if p_failure is null and v_pending = 0 and v_refunded >= v_order.total_amount and v_order.payment_status = 'paid' and v_order.refunded_at is null then
    update public.orders set payment_status = 'refund_due', refunded_at = now(), refund_id = p_provider_refund_id, refund_email_sent_at = now()
      where id = v_order.id;
    insert into public.order_events (order_id, action, detail, actor)
      values (v_order.id, 'refunded', 'Refunded in full, in parts: ' || public.aud(v_refunded), v_refund.actor);
    v_full := true;
  end if;
  return jsonb_build_object('outcome', case when p_failure is null then 'succeeded' else 'failed' end, 'amount', v_refund.amount,
    'refunded', v_refunded, 'remaining', greatest(v_order.total_amount - v_refunded, 0), 'fully_refunded', v_full);
end;
$$;

-- An order's part refunds, what has been refunded and what is left of its payment, for the order's page.
create function public.admin_order_refunds(p_order_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_refunded numeric;
begin
  perform public.require_staff();
  select * into v_order from public.orders where id = p_order_id;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  v_refunded := public.order_refunded_amount(v_order.id, v_order.total_amount, v_order.refunded_at);
  return jsonb_build_object(
    'total', v_order.total_amount,
    'refunded', v_refunded,
    'pending', (select coalesce(sum(amount), 0) from public.order_refunds where order_id = p_order_id and status = 'pending'),
    'remaining', greatest(v_order.total_amount - v_refunded, 0),
    'refundable', v_order.payment_status = 'paid' and v_order.refunded_at is null and v_order.checkout_session_id is not null,
    'parts', (select coalesce(jsonb_agg(jsonb_build_object('amount', r.amount, 'reason', r.reason, 'status', r.status, 'provider_refund_id', r.provider_refund_id,
        'actor', r.actor, 'created_at', r.created_at) order by r.created_at), '[]'::jsonb) from public.order_refunds r where r.order_id = p_order_id));
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: sales, customers and tax
--
-- Every figure is computed here, in one call per view; unpaid checkout attempts are never sales or customers. A
-- sale counts on the day it was paid, Sydney time; a refund counts against its order. The buyer and the recipient
-- are two people: customers and the accountant's sales list are about buyers. One GST rule (gst_applies,
-- gst_included) is shared by the sales figures and every order's tax invoice.

-- The buyer's name as best known: the payer's name; else, for an order that is not a gift, the delivery name the
-- shopper typed (the placeholder of an order placed without one is no name). Null when unknown.
create function public.order_buyer_name(p_buyer_name text, p_customer_name text, p_is_gift boolean)
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_buyer_name, case when not coalesce(p_is_gift, false) and p_customer_name <> 'Guest Customer' then p_customer_name end);
$$;

-- The paid orders of a period (Sydney dates, both ends included), with what was refunded on each (in part or in
-- full) and the buyer's name.
create function public.sales_orders_in(p_from date, p_to date)
returns table (
  id uuid, paid_at timestamptz, paid_on date, customer_email text, customer_name text, user_id uuid, status text, payment_status text,
  subtotal_amount numeric, shipping_amount numeric, total_amount numeric, refunded_amount numeric, refund_id text, refunded_at timestamptz,
  country text, shipping_address jsonb, delivery_method text, discount_amount numeric, promotion_code text, buyer_name text, is_gift boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, o.paid_at, (o.paid_at at time zone 'Australia/Sydney')::date, o.customer_email, o.customer_name, o.user_id, o.status, o.payment_status,
    o.subtotal_amount, o.shipping_amount, o.total_amount,
    public.order_refunded_amount(o.id, o.total_amount, o.refunded_at),
    coalesce(o.refund_id, (select string_agg(r.provider_refund_id, ' ' order by r.created_at) from public.order_refunds r where r.order_id = o.id and r.status = 'succeeded')),
    o.refunded_at, upper(coalesce(o.shipping_address ->> 'country', '')), o.shipping_address, o.shipping_method ->> 'name',
    o.discount_amount, o.promotion_code, public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift), o.is_gift
  from public.orders o
  where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    and (o.paid_at at time zone 'Australia/Sydney')::date between p_from and p_to;
$$;

-- Sales for a period, by day or by month: orders, copies sold per title, goods, shipping, refunds, net, and the
-- GST included (one eleventh of what Australian buyers paid and kept, rounded to the cent; exports are GST-free).
-- Copies sold leave out orders cancelled or refunded in full.
create function public.admin_sales(p_from date, p_to date, p_by text default 'day')
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
  if p_by is null or p_by not in ('day', 'month') then
    raise exception 'Group sales by day or by month.' using errcode = '22023';
  end if;
  if p_from is null or p_to is null or p_from > p_to then
    raise exception 'Choose a period whose start is on or before its end.' using errcode = '22023';
  end if;
  if p_to - p_from > 3660 then
    raise exception 'Choose a period of ten years or less.' using errcode = '22023';
  end if;

  with orders as (
    select o.*, date_trunc(p_by, o.paid_on)::date as bucket, o.total_amount - o.refunded_amount as kept,
      public.gst_applies(o.country) as taxable
    from public.sales_orders_in(p_from, p_to) o
  ),
  lines as (
    select o.bucket, i.product_id, i.title, i.quantity, i.price_at_time
    from orders o join public.order_items i on i.order_id = o.id
    where o.payment_status = 'paid'
  ),
  buckets as (
    select g::date as bucket from generate_series(date_trunc(p_by, p_from), date_trunc(p_by, p_to), ('1 ' || p_by)::interval) g
  ),
  series as (
    select b.bucket,
      (select count(*) from orders o where o.bucket = b.bucket) as orders,
      (select coalesce(sum(l.quantity), 0) from lines l where l.bucket = b.bucket) as copies,
      (select coalesce(sum(o.subtotal_amount), 0) from orders o where o.bucket = b.bucket) as goods,
      (select coalesce(sum(o.discount_amount), 0) from orders o where o.bucket = b.bucket) as discounts,
      (select coalesce(sum(o.shipping_amount), 0) from orders o where o.bucket = b.bucket) as shipping,
      (select coalesce(sum(o.refunded_amount), 0) from orders o where o.bucket = b.bucket) as refunds,
      (select coalesce(sum(o.kept), 0) from orders o where o.bucket = b.bucket) as net,
      (select public.gst_included(sum(o.kept) filter (where o.taxable)) from orders o where o.bucket = b.bucket) as gst
    from buckets b
  )
  select jsonb_build_object(
    'from', p_from, 'to', p_to, 'by', p_by,
    'totals', (select jsonb_build_object(
        'orders', count(*),
        'goods', coalesce(sum(subtotal_amount), 0),
        'discounts', coalesce(sum(discount_amount), 0),
        'shipping', coalesce(sum(shipping_amount), 0),
        'refunds', coalesce(sum(refunded_amount), 0),
        'net', coalesce(sum(kept), 0),
        'taxable_sales', coalesce(sum(kept) filter (where taxable), 0),
        'export_sales', coalesce(sum(kept) filter (where not taxable), 0),
        'gst', public.gst_included(sum(kept) filter (where taxable)),
        'copies', (select coalesce(sum(quantity), 0) from lines))
      from orders),
    'series', (select coalesce(jsonb_agg(jsonb_build_object('period', bucket, 'orders', orders, 'copies', copies, 'goods', goods, 'discounts', discounts,
        'shipping', shipping, 'refunds', refunds, 'net', net, 'gst', gst) order by bucket), '[]'::jsonb) from series),
    'titles', (select coalesce(jsonb_agg(t order by t.copies desc, t.title), '[]'::jsonb) from (
        select product_id, min(title) as title, sum(quantity) as copies, sum(quantity * price_at_time) as goods from lines group by product_id) t)
  ) into v_result;
  return v_result;
end;
$$;

-- The period's orders with their lines, for the CSV the accountant imports: the buyer's name (the contact), and the
-- recipient's as the delivery name.
create function public.admin_sales_orders(p_from date, p_to date)
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
  if p_from is null or p_to is null or p_from > p_to or p_to - p_from > 3660 then
    raise exception 'Choose a period whose start is on or before its end, of ten years or less.' using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', o.id, 'paid_at', o.paid_at, 'paid_on', o.paid_on, 'customer_email', o.customer_email, 'customer_name', o.customer_name,
      'buyer_name', o.buyer_name, 'delivery_name', o.customer_name, 'is_gift', o.is_gift,
      'status', o.status, 'payment_status', o.payment_status, 'subtotal_amount', o.subtotal_amount, 'discount_amount', o.discount_amount,
      'promotion_code', o.promotion_code, 'shipping_amount', o.shipping_amount,
      'total_amount', o.total_amount, 'refunded_amount', o.refunded_amount, 'refund_id', o.refund_id, 'country', o.country,
      'shipping_address', o.shipping_address, 'delivery_method', o.delivery_method,
      'items', (select coalesce(jsonb_agg(jsonb_build_object('product_id', i.product_id, 'title', i.title, 'quantity', i.quantity, 'price_at_time', i.price_at_time) order by i.title), '[]'::jsonb)
        from public.order_items i where i.order_id = o.id)
    ) order by o.paid_at, o.id), '[]'::jsonb)
    into v_result
    from public.sales_orders_in(p_from, p_to) o;
  return v_result;
end;
$$;

-- Customers are the buyers: everyone who has paid for an order, guests and accounts alike, one row per address (its
-- case ignored), named by the payer's latest name (never a gift's recipient) and found by it or by the recipient's,
-- with how many orders, what they spent (less refunds in part or in full) and their last order.
create function public.admin_list_customers(p_search text default '')
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(btrim(coalesce(p_search, '')));
  v_result jsonb;
begin
  perform public.require_staff();
  select coalesce(jsonb_agg(jsonb_build_object('email', c.email, 'name', coalesce(c.name, ''), 'orders', c.orders, 'total_spent', c.total_spent, 'last_order_at', c.last_order_at,
      'has_account', c.linked or exists (select 1 from auth.users u where lower(u.email) = c.email and u.email_confirmed_at is not null))
      order by c.last_order_at desc, c.email), '[]'::jsonb)
    into v_result from (
      select lower(o.customer_email) as email,
        (array_agg(o.buyer order by o.paid_at desc) filter (where o.buyer is not null))[1] as name,
        bool_or(o.user_id is not null) as linked,
        bool_or(position(v_search in lower(coalesce(o.buyer, ''))) > 0 or position(v_search in lower(o.customer_name)) > 0) as name_matches,
        count(*) as orders,
        sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)) as total_spent,
        max(o.paid_at) as last_order_at
      from (select x.*, public.order_buyer_name(x.buyer_name, x.customer_name, x.is_gift) as buyer from public.orders x) o
      where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
      group by lower(o.customer_email)
    ) c
    where v_search = '' or position(v_search in c.email) > 0 or c.name_matches;
  return v_result;
end;
$$;

-- One customer (by address, its case ignored) with each of their paid orders, newest first; null when none.
create function public.admin_get_customer(p_email text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_result jsonb;
begin
  perform public.require_staff();
  select jsonb_build_object(
      'email', v_email,
      'name', coalesce((array_agg(o.buyer order by o.paid_at desc) filter (where o.buyer is not null))[1], ''),
      'has_account', bool_or(o.user_id is not null) or exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null),
      'orders', count(*),
      'total_spent', sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)),
      'last_order_at', max(o.paid_at),
      'order_list', jsonb_agg(jsonb_build_object('id', o.id, 'created_at', o.created_at, 'paid_at', o.paid_at, 'customer_email', o.customer_email,
          'customer_name', o.customer_name, 'buyer_name', o.buyer, 'is_gift', o.is_gift, 'status', o.status, 'payment_status', o.payment_status, 'total_amount', o.total_amount,
          'tracking_number', o.tracking_number, 'refunded_at', o.refunded_at, 'delivery_method', o.shipping_method ->> 'name',
          'item_count', (select coalesce(sum(i.quantity), 0) from public.order_items i where i.order_id = o.id)) order by o.paid_at desc))
    into v_result
    from (select x.*, public.order_buyer_name(x.buyer_name, x.customer_name, x.is_gift) as buyer from public.orders x) o
    where lower(o.customer_email) = v_email and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    having count(*) > 0;
  return v_result;
end;
$$;

-- What an order's tax invoice and adjustment notes need beyond the order: whether GST applies, the GST in the
-- total, and each refund that went through (a part refund, and the rest when refunded in full) with its GST.
create function public.order_tax_figures(p_order_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with o as (
    select o.id, o.total_amount, o.refunded_at, o.refund_id, public.gst_applies(o.shipping_address ->> 'country') as taxable
    from public.orders o where o.id = p_order_id
  ),
  parts as (
    select r.amount, r.settled_at as at, r.provider_refund_id as refund_id, r.reason
    from public.order_refunds r join o on r.order_id = o.id where r.status = 'succeeded'
  ),
  refunds as (
    select amount, at, refund_id, reason from parts
    union all
    select o.total_amount - (select coalesce(sum(p.amount), 0) from parts p), o.refunded_at, o.refund_id, 'Refunded in full'
    from o where o.refunded_at is not null and o.total_amount > (select coalesce(sum(p.amount), 0) from parts p)
  )
  select jsonb_build_object(
    'gst_applies', o.taxable,
    'gst', case when o.taxable then public.gst_included(o.total_amount) else 0 end,
    'refunds', (select coalesce(jsonb_agg(jsonb_build_object('amount', r.amount, 'at', r.at, 'refund_id', r.refund_id, 'reason', r.reason,
        'gst', case when o.taxable then public.gst_included(r.amount) else 0 end) order by r.at), '[]'::jsonb) from refunds r))
  from o;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: mailing lists
--
-- Sign-ups: one function per list answers what to do with a request, under a lock on the address.
--   send: email a confirmation now ({ id, sent_at }); wait: one was sent in the last day, send nothing;
--   subscribed: the address is confirmed already. Back in stock also answers for_sale (the book can be bought now)
--   and unknown (no such book).
-- The link in the confirmation email: confirm, or "this wasn't me". Only the newest confirmation email counts: its
-- link was made (p_issued_at) at or after the request it answers, so a link from before an unsubscribe, or from an
-- earlier email, confirms nothing. Each answers what it did: confirmed | already (confirmed before) | stale (a
-- newer email, or none waiting) | declined | unknown (expired or removed); back in stock also available (the book
-- can be bought now: nothing is queued) and sent (its email has gone).
-- Unsubscribing: the newsletter's link names the subscription; an availability email's and a reminder's name the
-- address. Every one of them is recorded as an opt-out, which the checkout reminder honours.
-- Sending: newsletters go to confirmed readers only; availability mailings to a book's confirmed requests.

-- Sign-ups whose confirmation link has expired (7 days): a pending one is deleted; an unsubscribed address's
-- request is forgotten.
create function public.expire_pending_sign_ups()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.newsletter_subscriptions where consent_at is null and unsubscribed_at is null and confirmation_sent_at < now() - interval '7 days';
  update public.newsletter_subscriptions set confirmation_sent_at = null, confirmation_page = null
    where unsubscribed_at is not null and confirmation_sent_at < now() - interval '7 days';
  delete from public.back_in_stock_requests where confirmed_at is null and confirmation_sent_at < now() - interval '7 days';
$$;

-- A newsletter sign-up from the website, stored by the server function after its bot-check.
create function public.newsletter_request(p_email text, p_page text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := btrim(coalesce(p_email, ''));
  v_row public.newsletter_subscriptions;
begin
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || lower(v_email), 0));
  perform public.expire_pending_sign_ups();
  select * into v_row from public.newsletter_subscriptions where lower(email) = lower(v_email) for update;
  if not found then
    insert into public.newsletter_subscriptions (email, consent_at, consent_source, confirmation_sent_at, confirmation_page)
      values (v_email, null, null, now(), p_page)
      returning * into v_row;
    return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
  end if;
  if v_row.status = 'confirmed' then
    return jsonb_build_object('action', 'subscribed', 'id', v_row.id);
  end if;
  -- One confirmation a day; and none the day a sign-up was answered "this wasn't me".
  if v_row.confirmation_sent_at > now() - interval '1 day' or (v_row.consent_at is null and v_row.unsubscribed_at > now() - interval '1 day') then
    return jsonb_build_object('action', 'wait', 'id', v_row.id);
  end if;
  update public.newsletter_subscriptions set confirmation_sent_at = now(), confirmation_page = p_page where id = v_row.id returning * into v_row;
  return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
end;
$$;

-- An "Email me when it's available" request from the website, stored by the server function after its bot-check.
create function public.back_in_stock_request(p_product_id text, p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := btrim(coalesce(p_email, ''));
  v_product public.products;
  v_row public.back_in_stock_requests;
begin
  select * into v_product from public.products where id = p_product_id;
  if not found then
    return jsonb_build_object('action', 'unknown');
  end if;
  -- Only a book that cannot be bought now has a waiting list.
  if v_product.for_sale and v_product.stock > 0 then
    return jsonb_build_object('action', 'for_sale');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('back_in_stock:' || p_product_id || ':' || lower(v_email), 0));
  perform public.expire_pending_sign_ups();
  select * into v_row from public.back_in_stock_requests where product_id = p_product_id and lower(email) = lower(v_email) for update;
  -- Emailed when the book last came back: a new wait starts from the beginning.
  if found and v_row.drawn_at is not null then
    delete from public.back_in_stock_requests where id = v_row.id;
    found := false;
  end if;
  if not found then
    insert into public.back_in_stock_requests (product_id, email, confirmation_sent_at) values (p_product_id, v_email, now()) returning * into v_row;
    return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
  end if;
  if v_row.confirmed_at is not null then
    return jsonb_build_object('action', 'subscribed', 'id', v_row.id);
  end if;
  if v_row.confirmation_sent_at > now() - interval '1 day' then
    return jsonb_build_object('action', 'wait', 'id', v_row.id);
  end if;
  update public.back_in_stock_requests set confirmation_sent_at = now() where id = v_row.id returning * into v_row;
  return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
end;
$$;

-- The confirmation email could not be sent: the request is taken back, so the next sign-up sends one at once.
create function public.sign_up_not_sent(p_list text, p_id uuid, p_sent_at timestamptz)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_list = 'newsletter' then
    delete from public.newsletter_subscriptions where id = p_id and status = 'pending' and confirmation_sent_at = p_sent_at;
    update public.newsletter_subscriptions set confirmation_sent_at = null, confirmation_page = null where id = p_id and confirmation_sent_at = p_sent_at;
  elsif p_list = 'availability' then
    delete from public.back_in_stock_requests where id = p_id and confirmed_at is null and confirmation_sent_at = p_sent_at;
  else
    raise exception 'Unknown list %', p_list using errcode = '22023';
  end if;
end;
$$;

-- The newsletter's confirmation link.
create function public.newsletter_confirm(p_subscription_id uuid, p_source text, p_issued_at timestamptz)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.newsletter_subscriptions;
begin
  select * into v_row from public.newsletter_subscriptions where id = p_subscription_id for update;
  if not found then
    return 'unknown';
  end if;
  if v_row.status = 'confirmed' then
    return 'already';
  end if;
  if v_row.confirmation_sent_at is null or p_issued_at < date_trunc('second', v_row.confirmation_sent_at) then
    return 'stale';
  end if;
  update public.newsletter_subscriptions
     set consent_at = now(), consent_source = p_source, consent_page = confirmation_page, unsubscribed_at = null,
         confirmation_sent_at = null, confirmation_page = null
   where id = p_subscription_id;
  return 'confirmed';
end;
$$;

-- Someone else typed this address: it becomes (or stays) an unsubscribed address, with no consent, and the
-- request is answered (a sign-up of a never-confirmed address the same day sends nothing more: newsletter_request).
-- A confirmed one (the link was followed after confirming) is unsubscribed too: the reader says they did not ask.
create function public.newsletter_decline(p_subscription_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  update public.newsletter_subscriptions set unsubscribed_at = coalesce(unsubscribed_at, now()), confirmation_sent_at = null, confirmation_page = null
    where id = p_subscription_id
    returning lower(email) into v_email;
  if not found then
    return 'unknown';
  end if;
  insert into public.marketing_opt_outs (email, via) values (v_email, 'newsletter') on conflict do nothing;
  return 'declined';
end;
$$;

-- The availability request's confirmation link.
create function public.back_in_stock_confirm(p_request_id uuid, p_issued_at timestamptz)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.back_in_stock_requests;
begin
  select * into v_row from public.back_in_stock_requests where id = p_request_id for update;
  if not found then
    return 'unknown';
  end if;
  if v_row.drawn_at is not null then
    return 'sent';
  end if;
  if v_row.confirmed_at is not null then
    return 'already';
  end if;
  if p_issued_at < date_trunc('second', v_row.confirmation_sent_at) then
    return 'stale';
  end if;
  -- Back in stock before the link was followed: say so, and queue nothing for a later sell-out.
  if exists (select 1 from public.products p where p.id = v_row.product_id and p.for_sale and p.stock > 0) then
    delete from public.back_in_stock_requests where id = p_request_id;
    return 'available';
  end if;
  update public.back_in_stock_requests set confirmed_at = now() where id = p_request_id;
  return 'confirmed';
end;
$$;

-- Someone else typed this address: the request is removed, unless it was drawn into a mailing already.
create function public.back_in_stock_decline(p_request_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.back_in_stock_requests where id = p_request_id and drawn_at is null;
  return case when found then 'declined' else 'unknown' end;
end;
$$;

-- The newsletter's link names the subscription: 'unsubscribed', 'already' or 'unknown' (removed).
create function public.newsletter_unsubscribe(p_subscription_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  update public.newsletter_subscriptions set unsubscribed_at = now(), confirmation_sent_at = null, confirmation_page = null
    where id = p_subscription_id and unsubscribed_at is null
    returning lower(email) into v_email;
  if found then
    insert into public.marketing_opt_outs (email, via) values (v_email, 'newsletter') on conflict do nothing;
    return 'unsubscribed';
  end if;
  return case when exists (select 1 from public.newsletter_subscriptions where id = p_subscription_id) then 'already' else 'unknown' end;
end;
$$;

-- From an availability email or a checkout reminder: no reminder again, and (from an availability email) off
-- every book's waiting list, including a mailing still being sent. 'unsubscribed' or 'already'.
create function public.marketing_opt_out(p_email text, p_via text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
begin
  if p_via not in ('availability', 'reminder') then
    raise exception 'Unknown list %', p_via using errcode = '22023';
  end if;
  -- Off every list, and out of any availability mailing not yet sent to it (its delivery is then skipped).
  if p_via = 'availability' then
    delete from public.back_in_stock_requests where lower(email) = v_email;
  end if;
  insert into public.marketing_opt_outs (email, via) values (v_email, p_via) on conflict do nothing;
  return case when found then 'unsubscribed' else 'already' end;
end;
$$;

-- Writes a newsletter and draws its recipients: every confirmed reader.
create function public.admin_create_newsletter(p_subject text, p_body text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_subject text := regexp_replace(btrim(coalesce(p_subject, '')), '\s+', ' ', 'g');
  v_body text := btrim(coalesce(p_body, ''));
  v_id uuid;
  v_count integer;
begin
  if char_length(v_subject) not between 1 and 200 then
    raise exception 'Give the newsletter a subject of up to 200 characters.' using errcode = '22023';
  end if;
  if char_length(v_body) not between 1 and 50000 then
    raise exception 'Write the newsletter (up to 50 000 characters).' using errcode = '22023';
  end if;
  insert into public.newsletters (subject, body_markdown, created_by) values (v_subject, v_body, v_actor) returning id into v_id;
  insert into public.newsletter_deliveries (newsletter_id, email, subscription_id)
    select v_id, lower(s.email), s.id from public.newsletter_subscriptions s where s.status = 'confirmed'
    on conflict do nothing;
  get diagnostics v_count = row_count;
  if v_count = 0 then
    raise exception 'There is nobody to send it to: no one is subscribed.' using errcode = '22023';
  end if;
  return jsonb_build_object('id', v_id, 'recipients', v_count);
end;
$$;

-- The book is for sale again: its confirmed, not yet emailed requests are drawn into one mailing, which the back
-- office sends as it sends a newsletter. Null when nobody is waiting (or the book still cannot be bought).
create function public.availability_create_mailing(p_product_id text, p_subject text, p_body text, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_count integer;
begin
  -- One draw at a time per book: two stock changes at once make one mailing.
  perform 1 from public.products where id = p_product_id and for_sale and stock > 0 for update;
  if not found then
    return null;
  end if;
  if not exists (select 1 from public.back_in_stock_requests where product_id = p_product_id and confirmed_at is not null and drawn_at is null) then
    return null;
  end if;
  insert into public.newsletters (subject, body_markdown, created_by, product_id) values (p_subject, p_body, p_actor, p_product_id) returning id into v_id;
  with drawn as (
    update public.back_in_stock_requests set drawn_at = now(), mailing_id = v_id
     where product_id = p_product_id and confirmed_at is not null and drawn_at is null
     returning id, lower(email) as email
  )
  insert into public.newsletter_deliveries (newsletter_id, email, back_in_stock_request_id)
    select v_id, email, id from drawn
    on conflict do nothing;
  get diagnostics v_count = row_count;
  return jsonb_build_object('id', v_id, 'recipients', v_count);
end;
$$;

-- The next batch to send: a batch claimed over two minutes ago and never marked sent (sent again, with the same
-- batch number and so the same idempotency key) while its first claim is under 23 hours old, else up to p_size
-- recipients not yet sent to. A recipient is sent to while their confirmed subscription, or their request, is
-- still there; the others are skipped. Answers { batch, recipients: [{ email, subscription_id, request_id }] },
-- or { batch: null, state: 'busy' } while a batch is still in flight elsewhere, or { batch: null, state: 'done' }.
create function public.newsletter_claim_batch(p_newsletter_id uuid, p_size integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch integer;
begin
  if p_size is null or p_size not between 1 and 100 then
    raise exception 'A batch is 1 to 100 emails.' using errcode = '22023';
  end if;
  -- One claim at a time per newsletter.
  perform 1 from public.newsletters where id = p_newsletter_id for update;
  if not found then
    raise exception 'Newsletter % not found', p_newsletter_id using errcode = 'P0002';
  end if;
  update public.newsletter_deliveries d set status = 'skipped'
    where d.newsletter_id = p_newsletter_id and d.status = 'pending'
      and not exists (select 1 from public.newsletter_subscriptions s where s.id = d.subscription_id and s.status = 'confirmed')
      and not exists (select 1 from public.back_in_stock_requests r where r.id = d.back_in_stock_request_id);
  -- Past the provider's idempotency window a resend could be a second copy: set aside, never sent again.
  update public.newsletter_deliveries set status = 'unknown'
    where newsletter_id = p_newsletter_id and status = 'claimed' and first_claimed_at < now() - interval '23 hours';

  select min(batch) into v_batch from public.newsletter_deliveries
    where newsletter_id = p_newsletter_id and status = 'claimed' and claimed_at < now() - interval '2 minutes';
  if v_batch is not null then
    update public.newsletter_deliveries set claimed_at = now() where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed';
  elsif exists (select 1 from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'pending') then
    select coalesce(max(batch), 0) + 1 into v_batch from public.newsletter_deliveries where newsletter_id = p_newsletter_id;
    update public.newsletter_deliveries set status = 'claimed', batch = v_batch, claimed_at = now(), first_claimed_at = now()
      where newsletter_id = p_newsletter_id and email in (
        select email from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'pending' order by email limit p_size);
  elsif exists (select 1 from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'claimed') then
    return jsonb_build_object('batch', null, 'state', 'busy');
  else
    update public.newsletters set finished_at = coalesce(finished_at, now()) where id = p_newsletter_id;
    return jsonb_build_object('batch', null, 'state', 'done');
  end if;
  return jsonb_build_object('batch', v_batch, 'recipients', (
    select coalesce(jsonb_agg(jsonb_build_object('email', email, 'subscription_id', subscription_id, 'request_id', back_in_stock_request_id) order by email), '[]'::jsonb)
    from public.newsletter_deliveries where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed'));
end;
$$;

-- The provider took the batch: its recipients are sent to. Answers how many are still to send.
create function public.newsletter_batch_sent(p_newsletter_id uuid, p_batch integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_waiting integer;
begin
  update public.newsletter_deliveries set status = 'sent', sent_at = now() where newsletter_id = p_newsletter_id and batch = p_batch and status = 'claimed';
  select count(*) into v_waiting from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status in ('pending', 'claimed');
  if v_waiting = 0 then
    update public.newsletters set finished_at = coalesce(finished_at, now()) where id = p_newsletter_id;
  end if;
  return v_waiting;
end;
$$;

-- The back office's list of newsletters and availability mailings (with their book), with how many were sent,
-- skipped, set aside as unknown and still waiting.
create function public.admin_list_newsletters()
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
  select coalesce(jsonb_agg(jsonb_build_object('id', n.id, 'subject', n.subject, 'created_by', n.created_by, 'created_at', n.created_at,
      'finished_at', n.finished_at, 'product_id', n.product_id, 'recipients', d.recipients, 'sent', d.sent, 'skipped', d.skipped, 'unknown', d.unknown,
      'waiting', d.waiting)
      order by n.created_at desc), '[]'::jsonb)
    into v_result
    from public.newsletters n
    cross join lateral (
      select count(*) as recipients, count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'skipped') as skipped,
        count(*) filter (where status = 'unknown') as unknown, count(*) filter (where status in ('pending', 'claimed')) as waiting
      from public.newsletter_deliveries where newsletter_id = n.id) d;
  return v_result;
end;
$$;

-- Takes a reader off the list (staff).
create function public.admin_remove_subscriber(p_subscriber_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.require_staff();
  delete from public.newsletter_subscriptions where id = p_subscriber_id;
  return found;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: contact messages

-- Marks a contact message handled by this staff member; false when it was handled already.
create function public.admin_mark_message_handled(p_message_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
begin
  update public.contact_submissions set handled_at = now(), handled_by = v_actor where id = p_message_id and handled_at is null;
  return found;
end;
$$;

-- ===============================================================================================================
-- Triggers

create trigger products_touch before update on public.products for each row execute function public.touch_updated_at();
create trigger orders_touch before update on public.orders for each row execute function public.touch_updated_at();

-- The histories are append-only.
create trigger order_events_append_only before update or delete on public.order_events for each row execute function public.refuse_change();
create trigger order_events_no_truncate before truncate on public.order_events execute function public.refuse_change();
create trigger stock_changes_append_only before update or delete on public.stock_changes for each row execute function public.refuse_change();
create trigger stock_changes_no_truncate before truncate on public.stock_changes execute function public.refuse_change();

-- Sales and cancellations in the stock history, and the low-stock alert re-armed.
create trigger orders_record_stock after update of fulfilled_at on public.orders for each row execute function public.record_order_stock();
create trigger order_events_record_cancelled_stock after insert on public.order_events
  for each row when (new.action = 'cancelled') execute function public.record_cancelled_stock();
create trigger products_rearm_low_stock after update of stock, low_stock_level on public.products
  for each row when (new.stock >= new.low_stock_level) execute function public.rearm_low_stock();

-- Checked at commit, so the sync can rewrite a book's price and its tiers in either order.
create constraint trigger quantity_prices_valid after insert or update on public.product_quantity_prices
  deferrable initially deferred for each row execute function public.quantity_prices_stay_valid();
create constraint trigger quantity_prices_valid_for_price after update of price on public.products
  deferrable initially deferred for each row execute function public.quantity_prices_stay_valid();

-- ===============================================================================================================
-- Row-level security: on every table. A table with no policy here is read and written by the service role only
-- (it bypasses row-level security), or through the security-definer functions above.

alter table public.products enable row level security;
alter table public.product_quantity_prices enable row level security;
alter table public.promotion_codes enable row level security;
alter table public.wishlists enable row level security;
alter table public.orders enable row level security;
alter table public.order_items enable row level security;
alter table public.order_notes enable row level security;
alter table public.order_events enable row level security;
alter table public.order_refunds enable row level security;
alter table public.payment_events enable row level security;
alter table public.stock_changes enable row level security;
alter table public.low_stock_alerts enable row level security;
alter table public.staff_members enable row level security;
alter table public.contact_submissions enable row level security;
alter table public.newsletter_subscriptions enable row level security;
alter table public.newsletters enable row level security;
alter table public.back_in_stock_requests enable row level security;
alter table public.newsletter_deliveries enable row level security;
alter table public.marketing_opt_outs enable row level security;

-- The catalog: everyone reads the books for sale and their quantity prices.
create policy "products for sale are public" on public.products for select to anon, authenticated using (for_sale);
create policy "quantity prices of books for sale are public" on public.product_quantity_prices for select to anon, authenticated
  using (exists (select 1 from public.products p where p.id = product_id and p.for_sale));

-- Wishlists: a signed-in user sees, adds and removes only their own entries.
create policy "own wishlist: read" on public.wishlists for select to authenticated using ((select auth.uid()) = user_id);
create policy "own wishlist: add" on public.wishlists for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "own wishlist: remove" on public.wishlists for delete to authenticated using ((select auth.uid()) = user_id);

-- Orders and their items: owners read; orders are created and changed only by the functions. Staff read orders
-- through admin_list_orders and admin_get_order, which leave out each order's status token (the key to its status
-- page); reading the tables directly would hand them every token.
create policy "own orders: read" on public.orders for select to authenticated using ((select auth.uid()) = user_id);
create policy "own order items: read" on public.order_items for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

-- Staff read the back-office tables; every other signed-in user reads none of their rows.
create policy "staff: read order history" on public.order_events for select to authenticated using ((select public.is_staff()));
create policy "staff: read stock changes" on public.stock_changes for select to authenticated using ((select public.is_staff()));
create policy "staff: read messages" on public.contact_submissions for select to authenticated using ((select public.is_staff()));
create policy "staff: read subscribers" on public.newsletter_subscriptions for select to authenticated using ((select public.is_staff()));

-- ===============================================================================================================
-- Grants: nothing by default, then each table, sequence and function to the role that uses it.

revoke all on all tables in schema public from public, anon, authenticated, service_role;
revoke all on all sequences in schema public from public, anon, authenticated, service_role;
revoke all on all functions in schema public from public, anon, authenticated, service_role;
grant usage on schema public to anon, authenticated, service_role;

-- Tables. Row-level security narrows what anon and authenticated read: the books for sale, a shopper's own
-- wishlist and orders, and the staff's messages, subscribers and histories.
grant select on public.products, public.product_quantity_prices to anon, authenticated;
grant select, insert, delete on public.wishlists to authenticated;
grant select on public.orders, public.order_items, public.order_events, public.stock_changes, public.contact_submissions,
  public.newsletter_subscriptions to authenticated;

-- The server functions' role: rows, never truncate; the histories are append-only; the back office's own records
-- (notes, refunds, mailings, opt-outs) are written only through the functions, and the service role reads them.
grant select, insert, update, delete on public.products, public.product_quantity_prices, public.promotion_codes, public.wishlists,
  public.orders, public.order_items, public.payment_events, public.staff_members, public.contact_submissions,
  public.newsletter_subscriptions, public.back_in_stock_requests to service_role;
grant select, insert on public.order_events, public.stock_changes to service_role;
grant select, insert, update on public.low_stock_alerts to service_role;
grant select on public.order_notes, public.order_refunds, public.newsletters, public.newsletter_deliveries, public.marketing_opt_outs
  to service_role;

-- Sequences (the histories' identity columns).
grant usage, select on public.order_events_id_seq, public.stock_changes_id_seq to service_role;
grant usage, select, update on public.low_stock_alerts_id_seq to service_role;

-- Functions. Helpers and triggers are run only by the functions above (security definer, as their owner): no API
-- role runs them.
grant execute on function public.is_staff() to anon, authenticated, service_role;

-- Signed in: the staff functions (each checks require_staff), the header's count, and a shopper's guest orders.
grant execute on function public.require_staff(), public.staff_orders_to_pack(), public.claim_guest_orders(),
  public.admin_set_stock(text, integer, text), public.admin_receive_stock(text, integer, text), public.admin_list_stock(),
  public.admin_stock_history(text), public.admin_list_codes(), public.admin_create_code(jsonb), public.admin_set_code_active(uuid, boolean),
  public.admin_list_orders(text, text), public.admin_get_order(uuid), public.admin_set_order_note(uuid, text),
  public.admin_change_address(uuid, jsonb), public.admin_undo_delivered(uuid), public.admin_order_refunds(uuid),
  public.admin_sales(date, date, text), public.admin_sales_orders(date, date), public.admin_list_customers(text),
  public.admin_get_customer(text), public.admin_create_newsletter(text, text), public.admin_list_newsletters(),
  public.admin_remove_subscriber(uuid), public.admin_mark_message_handled(uuid)
  to authenticated;

-- The server functions.
grant execute on function public.sync_catalog(jsonb), public.sync_low_stock_levels(jsonb), public.claim_low_stock_alerts(uuid),
  public.release_low_stock_alert(bigint), public.check_promotion_code(text, numeric, text), public.create_order(jsonb, jsonb),
  public.link_checkout_session(uuid, text, timestamptz, text), public.fulfil_order(uuid), public.cancel_unpaid_order(uuid),
  public.claim_confirmation_email(uuid), public.claim_publisher_notice(uuid), public.record_refund(uuid, text),
  public.claim_refund_email(uuid), public.claim_checkout_reminder(uuid, integer), public.ship_order(uuid, text, text, text),
  public.claim_shipping_email(uuid), public.release_shipping_email(uuid, text), public.mark_order_delivered(uuid, text),
  public.cancel_paid_order(uuid, text), public.begin_part_refund(uuid, numeric, text, text), public.settle_part_refund(uuid, text, text),
  public.order_tax_figures(uuid), public.newsletter_request(text, text), public.back_in_stock_request(text, text),
  public.sign_up_not_sent(text, uuid, timestamptz), public.newsletter_confirm(uuid, text, timestamptz), public.newsletter_decline(uuid),
  public.back_in_stock_confirm(uuid, timestamptz), public.back_in_stock_decline(uuid), public.newsletter_unsubscribe(uuid),
  public.marketing_opt_out(text, text), public.availability_create_mailing(text, text, text, text),
  public.newsletter_claim_batch(uuid, integer), public.newsletter_batch_sent(uuid, integer)
  to service_role;
