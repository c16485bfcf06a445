-- "To pack" is one rule, written once: public.order_to_pack. The order lists, the badge's count, the index, the label
-- run (orders_to_pack), the send to the shipping platform, shipping and the tracking events all read it, so an
-- invoice's order packed before payment is to pack everywhere a paid order is, and reaches the platform the same way.
-- An order on account's paperwork (its invoice, PO number, issue and due dates, paid or not) is one function too,
-- public.order_on_account, read by the order's detail and slip, the Sales CSV, the status page and the emails.

-- To pack: not yet shipped, and paid, or an invoice's order the publisher packs before payment. Plain SQL and
-- immutable, so the planner inlines it in every query and in the index's condition alike.
create function public.order_to_pack(p_status text, p_payment_status text, p_ship_before_payment boolean)
returns boolean
language sql
immutable
as $$
  select p_status = 'processing' and (p_payment_status = 'paid' or p_ship_before_payment)
$$;

drop index public.orders_to_pack_idx;
create index orders_to_pack_idx on public.orders ((coalesce(paid_at, created_at)), id)
  where public.order_to_pack(status, payment_status, ship_before_payment);

create or replace function public.staff_orders_to_pack()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when public.is_staff() then (select count(*)::integer from public.orders o
    where public.order_to_pack(o.status, o.payment_status, o.ship_before_payment)) end;
$$;

-- The orders to pack, oldest first, as the To pack list shows them, each with its number: the label run prints these
-- and names those it leaves for the next run.
create function public.orders_to_pack(p_limit integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'number', public.order_label(t.number)) order by t.n), '[]'::jsonb)
  from (select o.id, o.number, row_number() over (order by coalesce(o.paid_at, o.created_at), o.id) as n
    from public.orders o
    where public.order_to_pack(o.status, o.payment_status, o.ship_before_payment)
    order by coalesce(o.paid_at, o.created_at), o.id
    limit least(greatest(coalesce(p_limit, 50), 1), 1000)) t;
$$;

