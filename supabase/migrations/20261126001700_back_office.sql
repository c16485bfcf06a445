-- The back office: what the staff read and change from /admin, and the figures they read, at 100,000 orders. Every
-- list is read a page at a time along an index in its own order (keyset paging: the next page starts after the last
-- row shown), searches use indexes, the sales figures are worked out in one pass over the period, and the small rules
-- the lists share (what was refunded, the buyer's name, GST) are plain SQL the planner folds into the query instead
-- of a call per order. The staff functions check the caller with require_staff (_foundation.sql).

-- ===============================================================================================================
-- Tables

-- Sales from a summary per Sydney day. Each day's figures (and its books) are summed once from sales_orders_in,
-- the one place for what a sale, a refund and GST are, and kept; any change to an order, its books or its refunds
-- marks its paid day stale (a row in sales_days_stale, nothing more in the way of a payment), and the next look at
-- a period sums its stale days again first. A period's figures are then at most a few thousand day rows whatever
-- the number of orders.
create table public.sales_days (
  day date primary key,
  orders integer not null,
  goods numeric not null,
  discounts numeric not null,
  shipping numeric not null,
  refunds numeric not null,
  net numeric not null,
  -- Null when the day sold nothing to Australia (or abroad), as a sum of nothing is.
  taxable_sales numeric,
  export_sales numeric,
  copies bigint not null
);

create table public.sales_day_titles (
  day date not null references public.sales_days (day) on delete cascade,
  product_id text not null,
  title text not null,
  copies bigint not null,
  goods numeric not null,
  primary key (day, product_id)
);

-- A row per change, never unique: two payments at once never wait on each other's mark.
create table public.sales_days_stale (id bigint generated always as identity primary key, day date not null);

-- ===============================================================================================================
-- Indexes

create index sales_days_stale_day_idx on public.sales_days_stale (day);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the shared rules
--
-- The rules the lists and figures share, as SQL the planner inlines: neither security definer nor a SET clause
-- (either stops inlining). They name every object with its schema, and only the security-definer functions below
-- call them.

-- What has been refunded on an order, given its settled part refunds: all of it once refunded in full.
create function public.refunded_amount(p_total numeric, p_refunded_at timestamptz, p_parts numeric)
returns numeric
language sql
immutable
as $$
  select case when p_refunded_at is not null then p_total else coalesce(p_parts, 0) end;
$$;

-- What has been refunded on an order: all of it once it is refunded in full, else its settled part refunds.
-- The one rule the sales figures and the customers' totals use.
create function public.order_refunded_amount(p_order_id uuid, p_total numeric, p_refunded_at timestamptz)
returns numeric
language sql
stable
as $$
  select public.refunded_amount(p_total, p_refunded_at,
    (select sum(r.amount) from public.order_refunds r where r.order_id = p_order_id and r.status = 'succeeded'));
$$;

-- The orders a period's sales count (Sydney dates, both ends included): paid between the period's first and last
-- day, as a range of times the paid-at index serves, with what was refunded on each (in part or in full) and the
-- buyer's name.
create function public.sales_orders_in(p_from date, p_to date)
returns table (
  id uuid, paid_at timestamptz, paid_on date, customer_email text, customer_name text, user_id uuid, status text, payment_status text,
  subtotal_amount numeric, shipping_amount numeric, total_amount numeric, refunded_amount numeric, refund_id text, refunded_at timestamptz,
  country text, shipping_address jsonb, delivery_method text, discount_amount numeric, promotion_code text, buyer_name text, is_gift boolean
)
language sql
stable
as $$
  select o.id, o.paid_at, (o.paid_at at time zone 'Australia/Sydney')::date, o.customer_email, o.customer_name, o.user_id, o.status, o.payment_status,
    o.subtotal_amount, o.shipping_amount, o.total_amount,
    public.refunded_amount(o.total_amount, o.refunded_at, r.amount),
    coalesce(o.refund_id, r.refund_ids),
    o.refunded_at, upper(coalesce(o.shipping_address ->> 'country', '')), o.shipping_address, o.shipping_method ->> 'name',
    o.discount_amount, o.promotion_code, public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift), o.is_gift
  from public.orders o
  -- Per order (an index probe), so a page of the period is read along the paid-at index and stops at the page.
  left join lateral (
    select sum(x.amount) as amount, string_agg(x.provider_refund_id, ' ' order by x.created_at) as refund_ids
    from public.order_refunds x where x.order_id = o.id and x.status = 'succeeded'
  ) r on true
  where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    and o.paid_at >= (p_from::timestamp at time zone 'Australia/Sydney')
    and o.paid_at < ((p_to + 1)::timestamp at time zone 'Australia/Sydney');
