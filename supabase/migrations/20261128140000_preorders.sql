-- Pre-orders: a title announced before it is out (products.release_date set, released_at not) is sold from its
-- allocation (products.preorder_allocation), not from stock. A paid order holding such a title waits as 'preorder'
-- (never to pack) and the whole order ships once, when every title in it is out. The columns are with the table
-- (_catalog.sql), the status with the orders' check, and payment takes a pre-order copy in fulfil_order (_orders.sql).

-- ==== Functions: how many copies are pre-ordered, and how many are left

-- On pre-order: announced with a release date and not yet released. Plain SQL and immutable, so it is inlined
-- wherever it is read. A pre-order line's copies are not taken from stock while its title is on pre-order; once
-- it is released they are (the release sets the stock from the first delivery less the copies owed), so the
-- stock history, a cancellation's copies put back and this rule agree.
create function public.on_preorder(p_release_date date, p_released_at timestamptz) returns boolean
language sql immutable as $$
  select p_release_date is not null and p_released_at is null
$$;

-- Copies pre-ordered: the quantity of this title on paid orders waiting for a release. A cancelled or refunded
-- order is no longer 'preorder', so its copies are free again.
create function public.preorder_copies(p_product_id text) returns integer
language sql stable set search_path = '' as $$
  select coalesce(sum(oi.quantity), 0)::integer
    from public.order_items oi
    join public.orders o on o.id = oi.order_id
   where oi.product_id = p_product_id and o.status = 'preorder' and o.payment_status = 'paid';
$$;

-- Copies left to pre-order: the allocation less the copies pre-ordered, never below 0, and 0 for a title not on
-- pre-order. The one rule checkout, payment and the live catalog read.
create function public.preorder_left(p_product_id text) returns integer
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select greatest(p.preorder_allocation - public.preorder_copies(p.id), 0)
      from public.products p
     where p.id = p_product_id and public.on_preorder(p.release_date, p.released_at)
  ), 0);
$$;

-- The books for sale as the live catalog and checkout read them (featured first, then by title): the table's
-- columns, the release date while the title is on pre-order ('YYYY-MM-DD', else null) and the copies left to
-- pre-order. p_ids narrows it to a cart's books.
create function public.catalog_for_sale(p_ids text[] default null) returns table (
  id text, title text, description text, price numeric, image_url text, category text, stock integer, weight numeric,
  dimensions jsonb, featured boolean, release_date text, preorder_left integer
)
language sql stable security definer set search_path = '' as $$
  select p.id, p.title, p.description, p.price, p.image_url, p.category, p.stock, p.weight, p.dimensions, p.featured,
         case when public.on_preorder(p.release_date, p.released_at) then to_char(p.release_date, 'YYYY-MM-DD') end,
         public.preorder_left(p.id)
    from public.products p
   where p.for_sale and (p_ids is null or p.id = any (p_ids))
   order by p.featured desc, p.title;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the release

-- What keeps a title's parcels abroad from being declared: the customs columns it lacks (in the book file's order)
-- and the paid orders waiting for it that go outside Australia (0 when nothing is missing). A title may be announced
-- before its printer's customs data exists, but once released it is sold to any country and a parcel abroad must
-- declare every book in it, so the release refuses while any column is missing, whether or not an order waiting goes
-- abroad (and the back office's Pre-orders says so ahead of the day). Answers { missing: [column names], abroad }.
create function public.preorder_customs_gap(p_product_id text) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
      'missing', to_jsonb(m.missing),
      'abroad', case when cardinality(m.missing) = 0 then 0 else (
        select count(*)::integer
          from public.orders o
         where o.status = 'preorder' and o.payment_status = 'paid'
           and upper(btrim(coalesce(o.shipping_address ->> 'country', ''))) not in ('', 'AU')
           and exists (select 1 from public.order_items oi where oi.order_id = o.id and oi.product_id = p_product_id)
      ) end)
    from (
      select array_remove(array[
          case when p.customs_description is null then 'customs_description' end,
          case when p.hs_code is null then 'hs_code' end,
          case when p.origin_country is null then 'origin_country' end], null) as missing
        from public.products p
       where p.id = p_product_id
    ) m;
$$;

