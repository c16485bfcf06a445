-- Copies for a class or a parish, and promotion codes.
--
-- Quantity prices: a book's price per copy from a number of copies up, written by the catalog sync from the book
-- file (never by hand). Checkout prices every line from these rows; the shopper's browser only previews them.
--
-- Promotion codes: the publisher's codes, kept in a table nobody but the server and the staff functions reads. A
-- shopper's code is checked through check_promotion_code (called by /api/promotion-code), which answers only
-- whether it applies to this cart and what it takes off. One code per order, off the goods, never the shipping.
-- A code's uses are the orders that carry it and are not cancelled: create_order takes one under the code's row
-- lock, so two shoppers racing for the last use are served one after the other and the second is refused before
-- paying; an order cancelled (payment page cancelled or expired, sold out, or cancelled by the publisher) gives
-- its use back.

create table public.product_quantity_prices (
  product_id text not null references public.products (id) on delete cascade,
  min_quantity integer not null check (min_quantity between 2 and 99),
  price numeric(10, 2) not null check (price > 0),
  primary key (product_id, min_quantity)
);
comment on table public.product_quantity_prices is 'a book''s price per copy from min_quantity copies up; from its book file, by the catalog sync';

alter table public.product_quantity_prices enable row level security;
create policy "quantity prices of books for sale are public" on public.product_quantity_prices for select to anon, authenticated
  using (exists (select 1 from public.products p where p.id = product_id and p.for_sale));
revoke all on public.product_quantity_prices from public, anon, authenticated, service_role;
grant select on public.product_quantity_prices to anon, authenticated;
grant select, insert, update, delete on public.product_quantity_prices to service_role;

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

-- Checked at commit, so the sync can rewrite a book's price and its tiers in either order.
create constraint trigger quantity_prices_valid after insert or update on public.product_quantity_prices
  deferrable initially deferred for each row execute function public.quantity_prices_stay_valid();
create constraint trigger quantity_prices_valid_for_price after update of price on public.products
  deferrable initially deferred for each row execute function public.quantity_prices_stay_valid();

revoke all on function public.check_quantity_prices(text), public.quantity_prices_stay_valid() from public, anon, authenticated, service_role;

-- The catalog sync also writes each book's quantity prices (a book without any has none).
create or replace function public.sync_catalog(p_books jsonb)
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

-- Promotion codes ------------------------------------------------------------------------------------------

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

alter table public.promotion_codes enable row level security;
-- No policy: shoppers and staff never read the table; staff go through the admin functions below.
revoke all on public.promotion_codes from public, anon, authenticated, service_role;
grant select, insert, update, delete on public.promotion_codes to service_role;

alter table public.orders
  add column promotion_code_id uuid references public.promotion_codes (id),
  add column promotion_code text check (promotion_code is null or char_length(promotion_code) between 3 and 32),
  add column discount_amount numeric(10, 2) not null default 0 check (discount_amount >= 0),
  add constraint orders_discount_with_code check ((promotion_code_id is null) = (promotion_code is null) and (promotion_code is not null or discount_amount = 0)),
  add constraint orders_discount_within_goods check (discount_amount <= subtotal_amount);
alter table public.orders drop constraint orders_total_adds_up;
alter table public.orders add constraint orders_total_adds_up check (total_amount = subtotal_amount - discount_amount + shipping_amount);
create index orders_promotion_code_id on public.orders (promotion_code_id) where promotion_code_id is not null;

