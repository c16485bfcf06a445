-- The packing bench: each paid order is sent once to the shipping platform (Starshipit, or the local stand-in), its
-- label printed from /admin puts the tracking number on the order, and the platform's tracking events move it on
-- (lodged or in transit: shipped; delivered: completed).
--
-- A shipment row per order: pending → sent → labelled → shipped → delivered, or failed (retried), or cancelled (the
-- order was cancelled before its label: taken off the platform). Sending is claimed
-- under the row's lock with a lease, so two fulfilment calls at once send one platform order; a claim whose answer
-- was lost is looked up at the platform by the order's number before it is sent again.

-- ---------------------------------------------------------------------------------------------------------------
-- The order's history takes the platform's steps too. (Re-created whole: later migrations add theirs the same way.)
alter table public.order_events drop constraint order_events_action_check;
alter table public.order_events add constraint order_events_action_check check (action in (
  'shipped', 'tracking_corrected', 'shipping_emailed', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'confirmation_resent',
  'note_changed', 'address_changed', 'delivery_undone', 'refunded_part',
  'shipment_sent', 'shipment_failed', 'label_printed', 'tracking_update'));

-- The latest tracking event the platform reported, shown to the shopper on the status page and in their profile.
alter table public.orders add column tracking_status text check (tracking_status is null or char_length(tracking_status) between 1 and 60);
alter table public.orders add column tracking_status_at timestamptz;
comment on column public.orders.tracking_status is 'the latest tracking event from the shipping platform, in words (e.g. In transit)';
comment on column public.orders.tracking_status_at is 'when the carrier reported that event';

create table public.shipments (
  order_id uuid primary key references public.orders (id),
  -- The shop's order number, which is the platform's order_number: tracking events are bound to an order by it.
  order_number text not null unique check (order_number ~ '^[0-9A-F]{8}$'),
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
create index shipment_tracking_events_order_idx on public.shipment_tracking_events (order_id, occurred_at);
create index shipments_open_idx on public.shipments (updated_at) where state in ('pending', 'failed');

create trigger shipments_touch before update on public.shipments for each row execute function public.touch_updated_at();
create trigger shipment_tracking_events_append_only before update or delete on public.shipment_tracking_events for each row execute function public.refuse_change();
create trigger shipment_tracking_events_no_truncate before truncate on public.shipment_tracking_events execute function public.refuse_change();

alter table public.shipments enable row level security;
alter table public.shipment_tracking_events enable row level security;

-- ---------------------------------------------------------------------------------------------------------------
-- Claims the order's send to the platform: 'claimed' (this caller sends; 'attempts' > 1 means an earlier answer may
-- have been lost), 'busy' (another caller is sending), 'done' (already at the platform) or 'not_paid'.
create function public.claim_shipment_send(p_order_id uuid, p_platform text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_shipment public.shipments%rowtype;
begin
  select * into v_order from public.orders where id = p_order_id;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'shipped', 'completed') then
    return jsonb_build_object('outcome', 'not_paid');
  end if;
  insert into public.shipments (order_id, order_number, platform) values (p_order_id, upper(left(p_order_id::text, 8)), p_platform)
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
create function public.record_shipment_sent(p_order_id uuid, p_platform_order_id text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
create function public.record_shipment_failed(p_order_id uuid, p_error text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
create function public.record_shipment_label(p_order_id uuid, p_tracking_number text, p_carrier text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
create function public.record_shipment_cancelled(p_order_id uuid, p_detail text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.shipments set state = 'cancelled', claimed_at = null where order_id = p_order_id and state in ('pending', 'sent', 'failed');
  if not found then
    return 'not_open';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'cancelled', left(coalesce(p_detail, ''), 500), p_actor);
  return 'cancelled';
end;
$$;

-- One tracking event from the platform, bound to an order the shop sent by its order number. Answers:
-- 'unknown_order' (no shipment with that number), 'unknown_parcel' (another tracking number than the order's),
-- 'duplicate' (this event was received before), 'recorded' (kept; the order does not move), 'shipped' (the order
-- shipped with this event's tracking number: its shipping email is due), 'delivered' (the order is completed) or
-- 'cancelled_order' (the order was cancelled and refunded, yet the carrier has the parcel: it stays cancelled, and
-- 'notify' is true for the first such event, so the publisher is told once).
create function public.record_tracking_event(p_order_number text, p_event_key text, p_status text, p_tracking_number text, p_carrier text,
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
  if v_order.status = 'processing' and v_order.payment_status = 'paid' and p_tracking_number is not null then
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
create function public.shipments_to_retry(p_limit integer)
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select s.order_id from public.shipments s
  where s.state in ('pending', 'failed') and (s.claimed_at is null or s.claimed_at < now() - interval '2 minutes')
  order by s.updated_at limit least(greatest(coalesce(p_limit, 5), 1), 50);
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Grants: the server functions read the shipments and their events; every change goes through the functions above.
revoke all on public.shipments, public.shipment_tracking_events from public, anon, authenticated, service_role;
grant select on public.shipments, public.shipment_tracking_events to service_role;

revoke all on function public.claim_shipment_send(uuid, text), public.record_shipment_sent(uuid, text, text), public.record_shipment_failed(uuid, text, text),
  public.record_shipment_label(uuid, text, text, text), public.record_shipment_cancelled(uuid, text, text), public.record_tracking_event(text, text, text, text, text, timestamptz, text),
  public.shipments_to_retry(integer)
  from public, anon, authenticated, service_role;
grant execute on function public.claim_shipment_send(uuid, text), public.record_shipment_sent(uuid, text, text), public.record_shipment_failed(uuid, text, text),
  public.record_shipment_label(uuid, text, text, text), public.record_shipment_cancelled(uuid, text, text), public.record_tracking_event(text, text, text, text, text, timestamptz, text),
  public.shipments_to_retry(integer)
  to service_role;
