-- Schools and parishes buy on account: a quote request, then an invoice the payment provider emails (PO number,
-- the seller's ABN, 14 or 30 days to pay). A sent invoice holds its copies and is an order (kind 'invoice') with
-- the organisation and the PO number, so the bench, the packing slip, Sales, Customers and the CSV show it as they
-- show any order. The order is to pack once the invoice is paid, or at once when the publisher ships before payment.
-- Voiding it (or writing it off) gives its copies back; a credit note is a part refund of its order.
-- An order on account's paperwork (its invoice, PO number, issue and due dates, paid or not) is one function,
-- public.order_on_account, read by the order's detail and slip, the Sales CSV, the status page and the emails.
-- This file holds the tables, the quote requests and the drafts with their one price; the rest follows in
-- _invoicing_sent.sql and _invoicing_reading.sql.

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
create function public.invoice_label(p_number integer) returns text
language sql immutable as $$
  -- lpad cuts a longer string to its length: from 10000 on, the number is written whole.
  select 'INV-' || case when p_number < 1000 then lpad(p_number::text, 4, '0') else p_number::text end;
$$;

-- Quote requests (the server function behind the bot-check): { outcome: 'saved', id } or { outcome: 'unknown_book', product_id }.
create function public.quote_request_create(p_quote jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
create function public.quote_request_decline(p_quote_id uuid, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
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

-- An invoice's row lock, as the functions that change an invoice by its id take it: the locked row, or the one error
-- for an invoice that does not exist.
create function public.lock_invoice(p_invoice_id uuid) returns public.invoices
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
begin
  select * into v_invoice from public.invoices where id = p_invoice_id for update;
  if not found then
    raise exception 'Invoice % not found', p_invoice_id using errcode = 'P0002';
  end if;
  return v_invoice;
end;
$$;

-- An invoice has 1 to 20 books: checked before a draft is priced or saved.
create function public.check_invoice_lines(p_draft jsonb) returns void
language plpgsql immutable set search_path = '' as $$
begin
  if jsonb_typeof(p_draft -> 'lines') is distinct from 'array' or jsonb_array_length(p_draft -> 'lines') not between 1 and 20 then
    raise exception 'An invoice has 1 to 20 books.' using errcode = '22023';
  end if;
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
create function public.invoice_totals(p_draft jsonb) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_missing text;
  v_lines jsonb;
  v_subtotal numeric;
  v_shipping numeric;
  v_total numeric;
  v_taxed boolean := public.gst_applies(p_draft #>> '{address,country}');
begin
  perform public.check_invoice_lines(p_draft);
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
create function public.invoice_save_draft(p_invoice_id uuid, p_quote_id uuid, p_draft jsonb, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_invoice public.invoices%rowtype;
  v_id uuid := p_invoice_id;
  v_totals jsonb;
begin
  perform public.check_invoice_lines(p_draft);
  if p_invoice_id is not null then
    v_invoice := public.lock_invoice(p_invoice_id);
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
