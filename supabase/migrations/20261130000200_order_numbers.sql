-- An order's number of its own. It was the first eight hex digits of its id (32 bits): at 100,000 orders two
-- orders share one with a chance of about 69 %, and the second could never reach the shipping platform, whose
-- order number is unique. Now the database gives each order the next number, 1001, 1002 …, never used again: short
-- enough to read over the phone, and the shipping platform's order number. Orders that exist take theirs in the
-- order they were placed; a search by the start of an id still finds any order.

alter table public.orders add column number integer;
update public.orders o set number = 1000 + n.position
  from (select id, row_number() over (order by created_at, id) as position from public.orders) n
  where n.id = o.id;
alter table public.orders alter column number set not null;
alter table public.orders alter column number add generated always as identity (start with 1001);
-- The next order continues after those numbered above (setval of null, on an empty table, changes nothing).
select setval(pg_get_serial_sequence('public.orders', 'number'), (select max(number) from public.orders));
alter table public.orders add constraint orders_number_key unique (number);
comment on column public.orders.number is 'the order''s number as buyers, the publisher and the shipping platform read it (1001, 1002 …), from public.order_label';

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
create trigger orders_keep_number before update of number on public.orders
  for each row when (new.number is distinct from old.number) execute function public.keep_order_number();

-- The order number as it is written everywhere, from the database's number: the digits ("1001"). The TypeScript
-- side writes it with orderNumber() in src/lib/format.ts, the same way.
create function public.order_label(p_number integer)
returns text
language sql
immutable
as $$
  select p_number::text;
$$;

-- The platform's order number is the order's.
alter table public.shipments drop constraint shipments_order_number_check;
update public.shipments s set order_number = public.order_label(o.number) from public.orders o where o.id = s.order_id;
alter table public.shipments add constraint shipments_order_number_check check (order_number ~ '^[1-9][0-9]*$');

-- The claim gives the shipment its order's number.
create or replace function public.claim_shipment_send(p_order_id uuid, p_platform text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_shipment public.shipments%rowtype;
begin
  select * into v_order from public.orders where id = p_order_id for no key update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'shipped', 'completed') then
    return jsonb_build_object('outcome', 'not_paid');
  end if;
  insert into public.shipments (order_id, order_number, platform) values (p_order_id, public.order_label(v_order.number), p_platform)
    on conflict (order_id) do nothing;
  select * into v_shipment from public.shipments where order_id = p_order_id for update;
  if v_shipment.state not in ('pending', 'failed') then
    return jsonb_build_object('outcome', 'done', 'platform_order_id', v_shipment.platform_order_id);
  end if;
  -- A lease of two minutes: well past the platform call's deadline, so a live send is never doubled.
  if v_shipment.claimed_at is not null and v_shipment.claimed_at > now() - interval '2 minutes' then
    return jsonb_build_object('outcome', 'busy');
  end if;
  update public.shipments set claimed_at = now(), attempts = attempts + 1, platform = p_platform where order_id = p_order_id
    returning * into v_shipment;
  return jsonb_build_object('outcome', 'claimed', 'attempts', v_shipment.attempts, 'order_number', v_shipment.order_number,
    'lost_answer', v_shipment.attempts > 1 and v_shipment.state = 'pending');
end;
$$;

