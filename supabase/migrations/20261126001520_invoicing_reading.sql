-- Invoicing, continued: what the back office reads (the invoices and quote requests, a page at a time, and one
-- invoice), an order on account's paperwork, and the invoices' trigger and row-level security.

-- Reading (staff, with their own token)

-- One invoice as the list shows it. Overdue: sent and past its due date, Sydney time (computed, never stored).
create function public.invoice_row(p_invoice public.invoices) returns jsonb
language sql stable as $$
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
create function public.admin_list_invoices(p_view text, p_search text default '', p_cursor text default null, p_limit integer default 50) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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
create function public.admin_get_invoice(p_invoice_id uuid) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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
create function public.admin_list_quotes(p_view text, p_cursor text default null, p_limit integer default 50) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
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
create function public.order_on_account(p_order_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
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