$$;

-- Page cursors: '<time>|<key>', the time in microseconds since 1970 (exact, and the same in every time zone), the
-- key the row's tie-breaker (an order's id, a customer's address). Opaque to the back office, which hands back the
-- `next` it was given.
create function public.page_cursor(p_at timestamptz, p_key text)
returns text
language sql
immutable
as $$
  select (extract(epoch from p_at) * 1000000)::bigint || '|' || p_key;
$$;

-- The cursor's time and key; a cursor this database did not give refused with a sentence (22023), never a 500.
create function public.read_page_cursor(p_cursor text, p_key_is_uuid boolean, out at timestamptz, out key text)
language plpgsql
stable
set search_path = ''
as $$
begin
  if p_cursor is null then
    return;
  end if;
  if p_cursor !~ '^-?\d{1,17}\|.{1,254}$' then
    raise exception 'That page link is not one this list gave: start again from the first page.' using errcode = '22023';
  end if;
  begin
    at := to_timestamp(0) + split_part(p_cursor, '|', 1)::bigint * interval '1 microsecond';
    key := substr(p_cursor, position('|' in p_cursor) + 1);
    if p_key_is_uuid then
      key := key::uuid::text;
    end if;
  exception when others then
    raise exception 'That page link is not one this list gave: start again from the first page.' using errcode = '22023';
  end;
end;
$$;

-- p_limit kept within what one page may hold.
create function public.page_limit(p_limit integer, p_default integer, p_most integer)
returns integer
language sql
immutable
as $$
  select least(greatest(coalesce(p_limit, p_default), 1), p_most);
$$;

