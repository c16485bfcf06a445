-- The back office, continued (_back_office.sql has the sales tables and the shared rules): the order lists and one
-- order's detail, fixing an order (note, address, a delivery taken back) and cancelling a paid one.

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
create function public.admin_list_orders(p_view text, p_search text, p_cursor text default null, p_limit integer default 50) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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

-- One order as the detail view and the packing slip read it (admin_get_orders, and admin_get_order through it): its
-- history in time order, its shipment at the shipping platform, and an order on account's paperwork.
create function public.order_detail(p_order_id uuid) returns jsonb
language sql stable as $$
  select to_jsonb(o.*) - 'status_token' - 'shipping_email_tracking'
      || jsonb_build_object(
        'items', public.order_items_json(o.id),
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

-- Many orders in one call, in the order asked, for printing every packing slip at once: up to 500.
create function public.admin_get_orders(p_order_ids uuid[]) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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

-- One order with its items, history and internal note, for the detail view and the packing slip: the list of one,
-- with its checks (staff only; an order that does not exist is not found).
create function public.admin_get_order(p_order_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.admin_get_orders(array[p_order_id]) -> 0;
$$;

-- Sets the order's internal note (empty clears it).
create function public.admin_set_order_note(p_order_id uuid, p_note text) returns boolean
language plpgsql security definer set search_path = '' as $$
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
create function public.admin_change_address(p_order_id uuid, p_address jsonb) returns text
language plpgsql security definer set search_path = '' as $$
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

  v_order := public.lock_order(p_order_id);
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
create function public.admin_undo_delivered(p_order_id uuid) returns text
language plpgsql security definer set search_path = '' as $$
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
create function public.cancel_paid_order(p_order_id uuid, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_order public.orders%rowtype;
begin
  v_order := public.lock_order(p_order_id);
  if v_order.kind = 'invoice' then
    return 'on_account';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'preorder') then
    return 'not_cancellable';
  end if;
  perform public.lock_order_books(p_order_id);
  update public.products p set stock = p.stock + oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id and not public.on_preorder(p.release_date, p.released_at);
  update public.orders set status = 'cancelled', payment_status = 'refund_due', cancelled_at = now() where id = p_order_id;
  insert into public.order_events (order_id, action, detail, actor) values (p_order_id, 'cancelled', 'stock put back', p_actor);
  return 'cancelled';
end;
$$;
