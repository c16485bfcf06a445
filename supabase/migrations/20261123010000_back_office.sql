-- The publisher's back office: a staff role granted by email, an append-only history of every staff action on
-- an order, shipment tracking, a per-order status token for shoppers without an account, stock changes with a
-- reason, and handled contact messages. The role is checked here, in the database, by public.is_staff().

-- Staff, by email, so the role can be granted before the person has ever signed in.
create table public.staff_members (
  email text primary key check (email = lower(email) and char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  added_at timestamptz not null default now()
);
alter table public.staff_members enable row level security;
grant select, insert, delete on public.staff_members to service_role;

-- True when the signed-in user's email is on the staff list. Reads auth.users (the verified sign-in address),
-- never a claim the browser could shape.
create function public.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users u join public.staff_members s on s.email = lower(u.email)
    where u.id = (select auth.uid())
  );
$$;
revoke all on function public.is_staff() from public;
grant execute on function public.is_staff() to anon, authenticated, service_role;

-- The staff member's email, for the history; raises 42501 (a permission error: 401/403 through the REST API)
-- unless the caller is staff. The server functions ask it with the caller's own token.
create function public.require_staff()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  select lower(u.email) into v_email from auth.users u join public.staff_members s on s.email = lower(u.email) where u.id = (select auth.uid());
  if v_email is null then
    raise exception 'Only the publisher''s staff can do this.' using errcode = '42501';
  end if;
  return v_email;
end;
$$;
revoke all on function public.require_staff() from public, anon;
grant execute on function public.require_staff() to authenticated;

-- Orders: shipped between processing and completed; tracking; the token of the shopper's status page.
alter table public.orders drop constraint orders_status_check;
alter table public.orders add constraint orders_status_check check (status in ('pending', 'processing', 'shipped', 'completed', 'cancelled'));
-- A paid order the publisher cancels keeps its fulfilled_at while its refund is due.
alter table public.orders drop constraint orders_fulfilled_only_when_paid;
alter table public.orders add constraint orders_fulfilled_only_when_paid check (fulfilled_at is null or payment_status in ('paid', 'refund_due'));
alter table public.orders
  -- 244 random bits, hex: the only key to an order's status page, so it is never the order id.
  add column status_token text not null default (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
    check (status_token ~ '^[0-9a-f]{64}$'),
  add column tracking_number text check (tracking_number is null or char_length(tracking_number) between 3 and 64),
  add column tracking_carrier text check (tracking_carrier is null or char_length(tracking_carrier) between 2 and 60),
  add column shipped_at timestamptz,
  -- The tracking number the shopper was last emailed: one email per number, a correction when it changes.
  add column shipping_email_tracking text,
  add column delivered_at timestamptz,
  add column cancelled_at timestamptz,
  -- When the publisher was told of the paid order (once).
  add column publisher_notified_at timestamptz,
  add constraint orders_shipped_with_tracking check (status not in ('shipped', 'completed') or shipped_at is null or tracking_number is not null);
create unique index orders_status_token_key on public.orders (status_token);
create index orders_to_pack_idx on public.orders (paid_at) where status = 'processing' and payment_status = 'paid';

alter table public.contact_submissions
  add column handled_at timestamptz,
  add column handled_by text check (handled_by is null or char_length(handled_by) <= 254);

-- Append-only records: what, who, when. Nobody may change or remove a row, the service role included.
create function public.refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception '% is append-only', tg_table_name using errcode = '42501';
end;
$$;

create table public.order_events (
  id bigint generated always as identity primary key,
  order_id uuid not null references public.orders (id),
  action text not null check (action in ('shipped', 'tracking_corrected', 'shipping_emailed', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'confirmation_resent')),
  detail text not null default '' check (char_length(detail) <= 500),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now()
);
create index order_events_order_id_idx on public.order_events (order_id, id);
create trigger order_events_append_only before update or delete on public.order_events for each row execute function public.refuse_change();
create trigger order_events_no_truncate before truncate on public.order_events execute function public.refuse_change();

create table public.stock_changes (
  id bigint generated always as identity primary key,
  product_id text not null references public.products (id),
  previous_stock integer not null,
  new_stock integer not null check (new_stock >= 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 200),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now()
);
create index stock_changes_product_idx on public.stock_changes (product_id, id);
create trigger stock_changes_append_only before update or delete on public.stock_changes for each row execute function public.refuse_change();
create trigger stock_changes_no_truncate before truncate on public.stock_changes execute function public.refuse_change();

alter table public.order_events enable row level security;
alter table public.stock_changes enable row level security;
grant select, insert on public.order_events, public.stock_changes to service_role;

-- Staff read the back-office tables; every other signed-in user reads none of their rows.
grant select on public.order_events, public.stock_changes, public.contact_submissions, public.newsletter_subscriptions to authenticated;
create policy "staff: read orders" on public.orders for select to authenticated using ((select public.is_staff()));
create policy "staff: read order items" on public.order_items for select to authenticated using ((select public.is_staff()));
create policy "staff: read order history" on public.order_events for select to authenticated using ((select public.is_staff()));
create policy "staff: read stock changes" on public.stock_changes for select to authenticated using ((select public.is_staff()));
create policy "staff: read messages" on public.contact_submissions for select to authenticated using ((select public.is_staff()));
create policy "staff: read subscribers" on public.newsletter_subscriptions for select to authenticated using ((select public.is_staff()));

-- ---------------------------------------------------------------------------------------------------------------
-- Staff RPCs, called from /admin with the staff member's own token.

-- Orders for one view of the list, searched by order number (its first characters) or email.
create function public.admin_list_orders(p_view text, p_search text default '')
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
  if p_view not in ('to_pack', 'shipped', 'refunds_due', 'all') then
    raise exception 'Unknown order view %', p_view using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(row_to_json(o.*)::jsonb order by o.sort_key), '[]'::jsonb) into v_result from (
    select id, created_at, paid_at, customer_email, customer_name, status, payment_status, total_amount, shipping_method ->> 'name' as delivery_method,
      tracking_number, refunded_at,
      (select coalesce(sum(quantity), 0) from public.order_items i where i.order_id = orders.id) as item_count,
      case when p_view = 'to_pack' then extract(epoch from coalesce(paid_at, created_at)) else -extract(epoch from created_at) end as sort_key
    from public.orders
    where case p_view
        when 'to_pack' then status = 'processing' and payment_status = 'paid'
        when 'shipped' then status = 'shipped'
        when 'refunds_due' then payment_status = 'refund_due' and refunded_at is null
        else true end
      and (v_search = '' or left(id::text, char_length(v_search)) = v_search or position(v_search in lower(customer_email)) > 0)
    order by sort_key
    limit 200
  ) o;
  return v_result;