-- A search as a LIKE pattern for the text anywhere, its % and _ taken literally.
create function public.contains_pattern(p_search text)
returns text
language sql
immutable
as $$
  select '%' || replace(replace(replace(p_search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the header

-- How many orders wait to be packed (order_to_pack), for the header's Back office link: null for anyone who is not
-- staff, so the header asks without knowing who is staff and shows nothing to a shopper.
create function public.staff_orders_to_pack()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select case when public.is_staff() then (select count(*)::integer from public.orders o
    where public.order_to_pack(o.status, o.payment_status, o.ship_before_payment)) end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: orders in the back office
--
-- The order lists read a page at a time along an index in their own order (keyset paging). Fixing an order: an
-- internal note the customer never sees, a corrected delivery address until the parcel ships (the old address kept
-- in the order's history), a delivery marked by mistake taken back to shipped. Each change is appended to the
-- order's history with who made it.

-- The order lists, a page at a time: { orders: [...], next: cursor or null }. To pack (the rule's view, on its
-- index's condition) oldest paid first, the others newest first; ties by id. Unpaid checkout attempts have a view of
-- their own and are in no other. A search finds an order by its number exactly, by the start of its id (a prefix of
-- its text is a range of the primary key) or by part of the address (the trigram index). The packer's list: where
-- each parcel goes and whether it is a gift, beside how (Express or Standard), and the buyer beside a gift's
-- recipient.
create function public.admin_list_orders(p_view text, p_search text, p_cursor text default null, p_limit integer default 50)
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

-- One order as the detail view and the packing slip read it (admin_get_order and admin_get_orders share it): its
-- history in time order, its shipment at the shipping platform, and an order on account's paperwork.
create function public.order_detail(p_order_id uuid)
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

-- One order with its items, history and internal note, for the detail view and the packing slip.
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
  v_result := public.order_detail(p_order_id);
  if v_result is null then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  return v_result;
end;
$$;

-- Many orders in one call, in the order asked, for printing every packing slip at once: up to 500.
create function public.admin_get_orders(p_order_ids uuid[])
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
  v_missing uuid;
begin
  perform public.require_staff();
  if p_order_ids is null or cardinality(p_order_ids) > 500 then
    raise exception 'Give the orders'' ids, up to 500 at a time.' using errcode = '22023';
  end if;
  select x.id into v_missing from unnest(p_order_ids) x(id)
    where x.id is null or not exists (select 1 from public.orders o where o.id = x.id) limit 1;
  if found then
    raise exception 'Order % not found', v_missing using errcode = 'P0002';
  end if;
  select coalesce(jsonb_agg(public.order_detail(x.id) order by x.n), '[]'::jsonb) into v_result
    from unnest(p_order_ids) with ordinality x(id, n);
  return v_result;
end;
$$;

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
  -- A pre-order waiting for its title may move house too.
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'preorder') or v_order.shipped_at is not null then
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

-- Cancels a paid card order that has not shipped (stock back, payment refund due), or a pre-order waiting for its
-- title (the copies of a title still on pre-order were never taken from stock, so only the others go back). An
-- invoice's order is not cancelled here: its money goes back by a credit note on the invoice. 'cancelled',
-- 'not_cancellable' or 'on_account'.
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
  if v_order.kind = 'invoice' then
    return 'on_account';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'preorder') then
    return 'not_cancellable';
  end if;
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;
  update public.products p set stock = p.stock + oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id and not public.on_preorder(p.release_date, p.released_at);
  update public.orders set status = 'cancelled', payment_status = 'refund_due', cancelled_at = now() where id = p_order_id;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'cancelled', 'stock put back', p_actor);
  return 'cancelled';
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: refunds in part

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

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: sales, customers and tax
--
-- Every figure is computed here, in one call per view; unpaid checkout attempts are never sales or customers. A
-- sale counts on the day it was paid, Sydney time; a refund counts against its order. The buyer and the recipient
-- are two people: customers and the accountant's sales list are about buyers. One GST rule (gst_applies,
-- gst_included) is shared by the sales figures and every order's tax invoice.
--
-- Sales come from a summary per Sydney day (sales_days): any change to an order, its books or its refunds marks its
-- paid day stale, and the next look at a period sums its stale days again first.

-- Customers are the buyers: everyone who has paid for an order, guests and accounts alike, one row per address (its
-- case ignored), named by the payer's latest name (never a gift's recipient) and found by it or by the recipient's,
-- with how many orders, what they spent (less refunds in part or in full) and their last order.
--
-- A page at a time, most recent buyer first (then by address): { customers: [...], next }. Without a search the
-- page is found by walking paid orders newest first and keeping each address's latest order (so the walk stops
-- after a page of customers); with one of 3 letters or more, the addresses matching it come from the trigram
-- indexes. Only the page's customers are summed, and the sign-ins are read once for the page.
create function public.admin_list_customers(p_search text, p_cursor text default null, p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(btrim(coalesce(p_search, '')));
  v_limit integer := public.page_limit(p_limit, 50, 200);
  v_pattern text := public.contains_pattern(lower(btrim(coalesce(p_search, ''))));
  v_after timestamptz;
  v_after_email text;
  v_emails text[];
  v_confirmed text[];
  v_rows jsonb;
  v_next text;
begin
  perform public.require_staff();
  select c.at, c.key into v_after, v_after_email from public.read_page_cursor(p_cursor, false) c;

  if char_length(v_search) < 3 then
    -- No search, or one too short for the trigram indexes (which most customers match): the walk, each latest order
    -- kept when its customer matches.
    select array_agg(w.email order by w.paid_at desc, w.email) into v_emails from (
      select lower(o.customer_email) as email, o.paid_at
      from public.orders o
      where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
        and (v_after is null or o.paid_at < v_after or (o.paid_at = v_after and lower(o.customer_email) > v_after_email))
        and not exists (select 1 from public.orders l
          where lower(l.customer_email) = lower(o.customer_email) and l.payment_status in ('paid', 'refund_due') and l.paid_at is not null
            and (l.paid_at > o.paid_at or (l.paid_at = o.paid_at and l.id > o.id)))
        and (v_search = '' or lower(o.customer_email) like v_pattern or exists (select 1 from public.orders m
          where lower(m.customer_email) = lower(o.customer_email) and m.payment_status in ('paid', 'refund_due') and m.paid_at is not null
            and (lower(m.customer_name) like v_pattern or lower(coalesce(m.buyer_name, '')) like v_pattern)))
      order by o.paid_at desc, lower(o.customer_email)
      limit v_limit + 1
    ) w;
  else
    -- The addresses with a paid order matching it (by the trigram indexes), each with its latest paid order (one
    -- probe of the customer index).
    select array_agg(m.email order by m.last_order_at desc, m.email) into v_emails from (
      select c.email, l.last_order_at
      from (
        select distinct lower(s.customer_email) as email from public.orders s
        where s.payment_status in ('paid', 'refund_due') and s.paid_at is not null
          and (lower(s.customer_email) like v_pattern or lower(s.customer_name) like v_pattern or lower(coalesce(s.buyer_name, '')) like v_pattern)
      ) c
      cross join lateral (
        select max(o.paid_at) as last_order_at from public.orders o
        where lower(o.customer_email) = c.email and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
      ) l
      where v_after is null or l.last_order_at < v_after or (l.last_order_at = v_after and c.email > v_after_email)
      order by l.last_order_at desc, c.email
      limit v_limit + 1
    ) m;
  end if;
  v_emails := coalesce(v_emails, '{}');
  if cardinality(v_emails) > v_limit then
    v_emails := v_emails[1:v_limit];
    v_next := '';
  end if;

  v_confirmed := array(select lower(u.email) from auth.users u where u.email_confirmed_at is not null and lower(u.email) = any (v_emails));
  select coalesce(jsonb_agg(jsonb_build_object('email', c.email, 'name', coalesce(c.name, ''), 'orders', c.orders, 'total_spent', c.total_spent,
      'last_order_at', c.last_order_at, 'has_account', c.linked or c.email = any (v_confirmed))
      order by c.last_order_at desc, c.email), '[]'::jsonb),
      case when v_next is not null then public.page_cursor(min(c.last_order_at), (array_agg(c.email order by c.last_order_at, c.email desc))[1]) end
    into v_rows, v_next
    from (
      select lower(o.customer_email) as email,
        (array_agg(public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift) order by o.paid_at desc)
          filter (where public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift) is not null))[1] as name,
        bool_or(o.user_id is not null) as linked,
        count(*) as orders,
        sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)) as total_spent,
        max(o.paid_at) as last_order_at
      from public.orders o
      where lower(o.customer_email) = any (v_emails) and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
      group by lower(o.customer_email)
    ) c;
  return jsonb_build_object('customers', v_rows, 'next', v_next);
