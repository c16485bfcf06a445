-- The back office's header link, its sales figures and its customers. Every figure is computed here, in one
-- call per view; unpaid checkout attempts (payment_status 'unpaid' or 'expired') are never sales or customers.
-- A sale counts on the day it was paid, Sydney time; a refund counts against its order. An order refunded in
-- full has payment_status 'refund_due' and refunded_at set (its refund_id is the provider's reference).

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

-- The paid orders of a period (Sydney dates, both ends included), with what was refunded on each.
create function public.sales_orders_in(p_from date, p_to date)
returns table (
  id uuid, paid_at timestamptz, paid_on date, customer_email text, customer_name text, user_id uuid, status text, payment_status text,
  subtotal_amount numeric, shipping_amount numeric, total_amount numeric, refunded_amount numeric, refund_id text, refunded_at timestamptz,
  country text, shipping_address jsonb, delivery_method text
)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, o.paid_at, (o.paid_at at time zone 'Australia/Sydney')::date, o.customer_email, o.customer_name, o.user_id, o.status, o.payment_status,
    o.subtotal_amount, o.shipping_amount, o.total_amount,
    case when o.refunded_at is not null then o.total_amount else 0 end,
    o.refund_id, o.refunded_at, upper(coalesce(o.shipping_address ->> 'country', '')), o.shipping_address, o.shipping_method ->> 'name'
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
        'shipping', coalesce(sum(shipping_amount), 0),
        'refunds', coalesce(sum(refunded_amount), 0),
        'net', coalesce(sum(kept), 0),
        'taxable_sales', coalesce(sum(kept) filter (where taxable), 0),
        'export_sales', coalesce(sum(kept) filter (where not taxable), 0),
        'gst', round(coalesce(sum(kept) filter (where taxable), 0) / 11, 2),
        'copies', (select coalesce(sum(quantity), 0) from lines))
      from orders),
    'series', (select coalesce(jsonb_agg(jsonb_build_object('period', bucket, 'orders', orders, 'copies', copies, 'goods', goods, 'shipping', shipping,
        'refunds', refunds, 'net', net, 'gst', gst) order by bucket), '[]'::jsonb) from series),
    'titles', (select coalesce(jsonb_agg(t order by t.copies desc, t.title), '[]'::jsonb) from (
        select product_id, min(title) as title, sum(quantity) as copies, sum(quantity * price_at_time) as goods from lines group by product_id) t)
  ) into v_result;
  return v_result;
end;
$$;

-- The period's orders with their lines, for the CSV the accountant imports.
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
      'status', o.status, 'payment_status', o.payment_status, 'subtotal_amount', o.subtotal_amount, 'shipping_amount', o.shipping_amount,
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

-- Customers: everyone who has paid for an order, guests and accounts alike, one row per address (its case
-- ignored), with their latest name, how many orders, what they spent (less refunds) and their last order.
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
  select coalesce(jsonb_agg(jsonb_build_object('email', c.email, 'name', c.name, 'orders', c.orders, 'total_spent', c.total_spent, 'last_order_at', c.last_order_at,
      'has_account', c.linked or exists (select 1 from auth.users u where lower(u.email) = c.email and u.email_confirmed_at is not null))
      order by c.last_order_at desc, c.email), '[]'::jsonb)
    into v_result from (
      select lower(o.customer_email) as email,
        (array_agg(o.customer_name order by o.paid_at desc))[1] as name,
        bool_or(o.user_id is not null) as linked,
        bool_or(position(v_search in lower(o.customer_name)) > 0) as name_matches,
        count(*) as orders,
        sum(o.total_amount - case when o.refunded_at is not null then o.total_amount else 0 end) as total_spent,
        max(o.paid_at) as last_order_at
      from public.orders o
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
      'name', (array_agg(o.customer_name order by o.paid_at desc))[1],
      'has_account', bool_or(o.user_id is not null) or exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null),
      'orders', count(*),
      'total_spent', sum(o.total_amount - case when o.refunded_at is not null then o.total_amount else 0 end),
      'last_order_at', max(o.paid_at),
      'order_list', jsonb_agg(jsonb_build_object('id', o.id, 'created_at', o.created_at, 'paid_at', o.paid_at, 'customer_email', o.customer_email,
          'customer_name', o.customer_name, 'status', o.status, 'payment_status', o.payment_status, 'total_amount', o.total_amount,
          'tracking_number', o.tracking_number, 'refunded_at', o.refunded_at, 'delivery_method', o.shipping_method ->> 'name',
          'item_count', (select coalesce(sum(i.quantity), 0) from public.order_items i where i.order_id = o.id)) order by o.paid_at desc))
    into v_result
    from public.orders o
    where lower(o.customer_email) = v_email and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    having count(*) > 0;
  return v_result;
end;
$$;

revoke all on function public.staff_orders_to_pack(), public.sales_orders_in(date, date), public.admin_sales(date, date, text),
  public.admin_sales_orders(date, date), public.admin_list_customers(text), public.admin_get_customer(text)
  from public, anon, authenticated, service_role;
-- The helper is called only from the staff functions above (security definer, as their owner): no API role runs it.
grant execute on function public.staff_orders_to_pack(), public.admin_sales(date, date, text), public.admin_sales_orders(date, date),
  public.admin_list_customers(text), public.admin_get_customer(text) to authenticated;