-- How many uses a code has: its orders that are not cancelled (an unpaid one holds its use until it is paid or cancelled).
create function public.promotion_code_uses(p_code_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer from public.orders where promotion_code_id = p_code_id and status <> 'cancelled';
$$;

-- What a code does for goods worth p_subtotal, now: its status and, when it applies, the discount (in cents, rounded
-- half up for a percentage; never more than the goods).
create function public.promotion_code_answer(p_code public.promotion_codes, p_subtotal numeric)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_discount numeric;
begin
  if p_code.id is null or not p_code.active then
    return jsonb_build_object('status', 'not_valid');
  end if;
  if p_code.starts_at is not null and now() < p_code.starts_at then
    return jsonb_build_object('status', 'not_started', 'code', p_code.code, 'starts_at', p_code.starts_at);
  end if;
  if p_code.ends_at is not null and now() >= p_code.ends_at then
    return jsonb_build_object('status', 'expired', 'code', p_code.code);
  end if;
  if p_code.max_uses is not null and public.promotion_code_uses(p_code.id) >= p_code.max_uses then
    return jsonb_build_object('status', 'used_up', 'code', p_code.code);
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
create function public.check_promotion_code(p_code text, p_subtotal numeric)
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
  return public.promotion_code_answer(v_code, coalesce(p_subtotal, 0));
end;
$$;

-- The order and its items together, or neither. A promotion code is checked again under its row lock and one
-- use taken by the order itself; the discount must be the one the checkout priced, or the order is refused.
create or replace function public.create_order(p_order jsonb, p_items jsonb)
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
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'an order needs at least one item' using errcode = '22023';
  end if;

  if nullif(btrim(coalesce(p_order ->> 'promotion_code', '')), '') is not null then
    -- The row lock makes concurrent orders for the same code count each other's uses.
    select * into v_code from public.promotion_codes where code = upper(btrim(p_order ->> 'promotion_code')) for update;
    v_answer := public.promotion_code_answer(v_code, (p_order ->> 'subtotal_amount')::numeric);
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
    shipping_address, shipping_method, payment_provider, promotion_code_id, promotion_code, discount_amount
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
    v_discount
  ) returning id into v_order_id;

  insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
  select v_order_id, item ->> 'product_id', item ->> 'title', (item ->> 'quantity')::integer, (item ->> 'price_at_time')::numeric
  from jsonb_array_elements(p_items) as item;

  return v_order_id;
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

revoke all on function public.promotion_code_uses(uuid), public.promotion_code_answer(public.promotion_codes, numeric) from public, anon, authenticated, service_role;
revoke all on function public.check_promotion_code(text, numeric) from public, anon, authenticated;
grant execute on function public.check_promotion_code(text, numeric) to service_role;
revoke all on function public.admin_list_codes(), public.admin_create_code(jsonb), public.admin_set_code_active(uuid, boolean) from public, anon, service_role;
grant execute on function public.admin_list_codes(), public.admin_create_code(jsonb), public.admin_set_code_active(uuid, boolean) to authenticated;

-- Sales: the discounts given, beside the goods (goods - discounts + shipping - refunds = net); refunds in part
-- as well as in full, as before.
drop function public.sales_orders_in(date, date);
create function public.sales_orders_in(p_from date, p_to date)
returns table (
  id uuid, paid_at timestamptz, paid_on date, customer_email text, customer_name text, user_id uuid, status text, payment_status text,
  subtotal_amount numeric, shipping_amount numeric, total_amount numeric, refunded_amount numeric, refund_id text, refunded_at timestamptz,
  country text, shipping_address jsonb, delivery_method text, discount_amount numeric, promotion_code text
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
    o.discount_amount, o.promotion_code
  from public.orders o
  where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    and (o.paid_at at time zone 'Australia/Sydney')::date between p_from and p_to;
$$;
revoke all on function public.sales_orders_in(date, date) from public, anon, authenticated, service_role;

create or replace function public.admin_sales(p_from date, p_to date, p_by text default 'day')
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
      (o.country = 'AU') as taxable
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
      (select round(coalesce(sum(o.kept) filter (where o.taxable), 0) / 11, 2) from orders o where o.bucket = b.bucket) as gst
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
        'gst', round(coalesce(sum(kept) filter (where taxable), 0) / 11, 2),
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

create or replace function public.admin_sales_orders(p_from date, p_to date)
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
