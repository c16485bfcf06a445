-- Schools and parishes buy on account: a quote request, then an invoice the payment provider emails (PO number,
-- the seller's ABN, 14 or 30 days to pay). A sent invoice holds its copies and is an order (kind 'invoice') with
-- the organisation and the PO number, so the bench, the packing slip, Sales, Customers and the CSV show it as they
-- show any order. The order is to pack once the invoice is paid, or at once when the publisher ships before payment.
-- Voiding it (or writing it off) gives its copies back; a credit note is a part refund of its order.
-- An order on account's paperwork (its invoice, PO number, issue and due dates, paid or not) is one function,
-- public.order_on_account, read by the order's detail and slip, the Sales CSV, the status page and the emails.

-- ===============================================================================================================
-- Tables

-- A quote request from the schools page: who, where, which books and how many. new → invoiced | declined.
create table public.quote_requests (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  status text not null default 'new' check (status in ('new', 'invoiced', 'declined')),
  organisation text not null check (char_length(btrim(organisation)) between 1 and 200),
  contact_name text not null check (char_length(btrim(contact_name)) between 1 and 100),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  phone text not null check (char_length(btrim(phone)) between 1 and 40),
  address jsonb not null check (jsonb_typeof(address) = 'object'),
  -- [{ product_id, quantity }]
  lines jsonb not null check (jsonb_typeof(lines) = 'array' and jsonb_array_length(lines) between 1 and 20),
  needed_by date,
  po_number text check (po_number is null or char_length(btrim(po_number)) between 1 and 60),
  note text check (note is null or char_length(note) between 1 and 2000),
  decided_at timestamptz,
  decided_by text check (decided_by is null or char_length(decided_by) between 1 and 254),
  constraint quote_requests_decided_whole check ((status = 'new') = (decided_at is null) and (decided_at is null) = (decided_by is null))
);

-- An invoice: a draft the publisher edits, then sent (its copies held, its order made), then paid, void or
-- uncollectible. Amounts include GST; the GST is one eleventh of the total for an Australian address, as the
-- shop's tax invoice computes it, and none for an export.
create table public.invoices (
  id uuid primary key default gen_random_uuid(),
  number integer generated always as identity unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  created_by text not null check (char_length(created_by) between 1 and 254),
  quote_id uuid unique references public.quote_requests (id),
  status text not null default 'draft' check (status in ('draft', 'sent', 'paid', 'void', 'uncollectible')),
  organisation text not null check (char_length(btrim(organisation)) between 1 and 200),
  contact_name text not null check (char_length(btrim(contact_name)) between 1 and 100),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  phone text check (phone is null or char_length(btrim(phone)) between 1 and 40),
  address jsonb not null check (jsonb_typeof(address) = 'object' and char_length(coalesce(address ->> 'country', '')) = 2),
  po_number text check (po_number is null or char_length(btrim(po_number)) between 1 and 60),
  terms_days integer not null check (terms_days in (14, 30)),
  note text check (note is null or char_length(note) between 1 and 2000),
  ship_before_payment boolean not null default false,
  shipping_kind text not null check (shipping_kind in ('rate_card', 'typed')),
  shipping_name text not null check (char_length(btrim(shipping_name)) between 1 and 100),
  shipping_amount numeric(10, 2) not null check (shipping_amount >= 0),
  shipping_reason text check (shipping_reason is null or char_length(btrim(shipping_reason)) between 1 and 200),
  subtotal numeric(10, 2) not null check (subtotal >= 0),
  total numeric(10, 2) not null check (total > 0),
  gst numeric(10, 2) not null check (gst >= 0),
  provider text check (provider is null or provider in ('stripe', 'local-test')),
  provider_invoice_id text unique check (provider_invoice_id is null or char_length(provider_invoice_id) between 1 and 255),
  hosted_url text check (hosted_url is null or char_length(hosted_url) between 1 and 2000),
  order_id uuid unique references public.orders (id),
  sent_at timestamptz,
  due_on date,
  emailed_at timestamptz,
  reminded_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  constraint invoices_total_adds_up check (total = subtotal + shipping_amount),
  constraint invoices_gst_one_eleventh check (gst = case when upper(address ->> 'country') = 'AU' then round(total / 11, 2) else 0 end),
  constraint invoices_typed_shipping_has_reason check (shipping_kind = 'rate_card' or shipping_reason is not null),
  constraint invoices_sent_whole check ((status = 'draft') = (sent_at is null) and (sent_at is null) = (order_id is null) and (sent_at is null) = (due_on is null)
    and (sent_at is null) = (provider is null)),
  constraint invoices_due_after_terms check (due_on is null or due_on = (sent_at at time zone 'Australia/Sydney')::date + terms_days),
  constraint invoices_paid_whole check ((status = 'paid') = (paid_at is not null)),
  constraint invoices_closed_whole check ((status in ('void', 'uncollectible')) = (voided_at is not null)),
  constraint invoices_emailed_when_sent check (emailed_at is null or (sent_at is not null and provider_invoice_id is not null))
);

-- An invoice's books, each at the quantity price the cart would charge (list_unit_price) unless the publisher
-- changed it and said why.
create table public.invoice_lines (
  invoice_id uuid not null references public.invoices (id) on delete cascade,
  product_id text not null references public.products (id),
  title text not null check (char_length(title) between 1 and 200),
  quantity integer not null check (quantity between 1 and 5000),
  list_unit_price numeric(10, 2) not null check (list_unit_price >= 0),
  unit_price numeric(10, 2) not null check (unit_price >= 0),
  price_reason text check (price_reason is null or char_length(btrim(price_reason)) between 1 and 200),
  position integer not null check (position between 1 and 20),
  primary key (invoice_id, product_id),
  unique (invoice_id, position),
  constraint invoice_lines_changed_price_has_reason check (unit_price = list_unit_price or price_reason is not null)
);

-- ===============================================================================================================
-- Indexes

create index quote_requests_status_idx on public.quote_requests (status, created_at desc, id desc);
create index invoices_created_idx on public.invoices (created_at desc, id desc);
create index invoices_status_idx on public.invoices (status, created_at desc, id desc);
create index invoices_open_due_idx on public.invoices (due_on, id) where status = 'sent';
create index invoice_lines_product_idx on public.invoice_lines (product_id);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: quote requests and invoices

-- "INV-0042", as the stock history, the order's history and the provider's invoice name it.
create function public.invoice_label(p_number integer)
returns text
language sql
immutable
as $$
  -- lpad cuts a longer string to its length: from 10000 on, the number is written whole.
  select 'INV-' || case when p_number < 1000 then lpad(p_number::text, 4, '0') else p_number::text end;
$$;

-- Quote requests (the server function behind the bot-check): { outcome: 'saved', id } or { outcome: 'unknown_book', product_id }.
create function public.quote_request_create(p_quote jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_line jsonb;
  v_id uuid;
begin
  if jsonb_typeof(p_quote -> 'lines') <> 'array' then
    raise exception 'A quote request lists its books.' using errcode = '22023';
  end if;
  for v_line in select * from jsonb_array_elements(p_quote -> 'lines') loop
    if not exists (select 1 from public.products p where p.id = v_line ->> 'product_id' and p.for_sale) then
      return jsonb_build_object('outcome', 'unknown_book', 'product_id', v_line ->> 'product_id');
    end if;
  end loop;
  insert into public.quote_requests (organisation, contact_name, email, phone, address, lines, needed_by, po_number, note)
  values (p_quote ->> 'organisation', p_quote ->> 'contact_name', p_quote ->> 'email', p_quote ->> 'phone', p_quote -> 'address',
    (select jsonb_agg(jsonb_build_object('product_id', l ->> 'product_id', 'quantity', (l ->> 'quantity')::integer)) from jsonb_array_elements(p_quote -> 'lines') l),
    nullif(p_quote ->> 'needed_by', '')::date, nullif(p_quote ->> 'po_number', ''), nullif(p_quote ->> 'note', ''))
  returning id into v_id;
  return jsonb_build_object('outcome', 'saved', 'id', v_id);
end;
$$;

-- The publisher will not invoice it: 'declined', or 'not_new'.
create function public.quote_request_decline(p_quote_id uuid, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.quote_requests set status = 'declined', decided_at = now(), decided_by = p_actor where id = p_quote_id and status = 'new';
  if found then
    return 'declined';
  end if;
  if not exists (select 1 from public.quote_requests where id = p_quote_id) then
    raise exception 'Quote request % not found', p_quote_id using errcode = 'P0002';
  end if;
  return 'not_new';
end;
$$;

-- An invoice is priced by this one function: its lines at the cart's quantity prices (or a changed price with its
-- reason), the books' subtotal, shipping (free from the rate card's threshold, as the cart's free-shipping rule says
-- for the chosen service), the total and the GST in it. The editor's live preview asks it through the server
-- function, and the draft's save stores what it answers; the send, the provider's invoice, the order, the packing
-- slip, the tax invoice and the emails read those stored figures.
-- p_draft: { lines: [{ product_id, quantity, unit_price?, price_reason? }], address: { country },
--   shipping: { kind: 'rate_card', name, amount, free_from? } | { kind: 'typed', name, amount, reason } }.
-- The server function prices the rate card's service (its price, and the subtotal from which it is free, or none);
-- the comparison with the subtotal is made here, where the subtotal is known.
-- Answers { outcome: 'priced', lines: [{ product_id, title, quantity, list_unit_price, unit_price, price_reason,
-- amount }], subtotal, shipping: { kind, name, amount, reason }, total, gst, gst_applies } | { outcome: 'unknown_book', product_id }.
-- Security definer: the quantity prices and GST rules it calls are the database's own, granted to no API role.
create function public.invoice_totals(p_draft jsonb)
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
-- replaces a draft's details and lines, priced by invoice_totals (shipping comes priced by the server function: the
-- rate card's, or typed with a reason). Answers { outcome: 'saved', invoice_id } | { outcome: 'not_draft', status } | { outcome: 'unknown_book',
-- product_id } | { outcome: 'quote_taken' }.
create function public.invoice_save_draft(p_invoice_id uuid, p_quote_id uuid, p_draft jsonb, p_actor text)
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
  if v_totals ->> 'outcome' = 'unknown_book' then
    return jsonb_build_object('outcome', 'unknown_book', 'product_id', v_totals ->> 'product_id');
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