-- The order lists: each row carries its number, and a search finds an order by its number (exactly), by the start
-- of its id, or by part of the address.
create or replace function public.admin_list_orders(p_view text, p_search text, p_cursor text default null, p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(btrim(coalesce(p_search, '')));
  v_limit integer := public.page_limit(p_limit, 50, 200);
  v_after timestamptz;
  v_after_id uuid;
  v_view text;
  v_key text;
  v_order text;
  v_seek text := 'true';
  v_match text := 'true';
  v_low uuid;
  v_high uuid;
  v_number integer;
  v_result jsonb;
begin
  perform public.require_staff();
  if p_view is null or p_view not in ('to_pack', 'shipped', 'refunds_due', 'all', 'unpaid') then
    raise exception 'Unknown order view %', p_view using errcode = '22023';
  end if;
  select c.at, c.key::uuid into v_after, v_after_id from public.read_page_cursor(p_cursor, true) c;

  -- Each view's condition is its index's, word for word, so the planner picks it.
  v_view := case p_view
    when 'to_pack' then $w$o.status = 'processing' and (o.payment_status = 'paid' or o.ship_before_payment)$w$
    when 'shipped' then $w$o.status = 'shipped'$w$
    when 'refunds_due' then $w$o.payment_status = 'refund_due' and o.refunded_at is null$w$
    when 'unpaid' then $w$o.payment_status in ('unpaid', 'expired')$w$
    else $w$o.payment_status in ('paid', 'refund_due')$w$ end;
  if p_view = 'to_pack' then
    v_key := 'coalesce(o.paid_at, o.created_at)';
    v_order := 'coalesce(o.paid_at, o.created_at), o.id';
    if v_after is not null then
      v_seek := '(coalesce(o.paid_at, o.created_at), o.id) > ($1, $2)';
    end if;
  else
    v_key := 'o.created_at';
    v_order := 'o.created_at desc, o.id desc';
    if v_after is not null then
      v_seek := '(o.created_at, o.id) < ($1, $2)';
    end if;
  end if;
  if v_search <> '' then
    v_match := 'lower(o.customer_email) like $3';
    -- An order's number as printed (a # before it is fine): found exactly through its unique index.
    if v_search ~ '^#?[0-9]{1,9}$' then
      v_number := ltrim(v_search, '#')::integer;
    end if;
    -- The start of an order's id (what stood for its number before orders were numbered), padded to the lowest and
    -- the highest id that start with it.
    if v_search ~ '^[0-9a-f-]{1,36}$' then
      v_low := case when v_search || substr('00000000-0000-0000-0000-000000000000', char_length(v_search) + 1) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        then (v_search || substr('00000000-0000-0000-0000-000000000000', char_length(v_search) + 1))::uuid end;
      v_high := case when v_low is not null then (v_search || substr('ffffffff-ffff-ffff-ffff-ffffffffffff', char_length(v_search) + 1))::uuid end;
    end if;
    if (v_low is not null and char_length(v_search) >= 4) or (v_low is null and v_number is not null) then
      -- Few orders match: found by the indexes, then sorted (an OR would walk the view's index past them all).
      v_match := 'o.id in (select s.id from public.orders s where s.id between $4 and $5'
        || ' union all select s.id from public.orders s where s.number = $7'
        || ' union all select s.id from public.orders s where lower(s.customer_email) like $3)';
    elsif v_low is not null then
      v_match := '(o.id between $4 and $5 or o.number = $7 or ' || v_match || ')';
    end if;
  end if;

  execute format($q$
    with page as (
      select o.id, o.number, o.created_at, o.paid_at, o.customer_email, o.customer_name, o.status, o.payment_status, o.total_amount,
        o.shipping_method ->> 'name' as delivery_method, o.tracking_number, o.refunded_at,
        (select coalesce(sum(i.quantity), 0) from public.order_items i where i.order_id = o.id) as item_count,
        upper(coalesce(o.shipping_address ->> 'country', '')) as country, o.is_gift, o.kind, o.organisation, o.po_number,
        public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift) as buyer_name,
        %5$s as sort_key,
        %1$s as page_at
      from public.orders o
      where %2$s and %3$s and %4$s
      order by %6$s
      limit $6 + 1
    ),
    numbered as (select p.*, row_number() over (order by %7$s) as n from page p)
    select jsonb_build_object(
      'orders', coalesce(jsonb_agg(to_jsonb(x) - 'page_at' - 'n' order by x.n) filter (where x.n <= $6), '[]'::jsonb),
      'next', case when count(*) > $6 then public.page_cursor(max(x.page_at) filter (where x.n = $6), (max(x.id::text) filter (where x.n = $6))) end)
    from numbered x
  $q$, v_key, v_view, v_seek, v_match,
    case when p_view = 'to_pack' then 'extract(epoch from coalesce(o.paid_at, o.created_at))' else '-extract(epoch from o.created_at)' end,
    v_order, case when p_view = 'to_pack' then 'p.page_at, p.id' else 'p.page_at desc, p.id desc' end)
    into v_result
    using v_after, v_after_id, public.contains_pattern(v_search), v_low, v_high, v_limit, v_number;
  return v_result;
end;
$$;

-- The accountant's list: each order with its number.
create or replace function public.admin_sales_orders(p_from date, p_to date, p_cursor text default null, p_limit integer default 1000)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
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
      'shipping_address', o.shipping_address, 'delivery_method', o.delivery_method,
      'organisation', x.organisation, 'po_number', x.po_number,
      'invoice_number', (select public.invoice_label(v.number) from public.invoices v where v.order_id = o.id),
      'items', (select coalesce(jsonb_agg(jsonb_build_object('product_id', i.product_id, 'title', i.title, 'quantity', i.quantity, 'price_at_time', i.price_at_time) order by i.title), '[]'::jsonb)
        from public.order_items i where i.order_id = o.id)
    ) order by o.n) filter (where o.n <= v_limit), '[]'::jsonb),
    'next', case when count(*) > v_limit then public.page_cursor(max(o.paid_at) filter (where o.n = v_limit), max(o.id::text) filter (where o.n = v_limit)) end)
    into v_result
    from page o
    -- Who an invoice was for and their PO number, by the order's primary key.
    join public.orders x on x.id = o.id;
  return v_result;
end;
$$;

-- A product's stock history: a sale names its order's number.
create or replace function public.admin_stock_history(p_product_id text, p_cursor text default null, p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := public.page_limit(p_limit, 50, 200);
  v_before bigint;
  v_rows jsonb;
  v_count integer;
  v_last bigint;
begin
  perform public.require_staff();
  if p_cursor is not null then
    if p_cursor !~ '^[0-9]{1,18}$' then
      raise exception 'That page link is not one this list gave: start again from the first page.' using errcode = '22023';
    end if;
    v_before := p_cursor::bigint;
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'created_at', c.created_at, 'actor', c.actor, 'previous_stock', c.previous_stock,
      'new_stock', c.new_stock, 'reason', c.reason, 'order_id', c.order_id,
      'order_number', (select o.number from public.orders o where o.id = c.order_id)) order by c.id desc) filter (where c.n <= v_limit), '[]'::jsonb),
      count(*), min(c.id) filter (where c.n = v_limit)
    into v_rows, v_count, v_last
    from (
      select s.*, row_number() over (order by s.id desc) as n from (
        select * from public.stock_changes
        where product_id = p_product_id and (v_before is null or id < v_before)
        order by id desc limit v_limit + 1) s
    ) c;
  return jsonb_build_object('changes', v_rows, 'next', case when v_count > v_limit then v_last::text end);
end;
$$;

-- A customer's orders, each with its number.
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
      'order_list', jsonb_agg(jsonb_build_object('id', o.id, 'number', o.number, 'created_at', o.created_at, 'paid_at', o.paid_at, 'customer_email', o.customer_email,
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

revoke all on sequence public.orders_number_seq from public, anon, authenticated, service_role;
revoke all on function public.order_label(integer), public.keep_order_number() from public, anon, authenticated, service_role;