-- Releases a title: the stock is the first delivery less the copies owed to the orders waiting (a smaller delivery
-- is refused: every pre-order must be filled), the change is in the stock history, and each paid order waiting
-- whose every pre-order title is now out becomes to pack, oldest paid first. Answers { outcome: 'released', stock,
-- owed, orders: [ids, oldest paid first] }, { outcome: 'too_few', owed }, { outcome: 'customs_missing', abroad,
-- missing } (the title lacks customs data, which every parcel abroad declares once it is out, with the orders
-- waiting that go abroad: nothing changes) or { outcome:
-- 'not_preorder' }. Called by release_title (staff) and release_due_titles (the daily release), which name who
-- released it.
create function public.release_title_as(p_product_id text, p_first_delivery integer, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_product public.products%rowtype;
  v_owed integer;
  v_orders uuid[];
  v_customs jsonb;
begin
  if p_first_delivery is null or p_first_delivery not between 0 and 100000 then
    raise exception 'The first delivery must be a whole number of copies from 0 to 100000.' using errcode = '22023';
  end if;
  -- The product's lock is the one payment takes: no pre-order is paid between counting the copies owed and the release.
  v_product := public.lock_product(p_product_id);
  if not public.on_preorder(v_product.release_date, v_product.released_at) then
    return jsonb_build_object('outcome', 'not_preorder');
  end if;
  v_owed := public.preorder_copies(p_product_id);
  if p_first_delivery < v_owed then
    return jsonb_build_object('outcome', 'too_few', 'owed', v_owed);
  end if;
  v_customs := public.preorder_customs_gap(p_product_id);
  if jsonb_array_length(v_customs -> 'missing') > 0 then
    return jsonb_build_object('outcome', 'customs_missing', 'abroad', (v_customs ->> 'abroad')::integer, 'missing', v_customs -> 'missing');
  end if;
  update public.products set released_at = now(), stock = p_first_delivery - v_owed, preorder_first_delivery = p_first_delivery where id = p_product_id;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor)
    values (p_product_id, v_product.stock, p_first_delivery - v_owed,
      format('Released: first delivery of %s, %s pre-ordered', p_first_delivery, v_owed), left(p_actor, 254));
  with moved as (
    update public.orders o set status = 'processing'
     where o.status = 'preorder' and o.payment_status = 'paid'
       and exists (select 1 from public.order_items oi where oi.order_id = o.id and oi.product_id = p_product_id)
       and not exists (
         select 1 from public.order_items oi join public.products p on p.id = oi.product_id
          where oi.order_id = o.id and public.on_preorder(p.release_date, p.released_at))
    returning o.id, o.paid_at
  ), events as (
    insert into public.order_events (order_id, action, detail, actor)
    select id, 'preorder_released', v_product.title || ' is out: the order is to pack', left(p_actor, 254) from moved order by paid_at, id
  )
  select coalesce(array_agg(id order by paid_at, id), '{}') into v_orders from moved;
  return jsonb_build_object('outcome', 'released', 'stock', p_first_delivery - v_owed, 'owed', v_owed, 'orders', to_jsonb(v_orders));
end;
$$;

-- Release now, from the back office (staff only).
create function public.release_title(p_product_id text, p_first_delivery integer) returns jsonb
language sql security definer set search_path = '' as $$
  select public.release_title_as(p_product_id, p_first_delivery, public.require_staff());
$$;

