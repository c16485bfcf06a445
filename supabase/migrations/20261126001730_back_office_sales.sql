-- The back office, continued: the sales figures from the summary per Sydney day (summed again when stale), the
-- accountant's list of orders, an order's tax figures, and the sales tables' triggers and row-level security.

-- Sums the given days again from their orders: one pass along the paid-at index from the first to the last of
-- them (a plan per day, or days joined to orders, lets the planner walk every order once per day).
create function public.sum_sales_days(p_days date[]) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_from date := (select min(d) from unnest(p_days) d);
  v_to date := (select max(d) from unnest(p_days) d);
begin
  if v_from is null then
    return;
  end if;
  -- One summer of a day at a time, the days locked in order: a second waits, then (its next statement seeing the
  -- first's rows) sums them again.
  perform pg_advisory_xact_lock(20261127, d.day - date '2000-01-01') from (select distinct unnest(p_days) as day order by 1) d;
  delete from public.sales_days where day = any (p_days);
  insert into public.sales_days (day, orders, goods, discounts, shipping, refunds, net, taxable_sales, export_sales, copies)
    select o.paid_on, count(*), sum(o.subtotal_amount), sum(o.discount_amount), sum(o.shipping_amount), sum(o.refunded_amount),
      sum(o.total_amount - o.refunded_amount),
      sum(o.total_amount - o.refunded_amount) filter (where public.gst_applies(o.country)),
      sum(o.total_amount - o.refunded_amount) filter (where not public.gst_applies(o.country)),
      0
    from public.sales_orders_in(v_from, v_to) o
    where o.paid_on = any (p_days)
    group by o.paid_on;
  insert into public.sales_day_titles (day, product_id, title, copies, goods)
    select o.paid_on, i.product_id, min(i.title), sum(i.quantity), sum(i.quantity * i.price_at_time)
    from public.sales_orders_in(v_from, v_to) o join public.order_items i on i.order_id = o.id
    where o.paid_on = any (p_days) and o.payment_status = 'paid'
    group by o.paid_on, i.product_id;
  update public.sales_days s set copies = t.copies
    from (select day, sum(copies) as copies from public.sales_day_titles where day = any (p_days) group by day) t
    where s.day = t.day;
end;
$$;

-- The Sydney day an order's sale counts on.
create function public.mark_sales_day_stale(p_paid_at timestamptz) returns void
language sql security definer set search_path = '' as $$
  insert into public.sales_days_stale (day) select (p_paid_at at time zone 'Australia/Sydney')::date where p_paid_at is not null;
$$;

create function public.sales_day_stale_by_order() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_op <> 'INSERT' then
    perform public.mark_sales_day_stale(old.paid_at);
  end if;
  if tg_op <> 'DELETE' then
    perform public.mark_sales_day_stale(new.paid_at);
  end if;
  return null;
end;
$$;

create function public.sales_day_stale_by_line() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  -- A line or a refund of an order: the order's paid day (none while it is unpaid).
  if tg_op <> 'INSERT' then
    perform public.mark_sales_day_stale((select o.paid_at from public.orders o where o.id = old.order_id));
  end if;
  if tg_op <> 'DELETE' then
    perform public.mark_sales_day_stale((select o.paid_at from public.orders o where o.id = new.order_id));
  end if;
  return null;
end;
$$;

-- Sales for a period: orders, copies sold per title, goods, shipping, refunds, net, and the GST included (one
-- eleventh of what Australian buyers paid and kept, rounded to the cent; exports are GST-free). Copies sold leave out
-- orders cancelled or refunded in full. By day for a year at most (366 days); longer periods by week, month or year.
-- Volatile: it first sums the period's stale days again (each statement then sees what the one before it wrote).
create function public.admin_sales(p_from date, p_to date, p_by text default 'day') returns jsonb
language plpgsql volatile security definer set search_path = '' as $$
declare
  v_days date[];
  v_result jsonb;
begin
  perform public.require_staff();
  if p_by is null or p_by not in ('day', 'week', 'month', 'year') then
    raise exception 'Group sales by day, week, month or year.' using errcode = '22023';
  end if;
  if p_from is null or p_to is null or p_from > p_to then
    raise exception 'Choose a period whose start is on or before its end.' using errcode = '22023';
  end if;
  if p_to - p_from > 3660 then
    raise exception 'Choose a period of ten years or less.' using errcode = '22023';
  end if;
  if p_by = 'day' and p_to - p_from >= 366 then
    raise exception 'Sales by day cover a year (366 days) at most: group a longer period by week, month or year.' using errcode = '22023';
  end if;

  -- Taken by one caller: another asking for the same day waits here, then finds it summed.
  with taken as (delete from public.sales_days_stale where day between p_from and p_to returning day)
  select array_agg(distinct day) into v_days from taken;
  if v_days is not null then
    perform public.sum_sales_days(v_days);
  end if;

  with days as (
    select d.*, date_trunc(p_by, d.day)::date as bucket from public.sales_days d where d.day between p_from and p_to
  ),
  by_bucket as (
    select d.bucket, sum(d.orders) as orders, sum(d.copies) as copies, sum(d.goods) as goods, sum(d.discounts) as discounts, sum(d.shipping) as shipping,
      sum(d.refunds) as refunds, sum(d.net) as net, sum(d.taxable_sales) as taxable_sales, sum(d.export_sales) as export_sales
    from days d group by d.bucket
  ),
  series as (
    select g::date as bucket, coalesce(b.orders, 0) as orders, coalesce(b.copies, 0) as copies, coalesce(b.goods, 0) as goods,
      coalesce(b.discounts, 0) as discounts, coalesce(b.shipping, 0) as shipping, coalesce(b.refunds, 0) as refunds,
      coalesce(b.net, 0) as net, public.gst_included(b.taxable_sales) as gst
    from generate_series(date_trunc(p_by, p_from), date_trunc(p_by, p_to), ('1 ' || p_by)::interval) g
    left join by_bucket b on b.bucket = g::date
  )
  select jsonb_build_object(
    'from', p_from, 'to', p_to, 'by', p_by,
    'totals', (select jsonb_build_object(
        'orders', coalesce(sum(b.orders), 0),
        'goods', coalesce(sum(b.goods), 0),
        'discounts', coalesce(sum(b.discounts), 0),
        'shipping', coalesce(sum(b.shipping), 0),
        'refunds', coalesce(sum(b.refunds), 0),
        'net', coalesce(sum(b.net), 0),
        'taxable_sales', coalesce(sum(b.taxable_sales), 0),
        'export_sales', coalesce(sum(b.export_sales), 0),
        'gst', public.gst_included(sum(b.taxable_sales)),
        'copies', coalesce(sum(b.copies), 0))
      from by_bucket b),
    'series', (select coalesce(jsonb_agg(jsonb_build_object('period', s.bucket, 'orders', s.orders, 'copies', s.copies, 'goods', s.goods, 'discounts', s.discounts,
        'shipping', s.shipping, 'refunds', s.refunds, 'net', s.net, 'gst', s.gst) order by s.bucket), '[]'::jsonb) from series s),
    'titles', (select coalesce(jsonb_agg(t order by t.copies desc, t.title), '[]'::jsonb) from (
        select l.product_id, min(l.title) as title, sum(l.copies) as copies, sum(l.goods) as goods
        from public.sales_day_titles l where l.day between p_from and p_to group by l.product_id) t)
  ) into v_result;
  return v_result;
end;
$$;

-- The period's orders with their lines, for the CSV the accountant imports, a page at a time in the order paid:
-- { orders: [...], next }. The buyer's name (the contact), the recipient's as the delivery name; an order on account
-- carries its organisation, PO number and paperwork (issued, due and paid days).
create function public.admin_sales_orders(p_from date, p_to date, p_cursor text default null, p_limit integer default 1000) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_limit integer := public.page_limit(p_limit, 1000, 5000);
  v_after timestamptz;
  v_after_id uuid;
  v_result jsonb;
begin
  perform public.require_staff();
  if p_from is null or p_to is null or p_from > p_to or p_to - p_from > 3660 then
    raise exception 'Choose a period whose start is on or before its end, of ten years or less.' using errcode = '22023';
  end if;
  select c.at, c.key::uuid into v_after, v_after_id from public.read_page_cursor(p_cursor, true) c;
  with page as (
    select o.*, row_number() over (order by o.paid_at, o.id) as n
    from (
      select * from public.sales_orders_in(p_from, p_to) s
      where v_after is null or (s.paid_at, s.id) > (v_after, v_after_id)
      order by s.paid_at, s.id
      limit v_limit + 1
    ) o
  )
  select jsonb_build_object(
    'orders', coalesce(jsonb_agg(jsonb_build_object(
      'id', o.id, 'number', x.number, 'paid_at', o.paid_at, 'paid_on', o.paid_on, 'customer_email', o.customer_email, 'customer_name', o.customer_name,
      'buyer_name', o.buyer_name, 'delivery_name', o.customer_name, 'is_gift', o.is_gift,
      'status', o.status, 'payment_status', o.payment_status, 'subtotal_amount', o.subtotal_amount, 'discount_amount', o.discount_amount,
      'promotion_code', o.promotion_code, 'shipping_amount', o.shipping_amount,
      'total_amount', o.total_amount, 'refunded_amount', o.refunded_amount, 'refund_id', o.refund_id, 'country', o.country,
      'gst_applies', public.gst_applies(o.country),
      'shipping_address', o.shipping_address, 'delivery_method', o.delivery_method,
      'organisation', x.organisation, 'po_number', x.po_number,
      'invoice_number', (select public.invoice_label(v.number) from public.invoices v where v.order_id = o.id),
      'account', public.order_on_account(o.id),
      'items', public.order_items_json(o.id)
    ) order by o.n) filter (where o.n <= v_limit), '[]'::jsonb),
    'next', case when count(*) > v_limit then public.page_cursor(max(o.paid_at) filter (where o.n = v_limit), max(o.id::text) filter (where o.n = v_limit)) end)
    into v_result
    from page o
    -- Who an invoice was for and their PO number, by the order's primary key.
    join public.orders x on x.id = o.id;
  return v_result;
end;
$$;

-- What an order's tax invoice and adjustment notes need beyond the order: whether GST applies, the GST in the
-- total, and each refund that went through (a part refund, and the rest when refunded in full) with its GST.
create function public.order_tax_figures(p_order_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
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

-- ===============================================================================================================
-- Triggers

create trigger orders_sales_day_stale after insert or delete or update of paid_at, payment_status, subtotal_amount, discount_amount, shipping_amount,
  total_amount, refunded_at, refund_id, shipping_address on public.orders
  for each row execute function public.sales_day_stale_by_order();
create trigger order_items_sales_day_stale after insert or update or delete on public.order_items
  for each row execute function public.sales_day_stale_by_line();
create trigger order_refunds_sales_day_stale after insert or update or delete on public.order_refunds
  for each row execute function public.sales_day_stale_by_line();

-- ===============================================================================================================
-- Row-level security

alter table public.sales_days enable row level security;
alter table public.sales_day_titles enable row level security;
alter table public.sales_days_stale enable row level security;
