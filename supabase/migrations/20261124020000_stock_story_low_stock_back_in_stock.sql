-- Stock with its story: every change to a product's stock is in its history (the publisher's own with their
-- reason, and each sale and each cancellation that put copies back, linked to its order); deliveries are added
-- (+N) rather than typed as a new total; the publisher is emailed once when a sale takes a title below its
-- low-stock level; and shoppers can ask to be told when a sold-out book is back.

-- The level under which the publisher is told, set per book in its file (the catalog sync writes it).
alter table public.products add column low_stock_level integer not null default 10 check (low_stock_level between 0 and 100000);

-- A sale's or a cancellation's row names its order.
alter table public.stock_changes add column order_id uuid references public.orders (id);
create index stock_changes_order_idx on public.stock_changes (order_id) where order_id is not null;

-- ---------------------------------------------------------------------------------------------------------------
-- Sales and cancellations in the history. The functions that take stock (fulfil_order) and put it back
-- (cancel_paid_order) change the products first and then the order or its history, in one transaction; these
-- triggers write the stock history from what that left, so every path that sells or restocks an order is
-- recorded without each of them having to remember to.

-- Crossings of the low-stock level: one open row per product at most (rearmed_at null). A sale that leaves a
-- product below its level opens one unless one is open; stock back at or above the level closes it (re-armed).
create table public.low_stock_alerts (
  id bigint generated always as identity primary key,
  product_id text not null references public.products (id),
  level integer not null,
  stock integer not null,
  order_id uuid references public.orders (id),
  crossed_at timestamptz not null default now(),
  -- Claimed by the one caller that emails the publisher; given back if the email fails.
  emailed_at timestamptz,
  rearmed_at timestamptz
);
create unique index low_stock_alerts_open_key on public.low_stock_alerts (product_id) where rearmed_at is null;
create index low_stock_alerts_order_idx on public.low_stock_alerts (order_id);
alter table public.low_stock_alerts enable row level security;
-- Supabase's default privileges give the service role everything, truncate included: only what is needed.
revoke all on public.low_stock_alerts from public, anon, authenticated, service_role;
grant select, insert, update on public.low_stock_alerts to service_role;

-- A paid order took its copies: one history row per product, and a crossing where it went below the level.
create function public.record_order_stock()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.fulfilled_at is null and new.fulfilled_at is not null then
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock + q.quantity, p.stock, 'Sold', left(new.customer_email, 254), new.id
    from (select product_id, sum(quantity)::integer as quantity from public.order_items where order_id = new.id group by product_id) q
    join public.products p on p.id = q.product_id
    order by p.id;
    insert into public.low_stock_alerts (product_id, level, stock, order_id)
    select p.id, p.low_stock_level, p.stock, new.id
    from public.products p
    where p.id in (select product_id from public.order_items where order_id = new.id) and p.stock < p.low_stock_level
    order by p.id
    on conflict (product_id) where rearmed_at is null do nothing;
  end if;
  return null;
end;
$$;
create trigger orders_record_stock after update of fulfilled_at on public.orders for each row execute function public.record_order_stock();

-- A paid order cancelled before shipping put its copies back (cancel_paid_order restocks, then appends
-- 'cancelled' to the order's history): one history row per product, by the staff member who cancelled it.
create function public.record_cancelled_stock()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.orders o where o.id = new.order_id and o.status = 'cancelled' and o.fulfilled_at is not null) then
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock - q.quantity, p.stock, 'Order cancelled, copies put back', new.actor, new.order_id
    from (select product_id, sum(quantity)::integer as quantity from public.order_items where order_id = new.order_id group by product_id) q
    join public.products p on p.id = q.product_id
    order by p.id;
  end if;
  return null;
end;
$$;
create trigger order_events_record_cancelled_stock after insert on public.order_events
  for each row when (new.action = 'cancelled') execute function public.record_cancelled_stock();

-- Stock back at or above the level (a delivery, a correction, a cancellation, a new level) re-arms the alert.
create function public.rearm_low_stock()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.low_stock_alerts set rearmed_at = now() where product_id = new.id and rearmed_at is null;
  return null;
end;
$$;
create trigger products_rearm_low_stock after update of stock, low_stock_level on public.products
  for each row when (new.stock >= new.low_stock_level) execute function public.rearm_low_stock();

-- The crossings an order's sale opened that nobody has emailed yet, claimed by this caller (service role).
create function public.claim_low_stock_alerts(p_order_id uuid)
returns jsonb
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.low_stock_alerts a set emailed_at = now()
    where a.order_id = p_order_id and a.emailed_at is null
    returning a.id, a.product_id, a.level, a.stock
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'product_id', c.product_id, 'title', p.title, 'level', c.level, 'stock', c.stock) order by c.product_id), '[]'::jsonb)
  from claimed c join public.products p on p.id = c.product_id;
$$;