-- The daily release: every title on pre-order whose release date has come (Sydney's day) and whose first delivery
-- the publisher entered. One without it waits (the back office says so); one refused (too small a delivery, or
-- no customs data) stays on pre-order and is tried again the next day. Answers [{ product_id,
-- title, outcome, … as release_title_as }] for the titles it tried.
create function public.release_due_titles() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_title record;
  v_results jsonb := '[]'::jsonb;
begin
  for v_title in
    select id, title, preorder_first_delivery from public.products
     where public.on_preorder(release_date, released_at) and release_date <= (now() at time zone 'Australia/Sydney')::date
       and preorder_first_delivery is not null
     order by release_date, id
  loop
    v_results := v_results || jsonb_build_array(jsonb_build_object('product_id', v_title.id, 'title', v_title.title)
      || public.release_title_as(v_title.id, v_title.preorder_first_delivery, 'Release date'));
  end loop;
  return v_results;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the back office's Pre-orders

-- Every title on pre-order: its date, allocation, first delivery, copies pre-ordered and left, orders waiting,
-- the money taken for its copies, shoppers confirmed on its waiting list, whether its date has come with no
-- first delivery entered (the daily release then waits), and the customs data it lacks with its orders waiting
-- that go abroad (the release refuses until it is there). With what is still owed across them for the Sales screen.
create function public.admin_list_preorders() returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select jsonb_build_object(
    'titles', (
      select coalesce(jsonb_agg(jsonb_build_object(
          'id', p.id, 'title', p.title, 'release_date', p.release_date, 'allocation', p.preorder_allocation,
          'first_delivery', p.preorder_first_delivery, 'copies', public.preorder_copies(p.id), 'left', public.preorder_left(p.id),
          'orders', w.orders, 'money', w.money,
          'waiting', (select count(*) from public.waiting_for(p.id)),
          'due_without_delivery', p.release_date <= (now() at time zone 'Australia/Sydney')::date and p.preorder_first_delivery is null,
          'customs', public.preorder_customs_gap(p.id)
        ) order by p.release_date, p.title), '[]'::jsonb)
        from public.products p
        cross join lateral (
          select count(distinct o.id) as orders, coalesce(sum(oi.quantity * oi.price_at_time), 0) as money
            from public.orders o join public.order_items oi on oi.order_id = o.id
           where oi.product_id = p.id and o.status = 'preorder' and o.payment_status = 'paid') w
       where p.for_sale and public.on_preorder(p.release_date, p.released_at)),
    -- Paid and not yet shipped: the copies of titles still on pre-order and what was paid for them.
    'owed', (
      select jsonb_build_object('orders', count(distinct o.id), 'copies', coalesce(sum(oi.quantity), 0), 'money', coalesce(sum(oi.quantity * oi.price_at_time), 0))
        from public.orders o join public.order_items oi on oi.order_id = o.id join public.products p on p.id = oi.product_id
       where o.status = 'preorder' and o.payment_status = 'paid' and public.on_preorder(p.release_date, p.released_at)));
$$;

-- The orders waiting for one title, oldest paid first: who, how many copies, what they paid for them.
create function public.admin_preorder_buyers(p_product_id text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', o.id, 'number', o.number, 'bought_by', o.bought_by, 'email', o.customer_email, 'paid_at', o.paid_at,
      'quantity', oi.quantity, 'amount', oi.quantity * oi.price_at_time, 'total', o.total_amount
    ) order by o.paid_at, o.id), '[]'::jsonb)
    from public.orders o join public.order_items oi on oi.order_id = o.id
   where oi.product_id = p_product_id and o.status = 'preorder' and o.payment_status = 'paid';
$$;

