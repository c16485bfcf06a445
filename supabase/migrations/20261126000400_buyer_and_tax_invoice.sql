-- The buyer and the recipient are two people: a gift's delivery name (customer_name) is the recipient's, and the
-- name the payer gave the payment page is kept as the buyer's. Customers and the accountant's sales list are about
-- buyers. And one GST rule, which the sales figures and every order's tax invoice share.

alter table public.orders
  add column buyer_name text check (buyer_name is null or (char_length(buyer_name) between 1 and 100 and buyer_name !~ '[[:cntrl:]]')),
  -- A gift's buyer may leave their name off the gift slip.
  add column gift_hide_sender boolean not null default false;

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

-- Sales: the same rule as the tax invoices (gst_applies, gst_included); the buyer beside the recipient.
drop function public.sales_orders_in(date, date);
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

-- The accountant's list: the buyer's name (the contact), and the recipient's as the delivery name.
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

-- Customers are the buyers: named by the payer's name (never a gift's recipient), found by it or by the recipient's.
create or replace function public.admin_list_customers(p_search text default '')
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

create or replace function public.admin_get_customer(p_email text)
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

revoke all on function public.order_buyer_name(text, text, boolean), public.gst_applies(text), public.gst_included(numeric), public.order_tax_figures(uuid)
  from public, anon, authenticated, service_role;
-- The tax invoice is drawn by the server from the status page's token: only the service role asks.
grant execute on function public.order_tax_figures(uuid) to service_role;

-- The packer's list: where each parcel goes and whether it is a gift, beside how (Express or Standard), and the
-- buyer beside a gift's recipient.
create or replace function public.admin_list_orders(p_view text, p_search text default '')
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