-- Gives a claim back after the email failed, so the next attempt (a webhook retry) sends it.
create function public.release_low_stock_alert(p_alert_id bigint)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.low_stock_alerts set emailed_at = null where id = p_alert_id;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- The publisher's stock actions (staff, with their own token).

-- A delivery: adds N copies in one statement, whatever else is selling at the same moment.
create function public.admin_receive_stock(p_product_id text, p_quantity integer, p_reason text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_new integer;
begin
  if p_quantity is null or p_quantity < 1 or p_quantity > 100000 then
    raise exception 'Copies received must be a whole number from 1 to 100000.' using errcode = '22023';
  end if;
  if char_length(btrim(coalesce(p_reason, ''))) not between 1 and 200 then
    raise exception 'Give a reason for the change (up to 200 characters).' using errcode = '22023';
  end if;
  update public.products set stock = stock + p_quantity where id = p_product_id and stock + p_quantity <= 100000 returning stock into v_new;
  if v_new is null then
    if exists (select 1 from public.products where id = p_product_id) then
      raise exception 'Stock can be at most 100000.' using errcode = '22023';
    end if;
    raise exception 'Product % not found', p_product_id using errcode = 'P0002';
  end if;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values (p_product_id, v_new - p_quantity, v_new, btrim(p_reason), v_actor);
  return v_new;
end;
$$;

-- Every product for sale with its stock, its low-stock level and how many shoppers wait for it.
create function public.admin_list_stock()
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
  select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'title', p.title, 'stock', p.stock, 'low_stock_level', p.low_stock_level,
      'waiting', (select count(*) from public.back_in_stock_requests r where r.product_id = p.id)) order by p.title, p.id), '[]'::jsonb)
    into v_result
    from public.products p
    where p.for_sale;
  return v_result;
end;
$$;

-- One product's history, newest first: who, when, from, to, why, and the order of a sale or cancellation.
create function public.admin_stock_history(p_product_id text)
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
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'created_at', c.created_at, 'actor', c.actor, 'previous_stock', c.previous_stock,
      'new_stock', c.new_stock, 'reason', c.reason, 'order_id', c.order_id) order by c.id desc), '[]'::jsonb)
    into v_result
    from (select * from public.stock_changes where product_id = p_product_id order by id desc limit 200) c;
  return v_result;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Tell me when it's back: one row per address and book (in any letter case), written only by the server
-- function behind the bot-check (service role). Each is emailed once when the publisher puts the book back in
-- stock, then taken off the list.
create table public.back_in_stock_requests (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.products (id),
  email text not null check (char_length(email) between 3 and 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  created_at timestamptz not null default now(),
  -- Claimed by the one caller sending its email; a claim left by a caller that died is taken again after 15 minutes.
  claimed_at timestamptz
);
create unique index back_in_stock_requests_address_key on public.back_in_stock_requests (product_id, lower(email));
alter table public.back_in_stock_requests enable row level security;
revoke all on public.back_in_stock_requests from public, anon, authenticated, service_role;
grant select, insert, update, delete on public.back_in_stock_requests to service_role;

-- The waiting addresses of a book that is in stock now, claimed by this caller: each is claimed by one caller only.
create function public.claim_back_in_stock(p_product_id text)
returns jsonb
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.back_in_stock_requests r set claimed_at = now()
    where r.product_id = p_product_id
      and (r.claimed_at is null or r.claimed_at < now() - interval '15 minutes')
      and exists (select 1 from public.products p where p.id = p_product_id and p.stock > 0 and p.for_sale)
    returning r.id, r.email
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', id, 'email', email) order by email), '[]'::jsonb) from claimed;
$$;

revoke all on function public.record_order_stock(), public.record_cancelled_stock(), public.rearm_low_stock(), public.claim_low_stock_alerts(uuid), public.release_low_stock_alert(bigint),
  public.admin_receive_stock(text, integer, text), public.admin_list_stock(), public.admin_stock_history(text), public.claim_back_in_stock(text)
  from public, anon, authenticated, service_role;
grant execute on function public.admin_receive_stock(text, integer, text), public.admin_list_stock(), public.admin_stock_history(text) to authenticated;
grant execute on function public.claim_low_stock_alerts(uuid), public.release_low_stock_alert(bigint), public.claim_back_in_stock(text) to service_role;

-- The catalog sync writes each book's level beside its other facts (sync_catalog is left as it is: a book file
-- without a level gets the default).
create function public.sync_low_stock_levels(p_books jsonb)
returns integer
language sql
security definer
set search_path = ''
as $$
  with changed as (
    update public.products p set low_stock_level = b.low_stock_level
    from jsonb_to_recordset(p_books) as b(id text, low_stock_level integer)
    where p.id = b.id and b.low_stock_level is not null and p.low_stock_level is distinct from b.low_stock_level
    returning 1
  )
  select count(*)::integer from changed;
$$;
revoke all on function public.sync_low_stock_levels(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.sync_low_stock_levels(jsonb) to service_role;