end;
$$;

-- One customer (by address, its case ignored) with each of their paid orders, newest first, each with its number;
-- null when none.
create function public.admin_get_customer(p_email text)
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
      'name', coalesce((array_agg(o.buyer order by o.paid_at desc) filter (where o.buyer is not null))[1], ''),
      'has_account', bool_or(o.user_id is not null) or exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null),
      'orders', count(*),
      'total_spent', sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)),
      'last_order_at', max(o.paid_at),
      'order_list', jsonb_agg(jsonb_build_object('id', o.id, 'number', o.number, 'created_at', o.created_at, 'paid_at', o.paid_at, 'customer_email', o.customer_email,
          'customer_name', o.customer_name, 'buyer_name', o.buyer, 'is_gift', o.is_gift, 'status', o.status, 'payment_status', o.payment_status, 'total_amount', o.total_amount,
          'tracking_number', o.tracking_number, 'refunded_at', o.refunded_at, 'delivery_method', o.shipping_method ->> 'name',
          'item_count', (select coalesce(sum(i.quantity), 0) from public.order_items i where i.order_id = o.id)) order by o.paid_at desc))
    into v_result
    from (select x.*, public.order_buyer_name(x.buyer_name, x.customer_name, x.is_gift) as buyer from public.orders x) o
    where lower(o.customer_email) = v_email and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    having count(*) > 0;
  return v_result;
end;
$$;