-- Sending. Holds the invoice's copies (taken from stock under the products' row locks, in a fixed order so two
-- sends cannot deadlock, each written to the stock history as held for the invoice), makes its order and marks it
-- sent with its due date. Answers { outcome: 'held', ... the invoice for the provider } | { outcome: 'short',
-- product_id, title, available } | { outcome: 'resume', ... } for a sent invoice the provider has not yet emailed |
-- { outcome: 'already_sent' } | { outcome: 'not_draft', status }.
create function public.invoice_send(p_invoice_id uuid, p_provider text, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices%rowtype;
  v_short record;
  v_order_id uuid;
  v_label text;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id for update;
  if not found then
    raise exception 'Invoice % not found', p_invoice_id using errcode = 'P0002';
  end if;
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

  update public.products p set stock = p.stock - l.quantity from public.invoice_lines l where l.invoice_id = p_invoice_id and l.product_id = p.id;
  insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
    select p.id, p.stock + l.quantity, p.stock, 'Held for invoice ' || v_label, p_actor, v_order_id
    from public.invoice_lines l join public.products p on p.id = l.product_id where l.invoice_id = p_invoice_id order by p.id;
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
create function public.invoice_for_provider(p_invoice_id uuid)
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

-- The provider made its invoice (p_hosted_url null) or emailed it (with its page's address).
create function public.invoice_provider_step(p_invoice_id uuid, p_provider_invoice_id text, p_hosted_url text, p_actor text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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
create function public.invoice_mark_paid(p_provider_invoice_id text, p_amount_cents bigint, p_currency text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
    perform 1 from public.products p where p.id in (select product_id from public.order_items where order_id = v_order.id) order by p.id for update;
    v_short := exists (select 1 from public.order_items i join public.products p on p.id = i.product_id where i.order_id = v_order.id and p.stock < i.quantity);
    if not v_short then
      update public.products p set stock = p.stock - i.quantity from public.order_items i where i.order_id = v_order.id and i.product_id = p.id;
      insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
        select p.id, p.stock + i.quantity, p.stock, 'Held for invoice ' || public.invoice_label(v_invoice.number) || ', paid after it was written off', p_actor, v_order.id
        from public.order_items i join public.products p on p.id = i.product_id where i.order_id = v_order.id order by p.id;
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
create function public.invoice_close(p_invoice_id uuid, p_provider_invoice_id text, p_status text, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
    perform 1 from public.products p where p.id in (select product_id from public.order_items where order_id = v_order.id) order by p.id for update;
    update public.products p set stock = p.stock + i.quantity from public.order_items i where i.order_id = v_order.id and i.product_id = p.id;
    insert into public.stock_changes (product_id, previous_stock, new_stock, reason, actor, order_id)
      select p.id, p.stock - i.quantity, p.stock, 'Invoice ' || v_label || case when p_status = 'void' then ' voided' else ' written off' end || ', copies put back',
        p_actor, v_order.id
      from public.order_items i join public.products p on p.id = i.product_id where i.order_id = v_order.id order by p.id;
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
create function public.invoice_set_ship_before_payment(p_invoice_id uuid, p_value boolean, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices%rowtype;
  v_order public.orders%rowtype;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id for update;
  if not found then
    raise exception 'Invoice % not found', p_invoice_id using errcode = 'P0002';
  end if;
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
create function public.invoice_reminded(p_invoice_id uuid, p_actor text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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
create function public.invoice_begin_credit(p_invoice_id uuid, p_amount numeric, p_reason text, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices%rowtype;
  v_order public.orders%rowtype;
  v_reason text := regexp_replace(btrim(coalesce(p_reason, '')), '\s+', ' ', 'g');
  v_left numeric;
  v_id uuid;
begin
  if p_amount is null or p_amount <= 0 or p_amount <> round(p_amount, 2) then
    raise exception 'Give an amount in dollars and cents, more than zero.' using errcode = '22023';
  end if;
  if char_length(v_reason) not between 1 and 200 then
    raise exception 'Give a reason for the credit, of up to 200 characters.' using errcode = '22023';
  end if;
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
  v_left := v_order.total_amount - (select coalesce(sum(amount), 0) from public.order_refunds where order_id = v_order.id and status in ('pending', 'succeeded'));
  if p_amount > v_left then
    return jsonb_build_object('outcome', 'too_much', 'remaining', v_left);
  end if;
  insert into public.order_refunds (order_id, amount, reason, actor) values (v_order.id, p_amount, v_reason, p_actor) returning id into v_id;
  return jsonb_build_object('outcome', 'reserved', 'refund_id', v_id, 'remaining', v_left - p_amount);
end;
$$;

-- Reading (staff, with their own token)

-- One invoice as the list shows it. Overdue: sent and past its due date, Sydney time (computed, never stored).
create function public.invoice_row(p_invoice public.invoices)
returns jsonb
language sql
stable
as $$
  select jsonb_build_object('id', p_invoice.id, 'number', p_invoice.number, 'created_at', p_invoice.created_at, 'status', p_invoice.status,
    'overdue', p_invoice.status = 'sent' and p_invoice.due_on < (now() at time zone 'Australia/Sydney')::date,
    'organisation', p_invoice.organisation, 'contact_name', p_invoice.contact_name, 'email', p_invoice.email, 'po_number', p_invoice.po_number,
    'total', p_invoice.total, 'gst', p_invoice.gst,
    'credited', (select coalesce(sum(r.amount), 0) from public.order_refunds r where r.order_id = p_invoice.order_id and r.status = 'succeeded'),
    'terms_days', p_invoice.terms_days, 'sent_at', p_invoice.sent_at, 'due_on', p_invoice.due_on, 'paid_at', p_invoice.paid_at,
    'ship_before_payment', p_invoice.ship_before_payment, 'order_id', p_invoice.order_id,
    'order_status', (select o.status from public.orders o where o.id = p_invoice.order_id), 'quote_id', p_invoice.quote_id);
$$;

-- The invoices, a page at a time: { rows, next }. Views: draft, open (sent), overdue (sent, past due; oldest due
-- first), paid, closed (void or uncollectible), all. Newest first otherwise. A search finds part of the
-- organisation, the address, the PO number, or the invoice's number.
create function public.admin_list_invoices(p_view text, p_search text default '', p_cursor text default null, p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(btrim(coalesce(p_search, '')));
  v_pattern text;
  v_limit integer := public.page_limit(p_limit, 50, 200);
  v_after timestamptz;
  v_after_id uuid;
  v_today date := (now() at time zone 'Australia/Sydney')::date;
  v_result jsonb;
begin
  perform public.require_staff();
  if p_view is null or p_view not in ('draft', 'open', 'overdue', 'paid', 'closed', 'all') then
    raise exception 'Unknown invoice view %', p_view using errcode = '22023';
  end if;
  select c.at, c.key::uuid into v_after, v_after_id from public.read_page_cursor(p_cursor, true) c;
  v_pattern := public.contains_pattern(v_search);
  with page as (
    select i.id, i as inv, case when p_view = 'overdue' then i.due_on::timestamp at time zone 'Australia/Sydney' else i.created_at end as page_at
    from public.invoices i
    where case p_view
        when 'draft' then i.status = 'draft'
        when 'open' then i.status = 'sent'
        when 'overdue' then i.status = 'sent' and i.due_on < v_today
        when 'paid' then i.status = 'paid'
        when 'closed' then i.status in ('void', 'uncollectible')
        else true end
      and (v_search = '' or lower(i.organisation) like v_pattern or lower(i.email) like v_pattern or lower(coalesce(i.po_number, '')) like v_pattern
        or lower(public.invoice_label(i.number)) like v_pattern)
      and (v_after is null or case when p_view = 'overdue'
        then (i.due_on::timestamp at time zone 'Australia/Sydney', i.id) > (v_after, v_after_id)
        else (i.created_at, i.id) < (v_after, v_after_id) end)
    order by case when p_view = 'overdue' then i.due_on end, case when p_view = 'overdue' then i.id end,
      case when p_view <> 'overdue' then i.created_at end desc, case when p_view <> 'overdue' then i.id end desc
    limit v_limit + 1
  ),
  numbered as (
    select p.*, row_number() over (order by case when p_view = 'overdue' then p.page_at end, case when p_view = 'overdue' then p.id end,
      case when p_view <> 'overdue' then p.page_at end desc, case when p_view <> 'overdue' then p.id end desc) as n
    from page p
  )
  select jsonb_build_object(
    'rows', coalesce(jsonb_agg(public.invoice_row(x.inv) order by x.n) filter (where x.n <= v_limit), '[]'::jsonb),
    'next', case when count(*) > v_limit then public.page_cursor(max(x.page_at) filter (where x.n = v_limit), max(x.id::text) filter (where x.n = v_limit)) end)
    into v_result
    from numbered x;
  return v_result;
end;
$$;

-- One invoice with its lines, its shipping, its provider page and its credit notes.
create function public.admin_get_invoice(p_invoice_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_invoice public.invoices%rowtype;
begin
  perform public.require_staff();
  select * into v_invoice from public.invoices where id = p_invoice_id;
  if not found then
    raise exception 'Invoice % not found', p_invoice_id using errcode = 'P0002';
  end if;
  return public.invoice_row(v_invoice) || jsonb_build_object(
    'phone', v_invoice.phone, 'address', v_invoice.address, 'subtotal', v_invoice.subtotal,
    'shipping_name', v_invoice.shipping_name, 'shipping_amount', v_invoice.shipping_amount, 'shipping_kind', v_invoice.shipping_kind,
    'shipping_reason', v_invoice.shipping_reason, 'gst_applies', public.gst_applies(v_invoice.address ->> 'country'), 'note', v_invoice.note,
    'hosted_url', v_invoice.hosted_url, 'provider_invoice_id', v_invoice.provider_invoice_id, 'reminded_at', v_invoice.reminded_at,
    'voided_at', v_invoice.voided_at, 'created_by', v_invoice.created_by,
    'lines', (select coalesce(jsonb_agg(jsonb_build_object('product_id', l.product_id, 'title', l.title, 'quantity', l.quantity,
        'list_unit_price', l.list_unit_price, 'unit_price', l.unit_price, 'price_reason', l.price_reason, 'amount', l.unit_price * l.quantity)
        order by l.position), '[]'::jsonb) from public.invoice_lines l where l.invoice_id = v_invoice.id),
    'credit_notes', (select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'amount', r.amount, 'reason', r.reason, 'status', r.status,
        'provider_credit_note_id', r.provider_refund_id, 'created_at', r.created_at, 'actor', r.actor) order by r.created_at), '[]'::jsonb)
        from public.order_refunds r where v_invoice.order_id is not null and r.order_id = v_invoice.order_id));
end;
$$;

-- The quote requests, newest first, a page at a time: { rows, next }. Views: new, invoiced, declined, all.
create function public.admin_list_quotes(p_view text, p_cursor text default null, p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := public.page_limit(p_limit, 50, 200);
  v_after timestamptz;
  v_after_id uuid;
  v_result jsonb;
begin
  perform public.require_staff();
  if p_view is null or p_view not in ('new', 'invoiced', 'declined', 'all') then
    raise exception 'Unknown quote view %', p_view using errcode = '22023';
  end if;
  select c.at, c.key::uuid into v_after, v_after_id from public.read_page_cursor(p_cursor, true) c;
  with page as (
    select q.*, row_number() over (order by q.created_at desc, q.id desc) as n
    from (
      select * from public.quote_requests r
      where (p_view = 'all' or r.status = p_view) and (v_after is null or (r.created_at, r.id) < (v_after, v_after_id))
      order by r.created_at desc, r.id desc
      limit v_limit + 1
    ) q
  )
  select jsonb_build_object(
    'rows', coalesce(jsonb_agg(jsonb_build_object('id', q.id, 'created_at', q.created_at, 'status', q.status, 'organisation', q.organisation,
        'contact_name', q.contact_name, 'email', q.email, 'phone', q.phone, 'address', q.address,
        'lines', (select coalesce(jsonb_agg(jsonb_build_object('product_id', l ->> 'product_id', 'title', coalesce(p.title, l ->> 'product_id'),
            'quantity', (l ->> 'quantity')::integer) order by o.n), '[]'::jsonb)
          from jsonb_array_elements(q.lines) with ordinality o(l, n) left join public.products p on p.id = o.l ->> 'product_id'),
        'needed_by', q.needed_by, 'po_number', q.po_number, 'note', q.note,
        'invoice_id', (select i.id from public.invoices i where i.quote_id = q.id)) order by q.n) filter (where q.n <= v_limit), '[]'::jsonb),
    'next', case when count(*) > v_limit then public.page_cursor(max(q.created_at) filter (where q.n = v_limit), max(q.id::text) filter (where q.n = v_limit)) end)
    into v_result
    from page q;
  return v_result;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: an order on account's paperwork

-- An order on account's paperwork, or null for a card order: its invoice's number, the organisation and PO number,
-- the Sydney day it was issued, due and paid, and the invoice's state ('sent' is unpaid). Read inside the functions
-- below and by the server functions (for the emails and the status page), which read no invoice label themselves.
create function public.order_on_account(p_order_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('invoice_number', public.invoice_label(v.number), 'organisation', v.organisation, 'po_number', v.po_number,
    'status', v.status, 'issued_on', (v.sent_at at time zone 'Australia/Sydney')::date, 'due_on', v.due_on,
    'paid_on', (v.paid_at at time zone 'Australia/Sydney')::date, 'hosted_url', v.hosted_url)
  from public.invoices v where v.order_id = p_order_id and v.status <> 'draft';
$$;

-- ===============================================================================================================
-- Triggers

create trigger invoices_touch before update on public.invoices for each row execute function public.touch_updated_at();

-- ===============================================================================================================
-- Row-level security

alter table public.quote_requests enable row level security;
alter table public.invoices enable row level security;
alter table public.invoice_lines enable row level security;
