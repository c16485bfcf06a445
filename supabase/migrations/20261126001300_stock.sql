-- Stock with its story: every change to a product's stock is in its history (the publisher's own with their
-- reason, and each sale and each cancellation that put copies back, linked to its order); deliveries are added
-- (+N) rather than typed as a new total; the publisher is emailed once when a sale takes a title below its
-- low-stock level. The functions that take stock (fulfil_order) and put it back (cancel_paid_order) change the
-- products first and then the order or its history, in one transaction; the triggers write the stock history from
-- what that left, so every path that sells or restocks an order is recorded without each of them having to
-- remember to.

-- ===============================================================================================================
-- Tables

-- Stock with its story: every change to a product's stock, append-only (triggers below). The publisher's own
-- changes carry their reason; each sale and each cancellation that put copies back names its order.
create table public.stock_changes (
  id bigint generated always as identity primary key,
  product_id text not null references public.products (id),
  previous_stock integer not null,
  new_stock integer not null check (new_stock >= 0),
  reason text not null check (char_length(btrim(reason)) between 1 and 200),
  actor text not null check (char_length(actor) between 1 and 254),
  created_at timestamptz not null default now(),
  order_id uuid references public.orders (id)
);

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

-- ===============================================================================================================
-- Indexes

create index stock_changes_product_idx on public.stock_changes (product_id, id);
create index stock_changes_order_idx on public.stock_changes (order_id) where order_id is not null;
create unique index low_stock_alerts_open_key on public.low_stock_alerts (product_id) where rearmed_at is null;
create index low_stock_alerts_order_idx on public.low_stock_alerts (order_id);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: stock

-- A paid card order took its copies at payment; an invoice's took them when it was sent (its own history rows).
create function public.record_order_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if old.fulfilled_at is null and new.fulfilled_at is not null and new.kind = 'checkout' then
    -- A title on pre-order gave no stock (its copy is taken at the release), so it has no row here and no alert.
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock + q.quantity, p.stock, 'Sold', left(new.customer_email, 254), new.id
    from (select product_id, sum(quantity)::integer as quantity from public.order_items where order_id = new.id group by product_id) q
    join public.products p on p.id = q.product_id
    where not public.on_preorder(p.release_date, p.released_at)
    order by p.id;
    insert into public.low_stock_alerts (product_id, level, stock, order_id)
    select p.id, p.low_stock_level, p.stock, new.id
    from public.products p
    where p.id in (select product_id from public.order_items where order_id = new.id) and p.stock < p.low_stock_level
      and not public.on_preorder(p.release_date, p.released_at)
    order by p.id
    on conflict (product_id) where rearmed_at is null do nothing;
  end if;
  return null;
end;
$$;

-- A paid order cancelled before shipping put its copies back (cancel_paid_order restocks, then appends
-- 'cancelled' to the order's history): one history row per product, by the staff member who cancelled it.
create function public.record_cancelled_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from public.orders o where o.id = new.order_id and o.status = 'cancelled' and o.fulfilled_at is not null) then
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock - q.quantity, p.stock, 'Order cancelled, copies put back', new.actor, new.order_id
    from (select product_id, sum(quantity)::integer as quantity from public.order_items where order_id = new.order_id group by product_id) q
    join public.products p on p.id = q.product_id
    where not public.on_preorder(p.release_date, p.released_at)
    order by p.id;
  end if;
  return null;
end;
$$;

-- An invoice's order moves its copies itself, with its own history rows: taken from stock when the invoice is sent
-- (p_sign -1), put back when it is voided or written off (+1), taken again when it is paid after that. Its caller
-- holds the books' locks.
create function public.move_order_stock(p_order_id uuid, p_sign integer, p_reason text, p_actor text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  update public.products p set stock = p.stock + p_sign * i.quantity from public.order_items i where i.order_id = p_order_id and i.product_id = p.id;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock - p_sign * i.quantity, p.stock, p_reason, p_actor, p_order_id
    from public.order_items i join public.products p on p.id = i.product_id where i.order_id = p_order_id order by p.id;
end;
$$;

-- Stock back at or above the level (a delivery, a correction, a cancellation, a new level) re-arms the alert.
create function public.rearm_low_stock() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.low_stock_alerts set rearmed_at = now() where product_id = new.id and rearmed_at is null;
  return null;
end;
$$;

-- The crossings an order's sale opened that nobody has emailed yet, claimed by this caller (service role).
create function public.claim_low_stock_alerts(p_order_id uuid) returns jsonb
language sql security definer set search_path = '' as $$
  with claimed as (
    update public.low_stock_alerts a set emailed_at = now()
    where a.order_id = p_order_id and a.emailed_at is null
    returning a.id, a.product_id, a.level, a.stock
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'product_id', c.product_id, 'title', p.title, 'level', c.level, 'stock', c.stock) order by c.product_id), '[]'::jsonb)
  from claimed c join public.products p on p.id = c.product_id;