end;
$$;

-- One order with its items and history, for the detail view and the packing slip.
create function public.admin_get_order(p_order_id uuid)
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
          from public.order_events e where e.order_id = o.id))
    into v_result
    from public.orders o where o.id = p_order_id;
  if v_result is null then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  return v_result;
end;
$$;

-- Sets a product's stock, recording the previous figure, the reason and who.
create function public.admin_set_stock(p_product_id text, p_stock integer, p_reason text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_previous integer;
begin
  if p_stock is null or p_stock < 0 or p_stock > 100000 then
    raise exception 'Stock must be a whole number from 0 to 100000.' using errcode = '22023';
  end if;
  if char_length(btrim(coalesce(p_reason, ''))) not between 1 and 200 then
    raise exception 'Give a reason for the change (up to 200 characters).' using errcode = '22023';
  end if;
  select stock into v_previous from public.products where id = p_product_id for update;
  if not found then
    raise exception 'Product % not found', p_product_id using errcode = 'P0002';
  end if;
  update public.products set stock = p_stock where id = p_product_id;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values (p_product_id, v_previous, p_stock, btrim(p_reason), v_actor);
  return p_stock;
end;
$$;

create function public.admin_mark_message_handled(p_message_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
begin
  update public.contact_submissions set handled_at = now(), handled_by = v_actor where id = p_message_id and handled_at is null;
  return found;
end;
$$;

create function public.admin_remove_subscriber(p_subscriber_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.require_staff();
  delete from public.newsletter_subscriptions where id = p_subscriber_id;
  return found;
end;
$$;

revoke all on function public.admin_list_orders(text, text), public.admin_get_order(uuid), public.admin_set_stock(text, integer, text),
  public.admin_mark_message_handled(uuid), public.admin_remove_subscriber(uuid) from public, anon;
grant execute on function public.admin_list_orders(text, text), public.admin_get_order(uuid), public.admin_set_stock(text, integer, text),
  public.admin_mark_message_handled(uuid), public.admin_remove_subscriber(uuid) to authenticated;

-- ---------------------------------------------------------------------------------------------------------------
-- Order changes that also email the shopper or refund the payment: run by the server functions (service role)
-- after they have checked the caller with is_staff(); the actor is the staff member's email.

-- Ships a paid order, or corrects its tracking number: 'shipped', 'corrected', 'unchanged' or 'not_shippable'.
create function public.ship_order(p_order_id uuid, p_tracking_number text, p_carrier text, p_actor text)
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
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'shipped') then
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
create function public.claim_shipping_email(p_order_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
create function public.release_shipping_email(p_order_id uuid, p_previous text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.orders set shipping_email_tracking = p_previous where id = p_order_id;
$$;

-- Shipped → completed: 'delivered' or 'not_shipped'.
create function public.mark_order_delivered(p_order_id uuid, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.orders set status = 'completed', delivered_at = now() where id = p_order_id and status = 'shipped';
  if not found then
    return 'not_shipped';
  end if;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'delivered', '', p_actor);
  return 'delivered';
end;
$$;

-- Cancels a paid order that has not shipped: its stock goes back and its payment becomes refund due.
-- 'cancelled' or 'not_cancellable'.
create function public.cancel_paid_order(p_order_id uuid, p_actor text)
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
  if v_order.payment_status <> 'paid' or v_order.status <> 'processing' then
    return 'not_cancellable';
  end if;
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;
  update public.products p set stock = p.stock + oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id;
  update public.orders set status = 'cancelled', payment_status = 'refund_due', cancelled_at = now() where id = p_order_id;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'cancelled', 'stock put back', p_actor);
  return 'cancelled';
end;
$$;

-- True only for the one caller that tells the publisher about a paid order.
create function public.claim_publisher_notice(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set publisher_notified_at = now()
      where id = p_order_id and fulfilled_at is not null and publisher_notified_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

revoke all on function public.ship_order(uuid, text, text, text), public.claim_shipping_email(uuid), public.release_shipping_email(uuid, text),
  public.mark_order_delivered(uuid, text), public.cancel_paid_order(uuid, text), public.claim_publisher_notice(uuid) from public, anon, authenticated;
grant execute on function public.ship_order(uuid, text, text, text), public.claim_shipping_email(uuid), public.release_shipping_email(uuid, text),
  public.mark_order_delivered(uuid, text), public.cancel_paid_order(uuid, text), public.claim_publisher_notice(uuid) to service_role;
