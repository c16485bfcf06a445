-- An invoice is priced by one function: its lines at the cart's quantity prices (or a changed price with its
-- reason), the books' subtotal, shipping (free from the rate card's threshold, as the cart's free-shipping rule
-- says for the chosen service), the total and the GST in it. The editor's live preview asks it through the server
-- function, and the draft's save stores what it answers; the send, the provider's invoice, the order, the packing
-- slip, the tax invoice and the emails read those stored figures.

-- p_draft: { lines: [{ product_id, quantity, unit_price?, price_reason? }], address: { country },
--   shipping: { kind: 'rate_card', name, amount, free_from? } | { kind: 'typed', name, amount, reason } }.
-- The server function prices the rate card's service (its price, and the subtotal from which it is free, or none);
-- the comparison with the subtotal is made here, where the subtotal is known.
-- Answers { outcome: 'priced', lines: [{ product_id, title, quantity, list_unit_price, unit_price, price_reason,
-- amount }], subtotal, shipping: { kind, name, amount, reason }, total, gst, gst_applies } | { outcome: 'unknown_book', product_id }.
-- Security definer: the quantity prices and GST rules it calls are the database's own, granted to no API role.
create or replace function public.invoice_totals(p_draft jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_missing text;
  v_lines jsonb;
  v_subtotal numeric;
  v_shipping numeric;
  v_total numeric;
  v_taxed boolean := public.gst_applies(p_draft #>> '{address,country}');
begin
  if jsonb_typeof(p_draft -> 'lines') is distinct from 'array' or jsonb_array_length(p_draft -> 'lines') not between 1 and 20 then
    raise exception 'An invoice has 1 to 20 books.' using errcode = '22023';
  end if;
  if p_draft #>> '{shipping,kind}' is null or p_draft #>> '{shipping,kind}' not in ('rate_card', 'typed') or (p_draft #>> '{shipping,amount}') is null then
    raise exception 'An invoice''s shipping is the rate card''s or typed, with its amount.' using errcode = '22023';
  end if;
  select l ->> 'product_id' into v_missing from jsonb_array_elements(p_draft -> 'lines') l
    where public.quantity_unit_price(l ->> 'product_id', (l ->> 'quantity')::integer) is null
    limit 1;
  if found then
    return jsonb_build_object('outcome', 'unknown_book', 'product_id', v_missing);
  end if;

  with typed as (
    select e.n, l ->> 'product_id' as product_id, (l ->> 'quantity')::integer as quantity, (l ->> 'unit_price')::numeric as unit, l ->> 'price_reason' as reason
    from jsonb_array_elements(p_draft -> 'lines') with ordinality as e (l, n)
  ),
  priced as (
    select t.n, p.id, p.title, t.quantity, x.list, coalesce(t.unit, x.list) as unit_price,
      -- A reason is kept only for a price that differs from the quantity price.
      case when t.unit is not null and t.unit is distinct from x.list then nullif(btrim(t.reason), '') end as price_reason
    from typed t
    join public.products p on p.id = t.product_id
    cross join lateral (select public.quantity_unit_price(t.product_id, t.quantity) as list) x
  )
  select jsonb_agg(jsonb_build_object('product_id', id, 'title', title, 'quantity', quantity, 'list_unit_price', list, 'unit_price', unit_price,
      'price_reason', price_reason, 'amount', unit_price * quantity) order by n),
    sum(unit_price * quantity)
    into v_lines, v_subtotal
    from priced;

  v_shipping := case
    when p_draft #>> '{shipping,kind}' = 'rate_card' and v_subtotal >= (p_draft #>> '{shipping,free_from}')::numeric then 0
    else (p_draft #>> '{shipping,amount}')::numeric end;
  v_total := v_subtotal + v_shipping;
  return jsonb_build_object('outcome', 'priced', 'lines', v_lines, 'subtotal', v_subtotal,
    'shipping', jsonb_build_object('kind', p_draft #>> '{shipping,kind}', 'name', p_draft #>> '{shipping,name}', 'amount', v_shipping,
      'reason', case when p_draft #>> '{shipping,kind}' = 'typed' then nullif(btrim(p_draft #>> '{shipping,reason}'), '') end),
    'total', v_total, 'gst', case when v_taxed then public.gst_included(v_total) else 0 end, 'gst_applies', v_taxed);
end;
$$;

-- Drafts. Saves a new draft (p_invoice_id null; from a quote when p_quote_id is given, which becomes invoiced) or
-- replaces a draft's details and lines, priced by invoice_totals and stored as it answers. Answers { outcome: 'saved',
-- invoice_id } | { outcome: 'not_draft', status } | { outcome: 'unknown_book', product_id } | { outcome: 'quote_taken' }.
create or replace function public.invoice_save_draft(p_invoice_id uuid, p_quote_id uuid, p_draft jsonb, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices%rowtype;
  v_id uuid := p_invoice_id;
  v_totals jsonb;
begin
  if jsonb_typeof(p_draft -> 'lines') is distinct from 'array' or jsonb_array_length(p_draft -> 'lines') not between 1 and 20 then
    raise exception 'An invoice has 1 to 20 books.' using errcode = '22023';
  end if;
  if p_invoice_id is not null then
    select * into v_invoice from public.invoices where id = p_invoice_id for update;
    if not found then
      raise exception 'Invoice % not found', p_invoice_id using errcode = 'P0002';
    end if;
    if v_invoice.status <> 'draft' then
      return jsonb_build_object('outcome', 'not_draft', 'status', v_invoice.status);
    end if;
  end if;
  if p_quote_id is not null then
    perform 1 from public.quote_requests where id = p_quote_id and status = 'new' for update;
    if not found then
      return jsonb_build_object('outcome', 'quote_taken');
    end if;
  end if;
  v_totals := public.invoice_totals(p_draft);
  if v_totals ->> 'outcome' <> 'priced' then
    return v_totals;
  end if;

  if v_id is null then
    insert into public.invoices (created_by, quote_id, organisation, contact_name, email, phone, address, po_number, terms_days, note,
      ship_before_payment, shipping_kind, shipping_name, shipping_amount, shipping_reason, subtotal, total, gst)
    values (p_actor, p_quote_id, p_draft ->> 'organisation', p_draft ->> 'contact_name', p_draft ->> 'email', nullif(p_draft ->> 'phone', ''),
      jsonb_strip_nulls(p_draft -> 'address'), nullif(p_draft ->> 'po_number', ''), (p_draft ->> 'terms_days')::integer, nullif(p_draft ->> 'note', ''),
      coalesce((p_draft ->> 'ship_before_payment')::boolean, false), v_totals #>> '{shipping,kind}', v_totals #>> '{shipping,name}',
      (v_totals #>> '{shipping,amount}')::numeric, v_totals #>> '{shipping,reason}', (v_totals ->> 'subtotal')::numeric, (v_totals ->> 'total')::numeric,
      (v_totals ->> 'gst')::numeric)
    returning id into v_id;
  else
    update public.invoices set
      organisation = p_draft ->> 'organisation', contact_name = p_draft ->> 'contact_name', email = p_draft ->> 'email',
      phone = nullif(p_draft ->> 'phone', ''), address = jsonb_strip_nulls(p_draft -> 'address'), po_number = nullif(p_draft ->> 'po_number', ''),
      terms_days = (p_draft ->> 'terms_days')::integer, note = nullif(p_draft ->> 'note', ''),
      ship_before_payment = coalesce((p_draft ->> 'ship_before_payment')::boolean, false),
      shipping_kind = v_totals #>> '{shipping,kind}', shipping_name = v_totals #>> '{shipping,name}', shipping_amount = (v_totals #>> '{shipping,amount}')::numeric,
      shipping_reason = v_totals #>> '{shipping,reason}', subtotal = (v_totals ->> 'subtotal')::numeric, total = (v_totals ->> 'total')::numeric,
      gst = (v_totals ->> 'gst')::numeric
    where id = v_id;
  end if;
  delete from public.invoice_lines where invoice_id = v_id;
  insert into public.invoice_lines (invoice_id, product_id, title, quantity, list_unit_price, unit_price, price_reason, position)
    select v_id, l ->> 'product_id', l ->> 'title', (l ->> 'quantity')::integer, (l ->> 'list_unit_price')::numeric, (l ->> 'unit_price')::numeric,
      l ->> 'price_reason', e.n
    from jsonb_array_elements(v_totals -> 'lines') with ordinality as e (l, n);
  if p_quote_id is not null then
    update public.quote_requests set status = 'invoiced', decided_at = now(), decided_by = p_actor where id = p_quote_id;
  end if;
  return jsonb_build_object('outcome', 'saved', 'invoice_id', v_id);
end;
$$;

-- What the payment provider is given to make and email the invoice: the stored figures, each line with its amount.
create or replace function public.invoice_for_provider(p_invoice_id uuid)
returns jsonb
language sql
stable
as $$
  select jsonb_build_object('invoice_id', i.id, 'number', public.invoice_label(i.number), 'order_id', i.order_id, 'email', i.email,
    'contact_name', i.contact_name, 'organisation', i.organisation, 'po_number', i.po_number, 'terms_days', i.terms_days, 'due_on', i.due_on,
    'address', i.address, 'phone', i.phone, 'shipping_name', i.shipping_name, 'shipping_amount', i.shipping_amount, 'total', i.total,
    'gst', i.gst, 'provider_invoice_id', i.provider_invoice_id, 'hosted_url', i.hosted_url,
    'lines', (select jsonb_agg(jsonb_build_object('title', l.title, 'quantity', l.quantity, 'unit_price', l.unit_price, 'amount', l.unit_price * l.quantity)
        order by l.position)
      from public.invoice_lines l where l.invoice_id = i.id))
  from public.invoices i where i.id = p_invoice_id;
$$;

revoke all on function public.invoice_totals(jsonb), public.invoice_for_provider(uuid) from public, anon, authenticated, service_role;
revoke all on function public.invoice_save_draft(uuid, uuid, jsonb, text) from public, anon, authenticated, service_role;
-- The server function's preview of a draft as the publisher types, and its save.
grant execute on function public.invoice_totals(jsonb), public.invoice_save_draft(uuid, uuid, jsonb, text) to service_role;