$$;

-- Gives a claim back after the email failed, so the next attempt (a webhook retry) sends it.
create function public.release_low_stock_alert(p_alert_id bigint) returns void
language sql security definer set search_path = '' as $$
  update public.low_stock_alerts set emailed_at = null where id = p_alert_id;
$$;

-- The reason a staff member gives for a change of stock, as the stock history keeps it: 1 to 200 characters.
create function public.stock_change_reason(p_reason text) returns text
language plpgsql immutable set search_path = '' as $$
begin
  if char_length(btrim(coalesce(p_reason, ''))) not between 1 and 200 then
    raise exception 'Give a reason for the change (up to 200 characters).' using errcode = '22023';
  end if;
  return btrim(p_reason);
end;
$$;

-- Sets a product's stock, recording the previous figure, the reason and who.
create function public.admin_set_stock(p_product_id text, p_stock integer, p_reason text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_actor text := public.require_staff();
  v_previous integer;
  v_reason text;
begin
  if p_stock is null or p_stock < 0 or p_stock > 100000 then
    raise exception 'Stock must be a whole number from 0 to 100000.' using errcode = '22023';
  end if;
  v_reason := public.stock_change_reason(p_reason);
  v_previous := (public.lock_product(p_product_id)).stock;
  update public.products set stock = p_stock where id = p_product_id;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values (p_product_id, v_previous, p_stock, v_reason, v_actor);
  return p_stock;
end;
$$;

-- A delivery: adds N copies in one statement, whatever else is selling at the same moment.
create function public.admin_receive_stock(p_product_id text, p_quantity integer, p_reason text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_actor text := public.require_staff();
  v_new integer;
  v_reason text;
begin
  if p_quantity is null or p_quantity < 1 or p_quantity > 100000 then
    raise exception 'Copies received must be a whole number from 1 to 100000.' using errcode = '22023';
  end if;
  v_reason := public.stock_change_reason(p_reason);
  update public.products set stock = stock + p_quantity where id = p_product_id and stock + p_quantity <= 100000 returning stock into v_new;
  if v_new is null then
    if exists (select 1 from public.products where id = p_product_id) then
      raise exception 'Stock can be at most 100000.' using errcode = '22023';
    end if;
    raise exception 'Product % not found', p_product_id using errcode = 'P0002';
  end if;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor) values (p_product_id, v_new - p_quantity, v_new, v_reason, v_actor);
  return v_new;
end;
$$;

-- Every product for sale with its stock, its low-stock level and how many confirmed shoppers wait for it.
create function public.admin_list_stock() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_result jsonb;
begin
  perform public.require_staff();
  select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'title', p.title, 'stock', p.stock, 'low_stock_level', p.low_stock_level,
      'waiting', (select count(*) from public.waiting_for(p.id)))
      order by p.title, p.id), '[]'::jsonb)
    into v_result
    from public.products p
    where p.for_sale;
  return v_result;
end;
$$;

-- One product's stock history, newest first, a page at a time: { changes: [...], next }; the cursor is the last
-- change's id. Who, when, from, to, why, and the order (with its number) of a sale or cancellation.
create function public.admin_stock_history(p_product_id text, p_cursor text default null, p_limit integer default 50) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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

-- ===============================================================================================================
-- Triggers

create trigger stock_changes_append_only before update or delete on public.stock_changes for each row execute function public.refuse_change();
create trigger stock_changes_no_truncate before truncate on public.stock_changes execute function public.refuse_change();

-- Sales and cancellations in the stock history, and the low-stock alert re-armed.
create trigger orders_record_stock after update of fulfilled_at on public.orders for each row execute function public.record_order_stock();
create trigger order_events_record_cancelled_stock after insert on public.order_events
  for each row when (new.action = 'cancelled') execute function public.record_cancelled_stock();
create trigger products_rearm_low_stock after update of stock, low_stock_level on public.products
  for each row when (new.stock >= new.low_stock_level) execute function public.rearm_low_stock();

-- ===============================================================================================================
-- Row-level security

alter table public.stock_changes enable row level security;
alter table public.low_stock_alerts enable row level security;

create policy "staff: read stock changes" on public.stock_changes for select to authenticated using ((select public.is_staff()));
