-- Refunding part of an order: an amount and a reason, never more than what is left of its payment. A part
-- refund is reserved under the order's row lock before the payment provider is asked (two staff pressing at
-- once cannot refund more than was paid), then settled with the provider's answer. Each one is written to the
-- order's history; the sales figures and the customers' totals count what was refunded. An order refunded in
-- full by its parts ends as a refunded order (payment_status 'refund_due' with refunded_at set).

create table public.order_refunds (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  amount numeric(10, 2) not null check (amount > 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 500),
  -- pending: reserved, the provider not yet answered; it counts against what is left until it is settled.
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  provider_refund_id text check (provider_refund_id is null or char_length(provider_refund_id) between 1 and 255),
  failure text check (failure is null or char_length(failure) <= 500),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  constraint order_refunds_settled_whole check ((status = 'pending') = (settled_at is null))
);
create index order_refunds_order_id_idx on public.order_refunds (order_id);
alter table public.order_refunds enable row level security;
revoke all on public.order_refunds from public, anon, authenticated, service_role;
grant select on public.order_refunds to service_role;

alter table public.order_events drop constraint order_events_action_check;
alter table public.order_events add constraint order_events_action_check check (action in (
  'shipped', 'tracking_corrected', 'shipping_emailed', 'delivered', 'cancelled', 'refunded', 'refund_failed', 'confirmation_resent',
  'note_changed', 'address_changed', 'delivery_undone', 'refunded_part'));

-- What has been refunded on an order: all of it once it is refunded in full, else its settled part refunds.
-- The one rule the sales figures and the customers' totals use.
create function public.order_refunded_amount(p_order_id uuid, p_total numeric, p_refunded_at timestamptz)
returns numeric
language sql
stable
security definer
set search_path = ''
as $$
  select case when p_refunded_at is not null then p_total
    else (select coalesce(sum(r.amount), 0) from public.order_refunds r where r.order_id = p_order_id and r.status = 'succeeded') end;
$$;

-- Amounts as the publisher reads them, e.g. A$12.50.
create function public.aud(p_amount numeric)
returns text
language sql
immutable
set search_path = ''
as $$
  select 'A$' || to_char(p_amount, 'FM999999990.00');
$$;