-- Sums the given days again from their orders: one pass along the paid-at index from the first to the last of
-- them (a plan per day, or days joined to orders, lets the planner walk every order once per day).
create function public.sum_sales_days(p_days date[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_from date := (select min(d) from unnest(p_days) d);
  v_to date := (select max(d) from unnest(p_days) d);
begin
  if v_from is null then
    return;
  end if;
  -- One summer of a day at a time, the days locked in order: a second waits, then (its next statement seeing the
  -- first's rows) sums them again.
  perform pg_advisory_xact_lock(20261127, d.day - date '2000-01-01') from (select distinct unnest(p_days) as day order by 1) d;
  delete from public.sales_days where day = any (p_days);
  insert into public.sales_days (day, orders, goods, discounts, shipping, refunds, net, taxable_sales, export_sales, copies)
    select o.paid_on, count(*), sum(o.subtotal_amount), sum(o.discount_amount), sum(o.shipping_amount), sum(o.refunded_amount),
      sum(o.total_amount - o.refunded_amount),
      sum(o.total_amount - o.refunded_amount) filter (where public.gst_applies(o.country)),
      sum(o.total_amount - o.refunded_amount) filter (where not public.gst_applies(o.country)),
      0
    from public.sales_orders_in(v_from, v_to) o
    where o.paid_on = any (p_days)
    group by o.paid_on;
  insert into public.sales_day_titles (day, product_id, title, copies, goods)
    select o.paid_on, i.product_id, min(i.title), sum(i.quantity), sum(i.quantity * i.price_at_time)
    from public.sales_orders_in(v_from, v_to) o join public.order_items i on i.order_id = o.id
    where o.paid_on = any (p_days) and o.payment_status = 'paid'
    group by o.paid_on, i.product_id;
  update public.sales_days s set copies = t.copies
    from (select day, sum(copies) as copies from public.sales_day_titles where day = any (p_days) group by day) t
    where s.day = t.day;
end;
$$;

-- The Sydney day an order's sale counts on.
create function public.mark_sales_day_stale(p_paid_at timestamptz)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.sales_days_stale (day) select (p_paid_at at time zone 'Australia/Sydney')::date where p_paid_at is not null;
$$;

create function public.sales_day_stale_by_order()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op <> 'INSERT' then
    perform public.mark_sales_day_stale(old.paid_at);
  end if;
  if tg_op <> 'DELETE' then
    perform public.mark_sales_day_stale(new.paid_at);
  end if;
  return null;
end;
$$;

create function public.sales_day_stale_by_line()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A line or a refund of an order: the order's paid day (none while it is unpaid).
  if tg_op <> 'INSERT' then
    perform public.mark_sales_day_stale((select o.paid_at from public.orders o where o.id = old.order_id));
  end if;
  if tg_op <> 'DELETE' then
    perform public.mark_sales_day_stale((select o.paid_at from public.orders o where o.id = new.order_id));
  end if;
  return null;
end;
$$;

-- Sales for a period: orders, copies sold per title, goods, shipping, refunds, net, and the GST included (one
-- eleventh of what Australian buyers paid and kept, rounded to the cent; exports are GST-free). Copies sold leave out
-- orders cancelled or refunded in full. By day for a year at most (366 days); longer periods by week, month or year.
-- Volatile: it first sums the period's stale days again (each statement then sees what the one before it wrote).
create function public.admin_sales(p_from date, p_to date, p_by text default 'day')
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_days date[];
  v_result jsonb;
begin
  perform public.require_staff();
  if p_by is null or p_by not in ('day', 'week', 'month', 'year') then
    raise exception 'Group sales by day, week, month or year.' using errcode = '22023';
  end if;
  if p_from is null or p_to is null or p_from > p_to then
    raise exception 'Choose a period whose start is on or before its end.' using errcode = '22023';
  end if;
  if p_to - p_from > 3660 then
    raise exception 'Choose a period of ten years or less.' using errcode = '22023';
  end if;
  if p_by = 'day' and p_to - p_from >= 366 then
    raise exception 'Sales by day cover a year (366 days) at most: group a longer period by week, month or year.' using errcode = '22023';
  end if;

  -- Taken by one caller: another asking for the same day waits here, then finds it summed.
  with taken as (delete from public.sales_days_stale where day between p_from and p_to returning day)
  select array_agg(distinct day) into v_days from taken;
  if v_days is not null then
    perform public.sum_sales_days(v_days);
  end if;

  with days as (
    select d.*, date_trunc(p_by, d.day)::date as bucket from public.sales_days d where d.day between p_from and p_to
  ),
  by_bucket as (
    select d.bucket, sum(d.orders) as orders, sum(d.copies) as copies, sum(d.goods) as goods, sum(d.discounts) as discounts, sum(d.shipping) as shipping,
      sum(d.refunds) as refunds, sum(d.net) as net, sum(d.taxable_sales) as taxable_sales, sum(d.export_sales) as export_sales
    from days d group by d.bucket
  ),
  series as (
    select g::date as bucket, coalesce(b.orders, 0) as orders, coalesce(b.copies, 0) as copies, coalesce(b.goods, 0) as goods,
      coalesce(b.discounts, 0) as discounts, coalesce(b.shipping, 0) as shipping, coalesce(b.refunds, 0) as refunds,
      coalesce(b.net, 0) as net, public.gst_included(b.taxable_sales) as gst
    from generate_series(date_trunc(p_by, p_from), date_trunc(p_by, p_to), ('1 ' || p_by)::interval) g
    left join by_bucket b on b.bucket = g::date
  )
  select jsonb_build_object(
    'from', p_from, 'to', p_to, 'by', p_by,
    'totals', (select jsonb_build_object(
        'orders', coalesce(sum(b.orders), 0),
        'goods', coalesce(sum(b.goods), 0),
        'discounts', coalesce(sum(b.discounts), 0),
        'shipping', coalesce(sum(b.shipping), 0),
        'refunds', coalesce(sum(b.refunds), 0),
        'net', coalesce(sum(b.net), 0),
        'taxable_sales', coalesce(sum(b.taxable_sales), 0),
        'export_sales', coalesce(sum(b.export_sales), 0),
        'gst', public.gst_included(sum(b.taxable_sales)),
        'copies', coalesce(sum(b.copies), 0))
      from by_bucket b),
    'series', (select coalesce(jsonb_agg(jsonb_build_object('period', s.bucket, 'orders', s.orders, 'copies', s.copies, 'goods', s.goods, 'discounts', s.discounts,
        'shipping', s.shipping, 'refunds', s.refunds, 'net', s.net, 'gst', s.gst) order by s.bucket), '[]'::jsonb) from series s),
    'titles', (select coalesce(jsonb_agg(t order by t.copies desc, t.title), '[]'::jsonb) from (
        select l.product_id, min(l.title) as title, sum(l.copies) as copies, sum(l.goods) as goods
        from public.sales_day_titles l where l.day between p_from and p_to group by l.product_id) t)
  ) into v_result;
  return v_result;
end;
$$;

-- The period's orders with their lines, for the CSV the accountant imports, a page at a time in the order paid:
-- { orders: [...], next }. The buyer's name (the contact), the recipient's as the delivery name; an order on account
-- carries its organisation, PO number and paperwork (issued, due and paid days).
create function public.admin_sales_orders(p_from date, p_to date, p_cursor text default null, p_limit integer default 1000)
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
      'gst_applies', public.gst_applies(o.country),
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

-- What an order's tax invoice and adjustment notes need beyond the order: whether GST applies, the GST in the
-- total, and each refund that went through (a part refund, and the rest when refunded in full) with its GST.
create function public.order_tax_figures(p_order_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with o as (
    select o.id, o.total_amount, o.refunded_at, o.refund_id, public.gst_applies(o.shipping_address ->> 'country') as taxable
    from public.orders o where o.id = p_order_id
  ),
  parts as (
    select r.amount, r.settled_at as at, r.provider_refund_id as refund_id, r.reason
    from public.order_refunds r join o on r.order_id = o.id where r.status = 'succeeded'
  ),
  refunds as (
    select amount, at, refund_id, reason from parts
    union all
    select o.total_amount - (select coalesce(sum(p.amount), 0) from parts p), o.refunded_at, o.refund_id, 'Refunded in full'
    from o where o.refunded_at is not null and o.total_amount > (select coalesce(sum(p.amount), 0) from parts p)
  )
  select jsonb_build_object(
    'gst_applies', o.taxable,
    'gst', case when o.taxable then public.gst_included(o.total_amount) else 0 end,
    'refunds', (select coalesce(jsonb_agg(jsonb_build_object('amount', r.amount, 'at', r.at, 'refund_id', r.refund_id, 'reason', r.reason,
        'gst', case when o.taxable then public.gst_included(r.amount) else 0 end) order by r.at), '[]'::jsonb) from refunds r))
  from o;
$$;

-- ===============================================================================================================
-- Triggers

create trigger orders_sales_day_stale after insert or delete or update of paid_at, payment_status, subtotal_amount, discount_amount, shipping_amount,
  total_amount, refunded_at, refund_id, shipping_address on public.orders
  for each row execute function public.sales_day_stale_by_order();
create trigger order_items_sales_day_stale after insert or update or delete on public.order_items
  for each row execute function public.sales_day_stale_by_line();
create trigger order_refunds_sales_day_stale after insert or update or delete on public.order_refunds
  for each row execute function public.sales_day_stale_by_line();

-- ===============================================================================================================
-- Row-level security

alter table public.sales_days enable row level security;
alter table public.sales_day_titles enable row level security;
alter table public.sales_days_stale enable row level security;
