-- The back office, continued: refunds in part (reserved under the order's lock, then settled), and the customers,
-- a page at a time and one at a time.

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: refunds in part

-- Reserves a part refund. Answers { outcome: 'reserved', refund_id, remaining } (remaining once this one is
-- paid back), { outcome: 'too_much', remaining } or { outcome: 'not_refundable' }.
create function public.begin_part_refund(p_order_id uuid, p_amount numeric, p_reason text, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_reason text := public.part_refund_reason(p_amount, p_reason, 500, 'refund');
  v_order public.orders%rowtype;
begin
  -- Every reservation for this order waits here for the one before it: what is left is read after it committed.
  v_order := public.lock_order(p_order_id);
  if v_order.payment_status <> 'paid' or v_order.refunded_at is not null or v_order.checkout_session_id is null then
    return jsonb_build_object('outcome', 'not_refundable');
  end if;
  return public.reserve_part_refund(p_order_id, v_order.total_amount, p_amount, v_reason, p_actor);
end;
$$;

-- Settles a reserved part refund with the provider's answer (its refund id, or why it failed) and writes it to
-- the order's history. When the parts add up to the whole payment, the order becomes refunded (the customer
-- has had an email for each part, so no full-refund email follows). Answers { outcome: 'succeeded' | 'failed'
-- | 'already', amount, refunded, remaining, fully_refunded }.
create function public.settle_part_refund(p_refund_id uuid, p_provider_refund_id text, p_failure text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
create function public.admin_order_refunds(p_order_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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
create function public.admin_list_customers(p_search text, p_cursor text default null, p_limit integer default 50) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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
create function public.admin_get_customer(p_email text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select jsonb_build_object(
      'email', c.email,
      'name', coalesce((array_agg(o.buyer order by o.paid_at desc) filter (where o.buyer is not null))[1], ''),
      'has_account', bool_or(o.user_id is not null) or exists (select 1 from auth.users u where lower(u.email) = c.email and u.email_confirmed_at is not null),
      'orders', count(*),
      'total_spent', sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)),
      'last_order_at', max(o.paid_at),
      'order_list', jsonb_agg(jsonb_build_object('id', o.id, 'number', o.number, 'created_at', o.created_at, 'paid_at', o.paid_at, 'customer_email', o.customer_email,
          'customer_name', o.customer_name, 'buyer_name', o.buyer, 'is_gift', o.is_gift, 'status', o.status, 'payment_status', o.payment_status, 'total_amount', o.total_amount,
          'tracking_number', o.tracking_number, 'refunded_at', o.refunded_at, 'delivery_method', o.shipping_method ->> 'name',
          'item_count', (select coalesce(sum(i.quantity), 0) from public.order_items i where i.order_id = o.id)) order by o.paid_at desc))
    from (select lower(btrim(coalesce(p_email, ''))) as email) c
    join (select x.*, public.order_buyer_name(x.buyer_name, x.customer_name, x.is_gift) as buyer from public.orders x) o on lower(o.customer_email) = c.email
    where o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    group by c.email;
$$;