-- Reserves a part refund. Answers { outcome: 'reserved', refund_id, remaining } (remaining once this one is
-- paid back), { outcome: 'too_much', remaining } or { outcome: 'not_refundable' }.
create function public.begin_part_refund(p_order_id uuid, p_amount numeric, p_reason text, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_reason text := regexp_replace(btrim(coalesce(p_reason, '')), '\s+', ' ', 'g');
  v_left numeric;
  v_id uuid;
begin
  if p_amount is null or p_amount <= 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Give an amount in dollars and cents, more than zero.' using errcode = '22023';
  end if;
  if char_length(v_reason) not between 1 and 500 then
    raise exception 'Give a reason for the refund, of up to 500 characters.' using errcode = '22023';
  end if;
  -- Every reservation for this order waits here for the one before it: what is left is read after it committed.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.refunded_at is not null or v_order.checkout_session_id is null then
    return jsonb_build_object('outcome', 'not_refundable');
  end if;
  v_left := v_order.total_amount - (select coalesce(sum(amount), 0) from public.order_refunds where order_id = p_order_id and status in ('pending', 'succeeded'));
  if p_amount > v_left then
    return jsonb_build_object('outcome', 'too_much', 'remaining', v_left);
  end if;
  insert into public.order_refunds (order_id, amount, reason, actor) values (p_order_id, p_amount, v_reason, p_actor) returning id into v_id;
  return jsonb_build_object('outcome', 'reserved', 'refund_id', v_id, 'remaining', v_left - p_amount);
end;
$$;

-- Settles a reserved part refund with the provider's answer (its refund id, or why it failed) and writes it to
-- the order's history. When the parts add up to the whole payment, the order becomes refunded (the customer
-- has had an email for each part, so no full-refund email follows). Answers { outcome: 'succeeded' | 'failed'
-- | 'already', amount, refunded, remaining, fully_refunded }.
create function public.settle_part_refund(p_refund_id uuid, p_provider_refund_id text, p_failure text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_refund public.order_refunds%rowtype;
  v_order public.orders%rowtype;
  v_refunded numeric;
  v_pending integer;
  v_full boolean := false;
begin
  select * into v_refund from public.order_refunds where id = p_refund_id;
  if not found then
    raise exception 'Refund % not found', p_refund_id using errcode = 'P0002';
  end if;
  select * into v_order from public.orders where id = v_refund.order_id for update;
  select * into v_refund from public.order_refunds where id = p_refund_id;
  if v_refund.status <> 'pending' then
    return jsonb_build_object('outcome', 'already', 'amount', v_refund.amount);
  end if;
  if p_failure is null then
    update public.order_refunds set status = 'succeeded', provider_refund_id = p_provider_refund_id, settled_at = now() where id = p_refund_id;
    insert into public.order_events (order_id, action, detail, actor)
      values (v_order.id, 'refunded_part', left(public.aud(v_refund.amount) || ': ' || v_refund.reason || coalesce(' (' || p_provider_refund_id || ')', ''), 500), v_refund.actor);
  else
    update public.order_refunds set status = 'failed', failure = left(p_failure, 500), settled_at = now() where id = p_refund_id;
    insert into public.order_events (order_id, action, detail, actor)
      values (v_order.id, 'refund_failed', left('Part refund of ' || public.aud(v_refund.amount) || ' did not go through: ' || p_failure, 500), v_refund.actor);
  end if;
  select coalesce(sum(amount) filter (where status = 'succeeded'), 0), count(*) filter (where status = 'pending')
    into v_refunded, v_pending from public.order_refunds where order_id = v_order.id;
  if p_failure is null and v_pending = 0 and v_refunded >= v_order.total_amount and v_order.payment_status = 'paid' and v_order.refunded_at is null then
    update public.orders set payment_status = 'refund_due', refunded_at = now(), refund_id = p_provider_refund_id, refund_email_sent_at = now()
      where id = v_order.id;
    insert into public.order_events (order_id, action, detail, actor)
      values (v_order.id, 'refunded', 'Refunded in full, in parts: ' || public.aud(v_refunded), v_refund.actor);
    v_full := true;
  end if;
  return jsonb_build_object('outcome', case when p_failure is null then 'succeeded' else 'failed' end, 'amount', v_refund.amount,
    'refunded', v_refunded, 'remaining', greatest(v_order.total_amount - v_refunded, 0), 'fully_refunded', v_full);
end;
$$;

-- An order's part refunds, what has been refunded and what is left of its payment, for the order's page.
create function public.admin_order_refunds(p_order_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_refunded numeric;
begin
  perform public.require_staff();
  select * into v_order from public.orders where id = p_order_id;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  v_refunded := public.order_refunded_amount(v_order.id, v_order.total_amount, v_order.refunded_at);
  return jsonb_build_object(
    'total', v_order.total_amount,
    'refunded', v_refunded,
    'pending', (select coalesce(sum(amount), 0) from public.order_refunds where order_id = p_order_id and status = 'pending'),
    'remaining', greatest(v_order.total_amount - v_refunded, 0),
    'refundable', v_order.payment_status = 'paid' and v_order.refunded_at is null and v_order.checkout_session_id is not null,
    'parts', (select coalesce(jsonb_agg(jsonb_build_object('amount', r.amount, 'reason', r.reason, 'status', r.status, 'provider_refund_id', r.provider_refund_id,
        'actor', r.actor, 'created_at', r.created_at) order by r.created_at), '[]'::jsonb) from public.order_refunds r where r.order_id = p_order_id));
end;
$$;

-- The paid orders of a period, now with what was refunded in part as well as in full.
create or replace function public.sales_orders_in(p_from date, p_to date)
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
    public.order_refunded_amount(o.id, o.total_amount, o.refunded_at),
    coalesce(o.refund_id, (select string_agg(r.provider_refund_id, ' ' order by r.created_at) from public.order_refunds r where r.order_id = o.id and r.status = 'succeeded')),
    o.refunded_at, upper(coalesce(o.shipping_address ->> 'country', '')), o.shipping_address, o.shipping_method ->> 'name'
  from public.orders o
  where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    and (o.paid_at at time zone 'Australia/Sydney')::date between p_from and p_to;
$$;

-- Customers' totals spent, less refunds in part as well as in full.
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
  select coalesce(jsonb_agg(jsonb_build_object('email', c.email, 'name', c.name, 'orders', c.orders, 'total_spent', c.total_spent, 'last_order_at', c.last_order_at,
      'has_account', c.linked or exists (select 1 from auth.users u where lower(u.email) = c.email and u.email_confirmed_at is not null))
      order by c.last_order_at desc, c.email), '[]'::jsonb)
    into v_result from (
      select lower(o.customer_email) as email,
        (array_agg(o.customer_name order by o.paid_at desc))[1] as name,
        bool_or(o.user_id is not null) as linked,
        bool_or(position(v_search in lower(o.customer_name)) > 0) as name_matches,
        count(*) as orders,
        sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)) as total_spent,
        max(o.paid_at) as last_order_at
      from public.orders o
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
      'name', (array_agg(o.customer_name order by o.paid_at desc))[1],
      'has_account', bool_or(o.user_id is not null) or exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null),
      'orders', count(*),
      'total_spent', sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)),
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

revoke all on function public.order_refunded_amount(uuid, numeric, timestamptz), public.aud(numeric), public.begin_part_refund(uuid, numeric, text, text),
  public.settle_part_refund(uuid, text, text), public.admin_order_refunds(uuid) from public, anon, authenticated, service_role;
-- The two helpers are called only from inside the functions above (as their owner): no API role runs them.
grant execute on function public.begin_part_refund(uuid, numeric, text, text), public.settle_part_refund(uuid, text, text) to service_role;
grant execute on function public.admin_order_refunds(uuid) to authenticated;
