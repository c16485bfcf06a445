-- The packing bench: each order to pack is sent once to the shipping platform (Starshipit, or the local stand-in),
-- its label printed from /admin puts the tracking number on the order, and the platform's tracking events move it on
-- (lodged or in transit: shipped; delivered: completed). Shipping an order by hand (a typed tracking number) and the
-- shopper's shipping email are here too.
--
-- A shipment row per order: pending → sent → labelled → shipped → delivered, or failed (retried), or cancelled (the
-- order was cancelled before its label: taken off the platform). Sending is claimed under the row's lock with a
-- lease, so two fulfilment calls at once send one platform order; a claim whose answer was lost is looked up at the
-- platform by the order's number before it is sent again.

-- ===============================================================================================================
-- Tables

-- Each order's parcel at the shipping platform.
create table public.shipments (
  order_id uuid primary key references public.orders (id),
  -- The shop's order number, which is the platform's order_number: tracking events are bound to an order by it.
  order_number text not null unique check (order_number ~ '^[1-9][0-9]*$'),
  platform text not null check (platform in ('starshipit', 'local-test')),
  state text not null default 'pending' check (state in ('pending', 'sent', 'labelled', 'shipped', 'delivered', 'failed', 'cancelled')),
  platform_order_id text check (platform_order_id is null or char_length(platform_order_id) between 1 and 100),
  attempts integer not null default 0 check (attempts >= 0),
  last_error text check (last_error is null or char_length(last_error) <= 500),
  -- A send in progress: another caller waits until the lease ends rather than send a second platform order.
  claimed_at timestamptz,
  sent_at timestamptz,
  labelled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint shipments_sent_has_platform_id check (state in ('pending', 'failed', 'cancelled') or platform_order_id is not null)
);
comment on table public.shipments is 'each paid order''s parcel at the shipping platform: sent once, labelled, tracked';

-- Every tracking event received, once: a repeat (the same key) changes nothing.
create table public.shipment_tracking_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id),
  event_key text not null unique check (event_key ~ '^[0-9a-f]{64}$'),
  status text not null check (char_length(status) between 1 and 40),
  tracking_number text check (tracking_number is null or char_length(tracking_number) between 3 and 64),
  carrier text check (carrier is null or char_length(carrier) between 1 and 60),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now()
);

-- ===============================================================================================================
-- Indexes

create index shipment_tracking_events_order_idx on public.shipment_tracking_events (order_id, occurred_at);
create index shipments_open_idx on public.shipments (updated_at) where state in ('pending', 'failed');

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: shipping an order

