-- Orders, continued: an order's lines and its number, the look-ups a checkout page makes, and the orders' triggers
-- and row-level security.

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: an order's lines and its number

-- A card order's line keeps the cart's limit of 99 copies; an invoice's may hold more.
create function public.order_items_cart_limit() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.quantity > 99 and not exists (select 1 from public.orders o where o.id = new.order_id and o.kind = 'invoice') then
    raise exception 'A card order holds at most 99 copies of a book' using errcode = '23514';
  end if;
  return new;
end;
$$;

-- A number once given stays the order's: the platform, the slips and the emails know the order by it.
create function public.keep_order_number() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception 'Order % keeps its number.', old.number using errcode = '42501';
end;
$$;

-- The order number as it is written everywhere, from the database's number: the digits ("1001"). The TypeScript
-- side writes it with orderNumber() in src/lib/format.ts, the same way.
create function public.order_label(p_number integer) returns text
language sql immutable as $$
  select p_number::text;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: look-ups
--
-- Address and courier look-ups, counted per visitor across every function instance (see lookup_counts).

-- Counts one look-up and answers how many the visitor has made in the current window, this one included: the
-- caller refuses it past its limit. Windows ended more than ten minutes ago are deleted on the way.
create function public.take_lookup(p_visitor text, p_kind text) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_used integer;
begin
  if p_visitor is null or p_visitor !~ '^[A-Za-z0-9_-]{16,64}$' then
    raise exception 'take_lookup: the visitor is not a visitor hash' using errcode = '22023';
  end if;
  if p_kind is null or p_kind not in ('places', 'rates') then
    raise exception 'take_lookup: the kind must be places or rates' using errcode = '22023';
  end if;
  insert into public.lookup_counts as c (visitor, kind, window_start, used) values (p_visitor, p_kind, now(), 1)
    on conflict (visitor, kind) do update set
      used = case when c.window_start > now() - interval '1 minute' then c.used + 1 else 1 end,
      window_start = case when c.window_start > now() - interval '1 minute' then c.window_start else now() end
    returning used into v_used;
  delete from public.lookup_counts where window_start < now() - interval '10 minutes';
  return v_used;
end;
$$;

-- ===============================================================================================================
-- Triggers

create trigger orders_touch before update on public.orders for each row execute function public.touch_updated_at();

-- The histories are append-only.
create trigger order_events_append_only before update or delete on public.order_events for each row execute function public.refuse_change();
create trigger order_events_no_truncate before truncate on public.order_events execute function public.refuse_change();

create trigger order_items_cart_limit before insert or update of quantity on public.order_items for each row execute function public.order_items_cart_limit();
create trigger orders_keep_number before update of number on public.orders
  for each row when (new.number is distinct from old.number) execute function public.keep_order_number();

-- ===============================================================================================================
-- Row-level security

alter table public.orders enable row level security;
alter table public.order_items enable row level security;
alter table public.order_notes enable row level security;
alter table public.order_events enable row level security;
alter table public.order_refunds enable row level security;
alter table public.payment_events enable row level security;
alter table public.lookup_counts enable row level security;

-- Orders and their items: owners read; orders are created and changed only by the functions. Staff read orders
-- through admin_list_orders and admin_get_order, which leave out each order's status token (the key to its status
-- page); reading the tables directly would hand them every token.
create policy "own orders: read" on public.orders for select to authenticated using ((select auth.uid()) = user_id);
create policy "own order items: read" on public.order_items for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));
-- Staff read the back-office tables; every other signed-in user reads none of their rows.
create policy "staff: read order history" on public.order_events for select to authenticated using ((select public.is_staff()));
