-- The back office: what the staff read and change from /admin, and the figures they read, at 100,000 orders. Every
-- list is read a page at a time along an index in its own order (keyset paging: the next page starts after the last
-- row shown), searches use indexes, the sales figures are worked out in one pass over the period, and the small rules
-- the lists share (what was refunded, the buyer's name, GST) are plain SQL the planner folds into the query instead
-- of a call per order. The staff functions check the caller with require_staff (_foundation.sql).
-- This file holds the sales tables, the shared rules and the header's count; the rest follows in
-- _back_office_orders.sql, _back_office_refunds_customers.sql and _back_office_sales.sql.

-- ===============================================================================================================
-- Tables

-- Sales from a summary per Sydney day. Each day's figures (and its books) are summed once from sales_orders_in,
-- the one place for what a sale, a refund and GST are, and kept; any change to an order, its books or its refunds
-- marks its paid day stale (a row in sales_days_stale, nothing more in the way of a payment), and the next look at
-- a period sums its stale days again first. A period's figures are then at most a few thousand day rows whatever
-- the number of orders.
create table public.sales_days (
  day date primary key,
  orders integer not null,
  goods numeric not null,
  discounts numeric not null,
  shipping numeric not null,
  refunds numeric not null,
  net numeric not null,
  -- Null when the day sold nothing to Australia (or abroad), as a sum of nothing is.
  taxable_sales numeric,
  export_sales numeric,
  copies bigint not null
);

create table public.sales_day_titles (
  day date not null references public.sales_days (day) on delete cascade,
  product_id text not null,
  title text not null,
  copies bigint not null,
  goods numeric not null,
  primary key (day, product_id)
);

-- A row per change, never unique: two payments at once never wait on each other's mark.
create table public.sales_days_stale (id bigint generated always as identity primary key, day date not null);

-- ===============================================================================================================
-- Indexes

create index sales_days_stale_day_idx on public.sales_days_stale (day);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the shared rules
--
-- The rules the lists and figures share, as SQL the planner inlines: neither security definer nor a SET clause
-- (either stops inlining). They name every object with its schema, and only the security-definer functions below
-- call them.

-- What has been refunded on an order, given its settled part refunds: all of it once refunded in full.
create function public.refunded_amount(p_total numeric, p_refunded_at timestamptz, p_parts numeric) returns numeric
language sql immutable as $$
  select case when p_refunded_at is not null then p_total else coalesce(p_parts, 0) end;
$$;

-- What has been refunded on an order: all of it once it is refunded in full, else its settled part refunds.
-- The one rule the sales figures and the customers' totals use.
create function public.order_refunded_amount(p_order_id uuid, p_total numeric, p_refunded_at timestamptz) returns numeric
language sql stable as $$
  select public.refunded_amount(p_total, p_refunded_at,
    (select sum(r.amount) from public.order_refunds r where r.order_id = p_order_id and r.status = 'succeeded'));
$$;

-- The orders a period's sales count (Sydney dates, both ends included): paid between the period's first and last
-- day, as a range of times the paid-at index serves, with what was refunded on each (in part or in full) and the
-- buyer's name.
create function public.sales_orders_in(p_from date, p_to date) returns table (
  id uuid, paid_at timestamptz, paid_on date, customer_email text, customer_name text, user_id uuid, status text, payment_status text,
  subtotal_amount numeric, shipping_amount numeric, total_amount numeric, refunded_amount numeric, refund_id text, refunded_at timestamptz,
  country text, shipping_address jsonb, delivery_method text, discount_amount numeric, promotion_code text, buyer_name text, is_gift boolean
)
language sql stable as $$
  select o.id, o.paid_at, (o.paid_at at time zone 'Australia/Sydney')::date, o.customer_email, o.customer_name, o.user_id, o.status, o.payment_status,
    o.subtotal_amount, o.shipping_amount, o.total_amount,
    public.refunded_amount(o.total_amount, o.refunded_at, r.amount),
    coalesce(o.refund_id, r.refund_ids),
    o.refunded_at, upper(coalesce(o.shipping_address ->> 'country', '')), o.shipping_address, o.shipping_method ->> 'name',
    o.discount_amount, o.promotion_code, public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift), o.is_gift
  from public.orders o
  -- Per order (an index probe), so a page of the period is read along the paid-at index and stops at the page.
  left join lateral (
    select sum(x.amount) as amount, string_agg(x.provider_refund_id, ' ' order by x.created_at) as refund_ids
    from public.order_refunds x where x.order_id = o.id and x.status = 'succeeded'
  ) r on true
  where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    and o.paid_at >= (p_from::timestamp at time zone 'Australia/Sydney')
    and o.paid_at < ((p_to + 1)::timestamp at time zone 'Australia/Sydney');
$$;

-- Page cursors: '<time>|<key>', the time in microseconds since 1970 (exact, and the same in every time zone), the
-- key the row's tie-breaker (an order's id, a customer's address). Opaque to the back office, which hands back the
-- `next` it was given.
create function public.page_cursor(p_at timestamptz, p_key text) returns text
language sql immutable as $$
  select (extract(epoch from p_at) * 1000000)::bigint || '|' || p_key;
$$;

-- The cursor's time and key; a cursor this database did not give refused with a sentence (22023), never a 500.
create function public.read_page_cursor(p_cursor text, p_key_is_uuid boolean, out at timestamptz, out key text)
language plpgsql stable set search_path = '' as $$
begin
  if p_cursor is null then
    return;
  end if;
  if p_cursor !~ '^-?\d{1,17}\|.{1,254}$' then
    raise exception 'That page link is not one this list gave: start again from the first page.' using errcode = '22023';
  end if;
  begin
    at := to_timestamp(0) + split_part(p_cursor, '|', 1)::bigint * interval '1 microsecond';
    key := substr(p_cursor, position('|' in p_cursor) + 1);
    if p_key_is_uuid then
      key := key::uuid::text;
    end if;
  exception when others then
    raise exception 'That page link is not one this list gave: start again from the first page.' using errcode = '22023';
  end;
end;
$$;

-- p_limit kept within what one page may hold.
create function public.page_limit(p_limit integer, p_default integer, p_most integer) returns integer
language sql immutable as $$
  select least(greatest(coalesce(p_limit, p_default), 1), p_most);
$$;

-- A search as a LIKE pattern for the text anywhere, its % and _ taken literally.
create function public.contains_pattern(p_search text) returns text
language sql immutable as $$
  select '%' || replace(replace(replace(p_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
$$;

-- An order's lines as the order's page, the packing slip and the sales CSV read them, by title.
create function public.order_items_json(p_order_id uuid) returns jsonb
language sql stable set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('product_id', i.product_id, 'title', i.title, 'quantity', i.quantity, 'price_at_time', i.price_at_time)
      order by i.title), '[]'::jsonb)
    from public.order_items i where i.order_id = p_order_id;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the header

-- How many orders wait to be packed (order_to_pack), for the header's Back office link: null for anyone who is not
-- staff, so the header asks without knowing who is staff and shows nothing to a shopper.
create function public.staff_orders_to_pack() returns integer
language sql stable security definer set search_path = '' as $$
  select case when public.is_staff() then (select count(*)::integer from public.orders o
    where public.order_to_pack(o.status, o.payment_status, o.ship_before_payment)) end;
$$;
