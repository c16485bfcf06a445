-- Invoicing, continued (_invoicing.sql has the tables, quote requests and drafts): a sent invoice's life, from
-- holding its copies and making its order to paid, void or written off, shipped before payment, reminded, and
-- credited.

-- Sending. Holds the invoice's copies (taken from stock under the products' row locks, in a fixed order so two
-- sends cannot deadlock, each written to the stock history as held for the invoice), makes its order and marks it
-- sent with its due date. Answers { outcome: 'held', ... the invoice for the provider } | { outcome: 'short',
-- product_id, title, available } | { outcome: 'resume', ... } for a sent invoice the provider has not yet emailed |
-- { outcome: 'already_sent' } | { outcome: 'not_draft', status }.
create function public.invoice_send(p_invoice_id uuid, p_provider text, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
  v_short record;
  v_order_id uuid;
  v_label text;
begin
  v_invoice := public.lock_invoice(p_invoice_id);
  if v_invoice.status = 'sent' and v_invoice.emailed_at is null then
    return public.invoice_for_provider(p_invoice_id) || jsonb_build_object('outcome', 'resume');
  end if;
  if v_invoice.status = 'sent' then
    return jsonb_build_object('outcome', 'already_sent');
  end if;
  if v_invoice.status <> 'draft' then
    return jsonb_build_object('outcome', 'not_draft', 'status', v_invoice.status);
  end if;
  v_label := public.invoice_label(v_invoice.number);

  perform 1 from public.products p where p.id in (select product_id from public.invoice_lines where invoice_id = p_invoice_id) order by p.id for update;
  select p.id, p.title, p.stock into v_short from public.invoice_lines l join public.products p on p.id = l.product_id
    where l.invoice_id = p_invoice_id and p.stock < l.quantity order by l.position limit 1;
  if found then
    return jsonb_build_object('outcome', 'short', 'product_id', v_short.id, 'title', v_short.title, 'available', v_short.stock);
  end if;

  insert into public.orders (customer_email, customer_name, subtotal_amount, shipping_amount, total_amount, shipping_address, shipping_method,
    payment_provider, kind, organisation, po_number, ship_before_payment, status, buyer_name)
  values (v_invoice.email, v_invoice.contact_name, v_invoice.subtotal, v_invoice.shipping_amount, v_invoice.total,
    jsonb_strip_nulls(jsonb_build_object('name', v_invoice.contact_name, 'organisation', v_invoice.organisation,
      'addressLine1', v_invoice.address ->> 'line1', 'addressLine2', nullif(v_invoice.address ->> 'line2', ''), 'city', v_invoice.address ->> 'city',
      'state', v_invoice.address ->> 'state', 'postalCode', v_invoice.address ->> 'postcode', 'country', v_invoice.address ->> 'country',
      'phone', v_invoice.phone)),
    jsonb_build_object('name', v_invoice.shipping_name), p_provider, 'invoice', v_invoice.organisation, v_invoice.po_number,
    v_invoice.ship_before_payment, case when v_invoice.ship_before_payment then 'processing' else 'pending' end, v_invoice.contact_name)
  returning id into v_order_id;
  insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
    select v_order_id, l.product_id, l.title, l.quantity, l.unit_price from public.invoice_lines l where l.invoice_id = p_invoice_id order by l.position;

  perform public.move_order_stock(v_order_id, -1, 'Held for invoice ' || v_label, p_actor);
  insert into public.low_stock_alerts (product_id, level, stock, order_id)
    select p.id, p.low_stock_level, p.stock, v_order_id from public.products p
    where p.id in (select product_id from public.invoice_lines where invoice_id = p_invoice_id) and p.stock < p.low_stock_level
    order by p.id
    on conflict (product_id) where rearmed_at is null do nothing;

  update public.invoices set status = 'sent', sent_at = now(), due_on = (now() at time zone 'Australia/Sydney')::date + terms_days,
    order_id = v_order_id, provider = p_provider
    where id = p_invoice_id;
  insert into public.order_events (order_id, action, detail, actor)
    values (v_order_id, 'invoice_sent', v_label || coalesce(', PO ' || v_invoice.po_number, '') || ', ' || v_invoice.terms_days || ' days', p_actor);
  return public.invoice_for_provider(p_invoice_id) || jsonb_build_object('outcome', 'held');
end;
$$;

-- What the payment provider is given to make and email the invoice.
create function public.invoice_for_provider(p_invoice_id uuid) returns jsonb
language sql stable as $$
  select jsonb_build_object('invoice_id', i.id, 'number', public.invoice_label(i.number), 'order_id', i.order_id, 'email', i.email,
    'contact_name', i.contact_name, 'organisation', i.organisation, 'po_number', i.po_number, 'terms_days', i.terms_days, 'due_on', i.due_on,
    'address', i.address, 'phone', i.phone, 'shipping_name', i.shipping_name, 'shipping_amount', i.shipping_amount, 'total', i.total,
    'gst', i.gst, 'provider_invoice_id', i.provider_invoice_id, 'hosted_url', i.hosted_url,
    'lines', (select jsonb_agg(jsonb_build_object('title', l.title, 'quantity', l.quantity, 'unit_price', l.unit_price, 'amount', l.unit_price * l.quantity)
        order by l.position)
      from public.invoice_lines l where l.invoice_id = i.id))
  from public.invoices i where i.id = p_invoice_id;
$$;

-- The provider made its invoice (p_hosted_url null) or emailed it (with its page's address).
create function public.invoice_provider_step(p_invoice_id uuid, p_provider_invoice_id text, p_hosted_url text, p_actor text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id for update;
  if not found or v_invoice.status = 'draft' then
    raise exception 'Invoice % has not been sent', p_invoice_id using errcode = 'P0002';
  end if;
  if v_invoice.provider_invoice_id is not null and v_invoice.provider_invoice_id <> p_provider_invoice_id then
    raise exception 'Invoice % is already at the provider as %', p_invoice_id, v_invoice.provider_invoice_id using errcode = '23505';
  end if;
  update public.invoices set provider_invoice_id = p_provider_invoice_id, hosted_url = coalesce(p_hosted_url, hosted_url),
    emailed_at = case when p_hosted_url is not null then coalesce(emailed_at, now()) else emailed_at end
    where id = p_invoice_id;
  if p_hosted_url is not null and v_invoice.emailed_at is null then
    insert into public.order_events (order_id, action, detail, actor) values (v_invoice.order_id, 'invoice_emailed', v_invoice.email, p_actor);
  end if;
end;
$$;

-- Paid: the provider's invoice.paid (or the TEST invoice page). The copies stay taken; the order is paid and to
-- pack (unless already shipped). Only the invoice the shop sent, with the provider's id it stored, for its total:
-- 'paid' | 'already' | 'mismatch' | 'not_open'.
create function public.invoice_mark_paid(p_provider_invoice_id text, p_amount_cents bigint, p_currency text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
  v_order public.orders%rowtype;
  v_short boolean := false;
begin
  select * into v_invoice from public.invoices where provider_invoice_id = p_provider_invoice_id for update;
  if not found then
    return 'unknown';
  end if;
  if v_invoice.status = 'paid' then
    return 'already';
  end if;
  if v_invoice.status not in ('sent', 'uncollectible') then
    return 'not_open';
  end if;
  if p_amount_cents is distinct from (v_invoice.total * 100)::bigint or upper(coalesce(p_currency, '')) <> 'AUD' then
    return 'mismatch';
  end if;
  select * into v_order from public.orders where id = v_invoice.order_id for update;
  if v_invoice.status = 'uncollectible' and v_order.status = 'cancelled' then
    -- Written off, then paid after all: its copies went back, so they are taken again if they are there.
    perform public.lock_order_books(v_order.id);
    v_short := exists (select 1 from public.order_items i join public.products p on p.id = i.product_id where i.order_id = v_order.id and p.stock < i.quantity);
    if not v_short then
      perform public.move_order_stock(v_order.id, -1, 'Held for invoice ' || public.invoice_label(v_invoice.number) || ', paid after it was written off', p_actor);
    end if;
  end if;
  update public.invoices set status = 'paid', paid_at = now(), voided_at = null where id = v_invoice.id;
  update public.orders set payment_status = 'paid', paid_at = now(), fulfilled_at = now(),
    status = case when status in ('pending', 'cancelled') then 'processing' else status end, cancelled_at = null
    where id = v_order.id;
  insert into public.order_events (order_id, action, detail, actor)
    values (v_order.id, 'invoice_paid', public.invoice_label(v_invoice.number) || ' ' || public.aud(v_invoice.total)
      || case when v_short then ': paid after it was written off, and its copies are no longer in stock: restock before packing' else '' end, p_actor);
  return 'paid';
end;
$$;

-- Void or written off (uncollectible): the order is cancelled and its copies given back, unless they have been
-- shipped already (ship before payment). Found by the shop's id (the back office) or the provider's (its
-- events): 'closed' | 'already' | 'not_open'.
create function public.invoice_close(p_invoice_id uuid, p_provider_invoice_id text, p_status text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
  v_order public.orders%rowtype;
  v_label text;
begin
  if p_status not in ('void', 'uncollectible') then
    raise exception 'An invoice is closed as void or uncollectible' using errcode = '22023';
  end if;
  if p_invoice_id is not null then
    select * into v_invoice from public.invoices where id = p_invoice_id for update;
  else
    select * into v_invoice from public.invoices where provider_invoice_id = p_provider_invoice_id for update;
  end if;
  if not found then
    return 'unknown';
  end if;
  if v_invoice.status = p_status then
    return 'already';
  end if;
  if v_invoice.status <> 'sent' and not (v_invoice.status = 'uncollectible' and p_status = 'void') then
    return 'not_open';
  end if;
  v_label := public.invoice_label(v_invoice.number);
  select * into v_order from public.orders where id = v_invoice.order_id for update;
  if v_order.status in ('pending', 'processing') then
    perform public.lock_order_books(v_order.id);
    perform public.move_order_stock(v_order.id, 1, 'Invoice ' || v_label || case when p_status = 'void' then ' voided' else ' written off' end || ', copies put back',
      p_actor);
    update public.orders set status = 'cancelled', payment_status = 'expired', cancelled_at = now() where id = v_order.id;
  end if;
  update public.invoices set status = p_status, voided_at = now() where id = v_invoice.id;
  insert into public.order_events (order_id, action, detail, actor)
    values (v_order.id, case when p_status = 'void' then 'invoice_voided' else 'invoice_uncollectible' end,
      v_label || case when v_order.status in ('pending', 'processing') then ', copies put back' else ', copies already shipped' end, p_actor);
  return 'closed';
end;
$$;

-- Pack before payment (or not): a draft's setting, or a sent invoice's order moved onto (or off) the bench while
-- nothing has shipped. 'changed' | 'unchanged' | 'not_open' (paid, closed, or shipped).
create function public.invoice_set_ship_before_payment(p_invoice_id uuid, p_value boolean, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
  v_order public.orders%rowtype;
begin
  v_invoice := public.lock_invoice(p_invoice_id);
  if v_invoice.ship_before_payment = p_value then
    return 'unchanged';
  end if;
  if v_invoice.status = 'draft' then
    update public.invoices set ship_before_payment = p_value where id = p_invoice_id;
    return 'changed';
  end if;
  if v_invoice.status <> 'sent' then
    return 'not_open';
  end if;
  select * into v_order from public.orders where id = v_invoice.order_id for update;
  if v_order.status not in ('pending', 'processing') then
    return 'not_open';
  end if;
  update public.invoices set ship_before_payment = p_value where id = p_invoice_id;
  update public.orders set ship_before_payment = p_value, status = case when p_value then 'processing' else 'pending' end where id = v_order.id;
  insert into public.order_events (order_id, action, detail, actor)
    values (v_order.id, 'ship_before_payment', case when p_value then 'Pack now, before payment' else 'Pack once paid' end, p_actor);
  return 'changed';
end;
$$;

-- The open invoice was emailed again: 'reminded' | 'not_open'.
create function public.invoice_reminded(p_invoice_id uuid, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
begin
  update public.invoices set reminded_at = now() where id = p_invoice_id and status = 'sent' and emailed_at is not null returning * into v_invoice;
  if not found then
    return 'not_open';
  end if;
  insert into public.order_events (order_id, action, detail, actor)
    values (v_invoice.order_id, 'invoice_reminded', v_invoice.email || case when v_invoice.due_on < (now() at time zone 'Australia/Sydney')::date
      then ', overdue since ' || to_char(v_invoice.due_on, 'DD/MM/YYYY') else '' end, p_actor);
  return 'reminded';
end;
$$;

-- A credit note on a paid invoice: reserved as a part refund of its order under the order's lock (settled with
-- settle_part_refund, as card refunds are), so credits never exceed what was paid. Answers as begin_part_refund.
create function public.invoice_begin_credit(p_invoice_id uuid, p_amount numeric, p_reason text, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_reason text := public.part_refund_reason(p_amount, p_reason, 200, 'credit');
  v_invoice public.invoices%rowtype;
  v_order public.orders%rowtype;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id;
  if not found then
    raise exception 'Invoice % not found', p_invoice_id using errcode = 'P0002';
  end if;
  if v_invoice.status <> 'paid' then
    return jsonb_build_object('outcome', 'not_refundable');
  end if;
  select * into v_order from public.orders where id = v_invoice.order_id for update;
  if v_order.payment_status <> 'paid' or v_order.refunded_at is not null then
    return jsonb_build_object('outcome', 'not_refundable');
  end if;
  return public.reserve_part_refund(v_order.id, v_order.total_amount, p_amount, v_reason, p_actor);
end;
$$;