-- Ships an order to pack, or corrects a shipped order's tracking number: 'shipped', 'corrected', 'unchanged' or
-- 'not_shippable'.
create function public.ship_order(p_order_id uuid, p_tracking_number text, p_carrier text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_order public.orders%rowtype;
begin
  v_order := public.lock_order(p_order_id);
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

-- Claims the shipping email for the order's current tracking number: 'first', 'correction', or 'none' when the
-- shopper already has this number. The one caller that claims it sends the email.
create function public.claim_shipping_email(p_order_id uuid) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
create function public.release_shipping_email(p_order_id uuid, p_previous text) returns void
language sql security definer set search_path = '' as $$
  update public.orders set shipping_email_tracking = p_previous where id = p_order_id;
$$;

-- Shipped → completed: 'delivered' or 'not_shipped'.
create function public.mark_order_delivered(p_order_id uuid, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
begin
  update public.orders set status = 'completed', delivered_at = now() where id = p_order_id and status = 'shipped';
  if not found then
    return 'not_shipped';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'delivered', '', p_actor);
  return 'delivered';
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the packing bench

-- Claims the order's send to the platform: 'claimed' (this caller sends; 'attempts' > 1 means an earlier answer may
-- have been lost), 'busy' (another caller is sending), 'done' (already at the platform) or 'not_to_pack' (unpaid and
-- not packed before payment, or cancelled). The order's row lock is taken first: two fulfilments of one order at once
-- would otherwise both find no shipment row and both insert one (the loser failing on the order number's unique
-- index, which `on conflict (order_id)` does not cover); so concurrent claims run one after the other and the second
-- finds the first's row.
create function public.claim_shipment_send(p_order_id uuid, p_platform text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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

-- The platform took the order: 'sent', or 'already' when another call recorded it first.
create function public.record_shipment_sent(p_order_id uuid, p_platform_order_id text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
begin
  update public.shipments set state = 'sent', platform_order_id = p_platform_order_id, sent_at = now(), claimed_at = null, last_error = null
    where order_id = p_order_id and state in ('pending', 'failed');
  if not found then
    return 'already';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'shipment_sent', left('platform order ' || p_platform_order_id, 500), p_actor);
  return 'sent';
end;
$$;

-- The platform refused or did not answer: the send is given back, to be tried again on the next call.
create function public.record_shipment_failed(p_order_id uuid, p_error text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
begin
  update public.shipments set state = 'failed', last_error = left(p_error, 500), claimed_at = null
    where order_id = p_order_id and state in ('pending', 'failed');
  if not found then
    return 'already';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'shipment_failed', left(p_error, 500), p_actor);
  return 'failed';
end;
$$;

-- A label was printed at the platform: the order ships with its tracking number (ship_order's own answer is given
-- back: 'shipped', 'corrected', 'unchanged' or 'not_shippable'), and the shipment is labelled.
create function public.record_shipment_label(p_order_id uuid, p_tracking_number text, p_carrier text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_result text;
begin
  perform 1 from public.shipments where order_id = p_order_id and state <> 'pending' and state <> 'failed' for update;
  if not found then
    return 'not_sent';
  end if;
  v_result := public.ship_order(p_order_id, p_tracking_number, p_carrier, p_actor);
  if v_result = 'not_shippable' then
    return v_result;
  end if;
  update public.shipments set state = case when state = 'sent' then 'labelled' else state end, labelled_at = coalesce(labelled_at, now())
    where order_id = p_order_id;
  if v_result in ('shipped', 'corrected') then
    insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'label_printed', left(p_carrier || ' ' || p_tracking_number, 500), p_actor);
  end if;
  return v_result;
end;
$$;

-- The order was cancelled before its label: its shipment is cancelled (off the retry list), and the history says
-- whether the platform dropped it ('cancelled'), or 'not_open' when it had a label or was never made.
create function public.record_shipment_cancelled(p_order_id uuid, p_detail text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
begin
  update public.shipments set state = 'cancelled', claimed_at = null where order_id = p_order_id and state in ('pending', 'sent', 'failed');
  if not found then
    return 'not_open';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'cancelled', left(coalesce(p_detail, ''), 500), p_actor);
  return 'cancelled';
end;
$$;

-- A tracking event: a parcel labelled at the platform itself ships an order to pack with the event's number.
create function public.record_tracking_event(p_order_number text, p_event_key text, p_status text, p_tracking_number text, p_carrier text,
  p_occurred_at timestamptz, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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

-- The shipments still to reach the platform (failed, or pending past their lease), oldest first: retried on the next
-- fulfilment or webhook call.
create function public.shipments_to_retry(p_limit integer) returns setof uuid
language sql stable security definer set search_path = '' as $$
  select s.order_id from public.shipments s
  where s.state in ('pending', 'failed') and (s.claimed_at is null or s.claimed_at < now() - interval '2 minutes')
  order by s.updated_at limit least(greatest(coalesce(p_limit, 5), 1), 50);
$$;

-- The orders to pack, oldest first, as the To pack list shows them, each with its number: the label run prints these
-- and names those it leaves for the next run.
create function public.orders_to_pack(p_limit integer) returns jsonb
language sql stable security definer set search_path = '' as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'number', public.order_label(t.number)) order by t.n), '[]'::jsonb)
  from (select o.id, o.number, row_number() over (order by coalesce(o.paid_at, o.created_at), o.id) as n
    from public.orders o
    where public.order_to_pack(o.status, o.payment_status, o.ship_before_payment)
    order by coalesce(o.paid_at, o.created_at), o.id
    limit least(greatest(coalesce(p_limit, 50), 1), 1000)) t;
$$;

-- ===============================================================================================================
-- Triggers

create trigger shipments_touch before update on public.shipments for each row execute function public.touch_updated_at();
create trigger shipment_tracking_events_append_only before update or delete on public.shipment_tracking_events for each row execute function public.refuse_change();
create trigger shipment_tracking_events_no_truncate before truncate on public.shipment_tracking_events execute function public.refuse_change();

-- ===============================================================================================================
-- Row-level security

alter table public.shipments enable row level security;
alter table public.shipment_tracking_events enable row level security;
