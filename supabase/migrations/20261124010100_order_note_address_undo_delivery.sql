-- Fixing an order from the back office: an internal note the customer never sees (a table of its own), a corrected delivery address
-- until the parcel ships (the old address kept in the order's history), and a delivery marked by mistake taken
-- back to shipped. Each change is appended to the order's history with who made it.

-- The note lives apart from the order: a shopper reads their own order's row, never this one. Only the staff
-- functions below reach it.
create table public.order_notes (
  order_id uuid primary key references public.orders (id) on delete cascade,
  note text not null check (char_length(note) between 1 and 2000),
  updated_at timestamptz not null default now(),
  updated_by text not null check (char_length(updated_by) between 1 and 254)
);
alter table public.order_notes enable row level security;
revoke all on public.order_notes from public, anon, authenticated, service_role;
grant select on public.order_notes to service_role;

-- One order with its items, history and internal note, for the detail view and the packing slip.
create or replace function public.admin_get_order(p_order_id uuid)
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

alter table public.order_events drop constraint order_events_action_check;
alter table public.order_events add constraint order_events_action_check check (action in (
  'shipped', 'tracking_corrected', 'shipping_emailed', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'confirmation_resent',
  'note_changed', 'address_changed', 'delivery_undone'));

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

revoke all on function public.admin_set_order_note(uuid, text), public.admin_change_address(uuid, jsonb), public.admin_undo_delivered(uuid)
  from public, anon, authenticated, service_role;
grant execute on function public.admin_set_order_note(uuid, text), public.admin_change_address(uuid, jsonb), public.admin_undo_delivered(uuid) to authenticated;