-- An order on account's paperwork, or null for a card order: its invoice's number, the organisation and PO number,
-- the Sydney day it was issued, due and paid, and the invoice's state ('sent' is unpaid). Read inside the functions
-- below and by the server functions (for the emails and the status page), which read no invoice label themselves.
create function public.order_on_account(p_order_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('invoice_number', public.invoice_label(v.number), 'organisation', v.organisation, 'po_number', v.po_number,
    'status', v.status, 'issued_on', (v.sent_at at time zone 'Australia/Sydney')::date, 'due_on', v.due_on,
    'paid_on', (v.paid_at at time zone 'Australia/Sydney')::date, 'hosted_url', v.hosted_url)
  from public.invoices v where v.order_id = p_order_id and v.status <> 'draft';
$$;

-- Claims the order's send to the platform: 'claimed' | 'busy' | 'done' | 'not_to_pack' (unpaid and not packed before payment,
-- or cancelled).
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
  -- To pack (paid, or packed before payment), or gone already (its shipment's row says where it is).
  if not (public.order_to_pack(v_order.status, v_order.payment_status, v_order.ship_before_payment)
      or (v_order.status in ('shipped', 'completed') and (v_order.payment_status = 'paid' or v_order.ship_before_payment))) then
    return jsonb_build_object('outcome', 'not_to_pack');
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

-- Ships an order to pack, or corrects a shipped order's tracking number.
create or replace function public.ship_order(p_order_id uuid, p_tracking_number text, p_carrier text, p_actor text)
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
  if not (public.order_to_pack(v_order.status, v_order.payment_status, v_order.ship_before_payment)
      or (v_order.status = 'shipped' and (v_order.payment_status = 'paid' or v_order.ship_before_payment))) then
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

-- A tracking event: a parcel labelled at the platform itself ships an order to pack with the event's number.
create or replace function public.record_tracking_event(p_order_number text, p_event_key text, p_status text, p_tracking_number text, p_carrier text,
  p_occurred_at timestamptz, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_shipment public.shipments%rowtype;
  v_order public.orders%rowtype;
  v_moves_to text;
  v_outcome text := 'recorded';
  v_label text;
  v_first boolean;
begin
  select * into v_shipment from public.shipments where order_number = upper(p_order_number) for update;
  if not found or v_shipment.state in ('pending', 'failed') then
    return jsonb_build_object('outcome', 'unknown_order');
  end if;
  select * into v_order from public.orders where id = v_shipment.order_id for update;
  if v_order.tracking_number is not null and p_tracking_number is not null and v_order.tracking_number <> p_tracking_number then
    return jsonb_build_object('outcome', 'unknown_parcel', 'order_id', v_order.id);
  end if;
  insert into public.shipment_tracking_events (order_id, event_key, status, tracking_number, carrier, occurred_at)
    values (v_order.id, p_event_key, p_status, p_tracking_number, p_carrier, p_occurred_at)
    on conflict (event_key) do nothing;
  if not found then
    return jsonb_build_object('outcome', 'duplicate', 'order_id', v_order.id);
  end if;
  v_label := case p_status
    when 'Printed' then 'Label printed'
    when 'Dispatched' then 'Lodged with the carrier'
    when 'InTransit' then 'In transit'
    when 'OutForDelivery' then 'Out for delivery'
    when 'Delivered' then 'Delivered'
    when 'PickupInStore' then 'Ready to collect'
    when 'AwaitingCollection' then 'Awaiting collection'
    when 'AttemptedDelivery' then 'Delivery attempted'
    when 'Exception' then 'Delayed: the carrier reported a problem'
    when 'Cancelled' then 'Cancelled by the carrier'
    else p_status end;
  -- A parcel labelled at the platform itself after the shop cancelled the order: kept and told, nothing moves.
  if v_order.status = 'cancelled' then
    -- The shipment's row is locked above, so two events at once cannot both be the first.
    v_first := not exists (select 1 from public.order_events e
      where e.order_id = v_order.id and e.action = 'tracking_update' and e.detail like 'After cancellation: %');
    insert into public.order_events (order_id, action, detail, actor) values (v_order.id, 'tracking_update', left('After cancellation: ' || v_label, 500), p_actor);
    return jsonb_build_object('outcome', 'cancelled_order', 'order_id', v_order.id, 'status', v_label, 'notify', v_first);
  end if;
  -- Only a newer event is the latest one: an old event arriving late is kept in the list, not shown as current. Once
  -- delivered, a stray later scan (in transit after delivered) is kept too, but the shopper still reads Delivered.
  if (v_order.tracking_status_at is null or p_occurred_at >= v_order.tracking_status_at)
    and (v_order.status <> 'completed' or p_status = 'Delivered') then
    update public.orders set tracking_status = left(v_label, 60), tracking_status_at = p_occurred_at where id = v_order.id;
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (v_order.id, 'tracking_update', left(v_label, 500), p_actor);

  v_moves_to := case when p_status = 'Delivered' then 'delivered'
    when p_status in ('Dispatched', 'InTransit', 'OutForDelivery', 'PickupInStore', 'AwaitingCollection', 'AttemptedDelivery') then 'shipped' end;
  if v_moves_to is null then
    return jsonb_build_object('outcome', v_outcome, 'order_id', v_order.id);
  end if;
  -- A parcel labelled at the platform itself (not from /admin) ships the order with the event's number.
  if public.order_to_pack(v_order.status, v_order.payment_status, v_order.ship_before_payment) and p_tracking_number is not null then
    perform public.ship_order(v_order.id, p_tracking_number, coalesce(p_carrier, 'Australia Post'), p_actor);
    v_outcome := 'shipped';
  end if;
  update public.shipments set state = v_moves_to where order_id = v_order.id
    and (v_moves_to = 'delivered' or state in ('sent', 'labelled'));
  if v_moves_to = 'delivered' and public.mark_order_delivered(v_order.id, p_actor) = 'delivered' then
    v_outcome := case when v_outcome = 'shipped' then 'shipped_and_delivered' else 'delivered' end;
  end if;
  return jsonb_build_object('outcome', v_outcome, 'order_id', v_order.id);
end;
$$;

-- The order lists: the To pack view is the rule's, and its index's.
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
    when 'to_pack' then $w$public.order_to_pack(o.status, o.payment_status, o.ship_before_payment)$w$
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

-- The accountant's list: an order on account carries its paperwork (issued, due and paid days) for the CSV.
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
      'account', public.order_on_account(o.id),
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

-- One order as the detail view and the packing slip read it: its history in time order, and an order on account's
-- paperwork.
create or replace function public.order_detail(p_order_id uuid)
returns jsonb
language sql
stable
as $$
  select to_jsonb(o.*) - 'status_token' - 'shipping_email_tracking'
      || jsonb_build_object(
        'items', (select coalesce(jsonb_agg(jsonb_build_object('product_id', i.product_id, 'title', i.title, 'quantity', i.quantity, 'price_at_time', i.price_at_time) order by i.title), '[]'::jsonb)
          from public.order_items i where i.order_id = o.id),
        'history', (select coalesce(jsonb_agg(jsonb_build_object('action', e.action, 'detail', e.detail, 'actor', e.actor, 'created_at', e.created_at) order by e.created_at, e.id), '[]'::jsonb)
          from public.order_events e where e.order_id = o.id),
        'internal_note', coalesce((select n.note from public.order_notes n where n.order_id = o.id), ''),
        'shipment', (select jsonb_build_object('state', s.state, 'platform', s.platform, 'platform_order_id', s.platform_order_id, 'attempts', s.attempts,
            'last_error', s.last_error, 'sent_at', s.sent_at, 'labelled_at', s.labelled_at)
          from public.shipments s where s.order_id = o.id),
        'invoice_id', (select v.id from public.invoices v where v.order_id = o.id),
        'invoice_number', (select public.invoice_label(v.number) from public.invoices v where v.order_id = o.id),
        'account', public.order_on_account(o.id))
  from public.orders o where o.id = p_order_id;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Grants: the rule is the index's condition, which whoever writes an order evaluates, so every API role may run it
-- (it reads nothing); the label run's list and the paperwork are the server functions' only.
revoke all on function public.order_to_pack(text, text, boolean), public.orders_to_pack(integer), public.order_on_account(uuid)
  from public, anon, authenticated, service_role;
grant execute on function public.order_to_pack(text, text, boolean) to anon, authenticated, service_role;
grant execute on function public.orders_to_pack(integer), public.order_on_account(uuid) to service_role;