-- Locks a title the back office changes, which must be on pre-order (its row lock is the one payment takes).
create function public.lock_preorder_title(p_product_id text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_product public.products%rowtype;
begin
  v_product := public.lock_product(p_product_id);
  if not public.on_preorder(v_product.release_date, v_product.released_at) then
    raise exception '% is not on pre-order.', v_product.title using errcode = '22023';
  end if;
end;
$$;

-- The allocation (never below the copies already pre-ordered) and the first delivery expected (null: not known
-- yet). Answers { allocation, first_delivery, left }.
create function public.admin_set_preorder(p_product_id text, p_allocation integer, p_first_delivery integer) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_copies integer;
begin
  perform public.require_staff();
  if p_allocation is null or p_allocation not between 0 and 1000000 then
    raise exception 'The allocation must be a whole number of copies from 0 to 1000000.' using errcode = '22023';
  end if;
  if p_first_delivery is not null and p_first_delivery not between 0 and 100000 then
    raise exception 'The first delivery must be a whole number of copies from 0 to 100000.' using errcode = '22023';
  end if;
  -- The lock payment takes: the copies counted here are every one paid for.
  perform public.lock_preorder_title(p_product_id);
  v_copies := public.preorder_copies(p_product_id);
  if p_allocation < v_copies then
    raise exception 'The allocation cannot be below the % copies already pre-ordered.', v_copies using errcode = '22023';
  end if;
  if p_first_delivery is not null and p_first_delivery < v_copies then
    raise exception 'The first delivery cannot be smaller than the % copies pre-ordered: every pre-order must be filled.', v_copies using errcode = '22023';
  end if;
  update public.products set preorder_allocation = p_allocation, preorder_first_delivery = p_first_delivery where id = p_product_id;
  return jsonb_build_object('allocation', p_allocation, 'first_delivery', p_first_delivery, 'left', public.preorder_left(p_product_id));
end;
$$;

-- Moves a title's release date (not to a day already past in Sydney). Answers { release_date, orders: [ids of the
-- paid orders waiting for it] }, whose buyers the server then tells once each (claim_preorder_date_email).
create function public.admin_move_release_date(p_product_id text, p_date date) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_orders uuid[];
begin
  perform public.require_staff();
  if p_date is null or p_date < (now() at time zone 'Australia/Sydney')::date then
    raise exception 'Choose a release date from today on: a date in the past cannot be a release date.' using errcode = '22023';
  end if;
  perform public.lock_preorder_title(p_product_id);
  update public.products set release_date = p_date where id = p_product_id;
  select coalesce(array_agg(o.id order by o.paid_at, o.id), '{}') into v_orders
    from public.orders o
   where o.status = 'preorder' and o.payment_status = 'paid'
     and exists (select 1 from public.order_items oi where oi.order_id = o.id and oi.product_id = p_product_id);
  return jsonb_build_object('release_date', p_date, 'orders', to_jsonb(v_orders));
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the buyers' emails, each claimed once (given back by clearing the column when the send fails)

-- "Your pre-order is being packed": once, for an order a release made to pack.
create function public.claim_preorder_ready_email(p_order_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  with claimed as (
    update public.orders o set preorder_ready_email_sent_at = now()
     where o.id = p_order_id and o.payment_status = 'paid' and o.status in ('processing', 'shipped', 'completed')
       and o.preorder_ready_email_sent_at is null
       and exists (select 1 from public.order_events e where e.order_id = o.id and e.action = 'preorder_released')
    returning 1
  )
  select exists (select 1 from claimed);
$$;

-- The new date: once per date an order waiting is told (the latest date of its titles still on pre-order, the day
-- the whole order ships). Moving the date again, or again to the same day after a failed send, tells whoever was
-- not yet told of it.
create function public.claim_preorder_date_email(p_order_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  with ships as (
    select max(p.release_date) as on_date
      from public.order_items oi join public.products p on p.id = oi.product_id
     where oi.order_id = p_order_id and public.on_preorder(p.release_date, p.released_at)
  ), claimed as (
    update public.orders o set preorder_date_emailed = ships.on_date
      from ships
     where o.id = p_order_id and o.status = 'preorder' and o.payment_status = 'paid' and ships.on_date is not null
       and o.preorder_date_emailed is distinct from ships.on_date
    returning 1
  )
  select exists (select 1 from claimed);
$$;

-- ==== Grants (this file's objects; the files before it are granted in _grants.sql)

revoke all on function public.on_preorder(date, timestamptz), public.preorder_copies(text), public.preorder_left(text), public.catalog_for_sale(text[]),
  public.preorder_customs_gap(text), public.release_title_as(text, integer, text), public.release_title(text, integer), public.release_due_titles(), public.lock_preorder_title(text),
  public.admin_list_preorders(), public.admin_preorder_buyers(text), public.admin_set_preorder(text, integer, integer),
  public.admin_move_release_date(text, date), public.claim_preorder_ready_email(uuid), public.claim_preorder_date_email(uuid)
  from public, anon, authenticated, service_role;
-- The server functions: the live catalog and checkout, the daily release and the buyers' emails.
grant execute on function public.preorder_left(text), public.catalog_for_sale(text[]), public.release_due_titles(),
  public.claim_preorder_ready_email(uuid), public.claim_preorder_date_email(uuid) to service_role;
-- The back office (each checks require_staff).
grant execute on function public.release_title(text, integer), public.admin_list_preorders(), public.admin_preorder_buyers(text),
  public.admin_set_preorder(text, integer, integer), public.admin_move_release_date(text, date) to authenticated;
