-- The books in Xero: every paid card order, school or parish invoice (its payment, its voiding) and refund is
-- posted to the connected Xero organisation once. The ledger (xero_postings) holds a row per document, claimed in
-- batches before anything is sent: a batch keeps its id until it is settled, and the id is the Idempotency-Key of
-- every call that posts it, so a run that dies half-way is finished by the next with the same keys and Xero
-- answers what it already made. Only the service role reads or writes these tables; staff see the state through
-- admin_xero_status, never a token.

-- ===============================================================================================================
-- Tables

-- The one connection: the organisation chosen on Xero's consent screen and the refresh token, encrypted by the
-- functions (AES-256-GCM, key XERO_TOKEN_KEY) before it is stored. start_on: the first Sydney day posted (the
-- months before were imported by hand).
create table public.xero_connection (
  id boolean primary key default true check (id),
  tenant_id text check (tenant_id is null or char_length(tenant_id) between 1 and 100),
  tenant_name text check (tenant_name is null or char_length(tenant_name) between 1 and 200),
  refresh_token_sealed text check (refresh_token_sealed is null or char_length(refresh_token_sealed) between 1 and 4000),
  -- Xero's refresh token lapses 60 days after it was last used.
  refresh_expires_at timestamptz,
  start_on date,
  connected_at timestamptz,
  connected_by text check (connected_by is null or char_length(connected_by) between 1 and 254),
  -- Why the connection needs renewing (Xero refused the token), until the publisher connects again.
  renewal_reason text check (renewal_reason is null or char_length(renewal_reason) between 1 and 500),
  -- The OAuth state of a Connect press in progress: its SHA-256 (hex) and when it lapses.
  pending_state_hash text check (pending_state_hash is null or pending_state_hash ~ '^[0-9a-f]{64}$'),
  pending_state_expires_at timestamptz,
  pending_by text check (pending_by is null or char_length(pending_by) between 1 and 254),
  constraint xero_connection_whole check ((tenant_id is null) = (refresh_token_sealed is null) and (tenant_id is null) = (start_on is null))
);

-- A document posted (or being posted) to Xero.
--   sale         a paid card order → invoice, paid in full into the clearing account
--   school       a sent invoice on account → invoice, PO number and invoice number as references
--   school_paid  its payment into the clearing account
--   school_void  voided (or written off) before it was paid
--   credit       a refund, part (order_refunds) or whole → credit note refunded from the clearing account
--   payout       a Stripe payout → transfer from the clearing account to the bank, and Stripe's fees as spend money
--                (no order: the payout as Stripe listed it, { id, amount, arrival_on }, keyed by its id)
create table public.xero_postings (
  key text primary key check (key ~ '^((sale|school|school_paid|school_void|credit):[0-9a-f-]{36}(:full)?|payout:po_[A-Za-z0-9_]{1,100})$'),
  kind text not null check (kind in ('sale', 'school', 'school_paid', 'school_void', 'credit', 'payout')),
  order_id uuid references public.orders (id),
  payout jsonb,
  invoice_id uuid references public.invoices (id),
  refund_id uuid references public.order_refunds (id),
  -- When the document happened (paid, sent, refunded): posted oldest first.
  occurred_at timestamptz not null,
  status text not null check (status in ('claimed', 'posted', 'failed')),
  batch uuid,
  claimed_until timestamptz,
  attempts integer not null default 1 check (attempts >= 1),
  xero_id text check (xero_id is null or char_length(xero_id) between 1 and 100),
  xero_number text check (xero_number is null or char_length(xero_number) between 1 and 100),
  payment_id text check (payment_id is null or char_length(payment_id) between 1 and 100),
  total numeric(10, 2),
  gst numeric(10, 2),
  error text check (error is null or char_length(error) between 1 and 1000),
  first_claimed_at timestamptz not null default now(),
  last_tried_at timestamptz not null default now(),
  posted_at timestamptz,
  constraint xero_postings_claim_whole check ((status = 'claimed') = (batch is not null) and (batch is null) = (claimed_until is null)),
  constraint xero_postings_posted_whole check ((status = 'posted') = (posted_at is not null) and (status <> 'posted' or xero_id is not null)),
  constraint xero_postings_failed_says_why check (status <> 'failed' or error is not null),
  constraint xero_postings_payout_whole check ((kind = 'payout') = (order_id is null) and (kind = 'payout') = (payout is not null))
);
create index xero_postings_batch_idx on public.xero_postings (batch) where batch is not null;
create index xero_postings_waiting_idx on public.xero_postings (kind, status, last_tried_at) where status <> 'posted';
create index xero_postings_order_idx on public.xero_postings (order_id);

-- Each run of the sync: when, what it posted, and why it stopped early.
create table public.xero_syncs (
  id bigint generated always as identity primary key,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  trigger text not null check (trigger in ('schedule', 'staff')),
  posted integer not null default 0 check (posted >= 0),
  failed integer not null default 0 check (failed >= 0),
  calls integer not null default 0 check (calls >= 0),
  stopped text check (stopped is null or char_length(stopped) between 1 and 1000)
);
create index xero_syncs_started_idx on public.xero_syncs (started_at desc);
-- One run at a time: a second (two presses of Sync now, or one during the schedule's) would post other batches at
-- the same moment and spend Xero's 60 calls a minute twice as fast. A run that died is closed by the next after its
-- lease (functions/_lib/xero-sync.ts), so it holds nothing back.
create unique index xero_syncs_one_running_idx on public.xero_syncs ((finished_at is null)) where finished_at is null;

alter table public.xero_connection enable row level security;
alter table public.xero_postings enable row level security;
alter table public.xero_syncs enable row level security;
revoke all on public.xero_connection, public.xero_postings, public.xero_syncs from public, anon, authenticated, service_role;
-- The one row of the connection exists from the start: the functions only update it.
insert into public.xero_connection (id) values (true);
grant select, update on public.xero_connection to service_role;
grant select, insert, update on public.xero_syncs to service_role;
grant select on public.xero_postings to service_role;

-- ===============================================================================================================
-- Functions

-- What waits to be posted: the one definition the sync claims from (xero_claim) and the back office counts
-- (admin_xero_status), so the count is what the next sync posts. Every document from the connection's first day not
-- yet posted: new (not in the ledger), refused before (failed: the next run tries it again) or claimed (being posted,
-- or left by a run that died); and, for a payout claim, the Stripe payouts given (p_payouts, as xero_claim takes
-- them) not yet in the ledger: the database cannot know those before Stripe is asked. A payment, a void or a refund
-- needs its invoice (a card refund its sale, a school's its payment) posted first: ready when that is posted, and
-- waiting but not yet ready while that document waits itself, as a run posts invoices before their payments, voids
-- and refunds. A document whose invoice is never posted (from before the first day) does not wait.
-- Not security definer: only the functions below call it.
create function public.xero_waiting(p_start_on date, p_payouts jsonb default null) returns table (
  key text, kind text, order_id uuid, invoice_id uuid, refund_id uuid, payout jsonb, occurred_at timestamptz, status text,
  last_tried_at timestamptz, ready boolean
)
language sql stable as $$
  with recursive documents as (
    select 'sale:' || o.id as key, 'sale'::text as kind, o.id as order_id, null::uuid as invoice_id, null::uuid as refund_id, o.paid_at as occurred_at,
      null::text as needs
    from public.orders o
    where o.kind = 'checkout' and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
      and o.paid_at >= (p_start_on::timestamp at time zone 'Australia/Sydney')
    union all
    select 'school:' || v.id, 'school', v.order_id, v.id, null, v.sent_at, null
    from public.invoices v
    where v.sent_at is not null and v.sent_at >= (p_start_on::timestamp at time zone 'Australia/Sydney')
    union all
    select 'school_paid:' || v.id, 'school_paid', v.order_id, v.id, null, v.paid_at, 'school:' || v.id
    from public.invoices v
    where v.status = 'paid'
    union all
    select 'school_void:' || v.id, 'school_void', v.order_id, v.id, null, v.voided_at, 'school:' || v.id
    from public.invoices v
    where v.status in ('void', 'uncollectible')
    union all
    -- A part refund (a card order's, or an invoice's credit note) once its order is posted as paid.
    select 'credit:' || r.id, 'credit', r.order_id, null, r.id, coalesce(r.settled_at, r.created_at), coalesce('school_paid:' || v.id, 'sale:' || r.order_id)
    from public.order_refunds r left join public.invoices v on v.order_id = r.order_id
    where r.status = 'succeeded'
    union all
    -- A refund of the whole order: what its parts had not already given back.
    select 'credit:' || o.id || ':full', 'credit', o.id, null, null, o.refunded_at, coalesce('school_paid:' || v.id, 'sale:' || o.id)
    from public.orders o left join public.invoices v on v.order_id = o.id
    where o.refunded_at is not null
      and o.total_amount > coalesce((select sum(x.amount) from public.order_refunds x where x.order_id = o.id and x.status = 'succeeded'), 0)
  ), unposted as (
    select d.key, d.kind, d.order_id, d.invoice_id, d.refund_id, null::jsonb as payout, d.occurred_at, 'new'::text as status,
      null::timestamptz as last_tried_at, d.needs
    from documents d
    where not exists (select 1 from public.xero_postings x where x.key = d.key)
    union all
    select 'payout:' || (e ->> 'id'), 'payout', null, null, null,
      jsonb_build_object('id', e ->> 'id', 'amount', (e ->> 'amount')::numeric, 'arrival_on', e ->> 'arrival_on'),
      ((e ->> 'arrival_on')::date)::timestamp at time zone 'Australia/Sydney', 'new', null, null
    from jsonb_array_elements(coalesce(p_payouts, '[]'::jsonb)) e
    where not exists (select 1 from public.xero_postings x where x.key = 'payout:' || (e ->> 'id'))
    union all
    -- In the ledger, not posted: each was claimed once what it needs was posted.
    select p.key, p.kind, p.order_id, p.invoice_id, p.refund_id, p.payout, p.occurred_at, p.status, p.last_tried_at, null
    from public.xero_postings p
    where p.status <> 'posted'
  ), waiting as (
    select u.*, true as ready
    from unposted u
    where u.needs is null or exists (select 1 from public.xero_postings x where x.key = u.needs and x.status = 'posted')
    union all
    select u.*, false
    from unposted u join waiting w on w.key = u.needs
  )
  select w.key, w.kind, w.order_id, w.invoice_id, w.refund_id, w.payout, w.occurred_at, w.status, w.last_tried_at, w.ready from waiting w;
$$;

-- One document as the sync posts it: the order's number, buyer, country, lines, shipping and discount; an
-- invoice's number, PO number, organisation and terms; a refund's amount and reason; the Xero ids it builds on.
create function public.xero_document(p_key text, p_kind text, p_order_id uuid, p_invoice_id uuid, p_refund_id uuid) returns jsonb
language sql stable as $$
  select jsonb_build_object(
    'key', p_key, 'kind', p_kind, 'order_id', o.id, 'number', o.number,
    'country', upper(coalesce(o.shipping_address ->> 'country', '')),
    'gst_applies', public.gst_applies(o.shipping_address ->> 'country'),
    'buyer', public.order_buyer_name(o.buyer_name, o.customer_name, o.is_gift), 'email', o.customer_email,
    'paid_on', (o.paid_at at time zone 'Australia/Sydney')::date,
    'total', o.total_amount, 'shipping', o.shipping_amount, 'shipping_name', coalesce(o.shipping_method ->> 'name', 'Shipping'),
    'discount', o.discount_amount, 'promotion_code', o.promotion_code,
    'lines', (select coalesce(jsonb_agg(jsonb_build_object('title', i.title, 'quantity', i.quantity, 'unit_price', i.price_at_time) order by i.title), '[]'::jsonb)
      from public.order_items i where i.order_id = o.id),
    'invoice', (select jsonb_build_object('number', public.invoice_label(v.number), 'po_number', v.po_number, 'organisation', v.organisation,
        'email', v.email, 'issued_on', (v.sent_at at time zone 'Australia/Sydney')::date, 'due_on', v.due_on,
        'paid_on', (v.paid_at at time zone 'Australia/Sydney')::date, 'total', v.total)
      from public.invoices v where v.order_id = o.id),
    'refund', case
      when p_refund_id is not null then (select jsonb_build_object('amount', r.amount, 'reason', r.reason,
          'on', (coalesce(r.settled_at, r.created_at) at time zone 'Australia/Sydney')::date) from public.order_refunds r where r.id = p_refund_id)
      when p_kind = 'credit' then jsonb_build_object(
          'amount', o.total_amount - coalesce((select sum(x.amount) from public.order_refunds x where x.order_id = o.id and x.status = 'succeeded'), 0),
          'reason', 'Refunded in full', 'on', (o.refunded_at at time zone 'Australia/Sydney')::date)
    end,
    -- What an earlier try already made of this document (its payment is what failed): not made again.
    'made', (select jsonb_build_object('xero_id', p.xero_id, 'xero_number', p.xero_number, 'total', p.total, 'gst', p.gst)
      from public.xero_postings p where p.key = p_key and p.xero_id is not null),
    -- The order's Xero invoice, for a payment, a void or a credit note's reference.
    'xero_invoice_id', (select p.xero_id from public.xero_postings p where p.order_id = o.id and p.kind in ('sale', 'school') and p.status = 'posted'),
    'xero_invoice_number', (select p.xero_number from public.xero_postings p where p.order_id = o.id and p.kind in ('sale', 'school') and p.status = 'posted')
  )
  from public.orders o where o.id = p_order_id;
$$;

-- Claims a batch of one kind to post: a batch whose run died (its lease lapsed) first, under the same id, so it is
-- posted again under the same idempotency keys; else a new batch of what waits (xero_waiting: new and ready), then
-- of what failed before (oldest try first). Answers { batch, documents: [...] }, batch null when nothing of the kind waits. One claim at a time.
-- Payouts are not in the database: the sync gives the ones Stripe paid since the first day (p_payouts, an array of
-- { id, amount, arrival_on }), and those not yet in the ledger wait. p_tried_before: a run gives its start, so what
-- failed in this run waits for the next instead of being sent again at once.
create function public.xero_claim(p_kind text, p_limit integer, p_lease_seconds integer default 300, p_payouts jsonb default null,
  p_tried_before timestamptz default null) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_start date;
  v_batch uuid;
  v_limit integer;
  v_lease interval;
  v_payout jsonb;
begin
  if p_kind is null or p_kind not in ('sale', 'school', 'school_paid', 'school_void', 'credit', 'payout') then
    raise exception 'xero_claim: the kind must be sale, school, school_paid, school_void, credit or payout' using errcode = '22023';
  end if;
  if (p_kind = 'payout') <> (p_payouts is not null) then
    raise exception 'xero_claim: the payouts Stripe paid are given with a payout claim, and only then' using errcode = '22023';
  end if;
  if p_kind = 'payout' then
    if jsonb_typeof(p_payouts) <> 'array' then
      raise exception 'xero_claim: the payouts are an array of { id, amount, arrival_on }' using errcode = '22023';
    end if;
    for v_payout in select * from jsonb_array_elements(p_payouts) loop
      if jsonb_typeof(v_payout) <> 'object' or coalesce(v_payout ->> 'id', '') !~ '^po_[A-Za-z0-9_]{1,100}$'
        or coalesce(v_payout ->> 'amount', '') !~ '^[0-9]{1,8}(\.[0-9]{1,2})?$' or (v_payout ->> 'amount')::numeric <= 0
        or coalesce(v_payout ->> 'arrival_on', '') !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
        raise exception 'xero_claim: a payout is { id: po_…, amount: dollars above zero, arrival_on: yyyy-mm-dd }, not %', left(v_payout::text, 200) using errcode = '22023';
      end if;
    end loop;
  end if;
  if p_limit is null or p_limit not between 1 and 100 or p_lease_seconds is null or p_lease_seconds not between 10 and 3600 then
    raise exception 'xero_claim: a batch is 1 to 100 documents, leased for 10 to 3600 seconds' using errcode = '22023';
  end if;
  v_limit := p_limit;
  v_lease := make_interval(secs => p_lease_seconds);
  select c.start_on into v_start from public.xero_connection c where c.tenant_id is not null;
  if v_start is null then
    raise exception 'Connect the shop to Xero first.' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(20261128, 13);

  select p.batch into v_batch from public.xero_postings p
    where p.kind = p_kind and p.status = 'claimed' and p.claimed_until <= now() order by p.first_claimed_at limit 1;
  if v_batch is not null then
    update public.xero_postings set claimed_until = now() + v_lease, attempts = attempts + 1, last_tried_at = now() where batch = v_batch;
  else
    v_batch := gen_random_uuid();
    insert into public.xero_postings (key, kind, order_id, invoice_id, refund_id, payout, occurred_at, status, batch, claimed_until)
      select w.key, w.kind, w.order_id, w.invoice_id, w.refund_id, w.payout, w.occurred_at, 'claimed', v_batch, now() + v_lease
      from public.xero_waiting(v_start, p_payouts) w where w.kind = p_kind and w.status = 'new' and w.ready
      order by w.occurred_at, w.key limit v_limit
      on conflict (key) do nothing;
    v_limit := v_limit - (select count(*) from public.xero_postings where batch = v_batch);
    if v_limit > 0 then
      update public.xero_postings p set status = 'claimed', batch = v_batch, claimed_until = now() + v_lease, attempts = p.attempts + 1, last_tried_at = now()
        where p.key in (select w.key from public.xero_waiting(v_start) w where w.kind = p_kind and w.status = 'failed'
          and (p_tried_before is null or w.last_tried_at < p_tried_before) order by w.last_tried_at, w.key limit v_limit);
    end if;
    if not exists (select 1 from public.xero_postings where batch = v_batch) then
      return jsonb_build_object('batch', null, 'documents', '[]'::jsonb);
    end if;
  end if;
  return jsonb_build_object('batch', v_batch, 'documents',
    (select jsonb_agg(case when p.kind = 'payout' then jsonb_build_object('key', p.key, 'kind', p.kind, 'payout', p.payout,
        'made', case when p.xero_id is not null then jsonb_build_object('xero_id', p.xero_id) end)
      else public.xero_document(p.key, p.kind, p.order_id, p.invoice_id, p.refund_id) end order by p.occurred_at, p.key)
     from public.xero_postings p where p.batch = v_batch));
end;
$$;

-- Settles a claimed batch: each key posted (with Xero's ids, total and GST), failed (Xero's words; claimed anew,
-- under a new batch, by a later run) or to retry (the answer was lost or Xero was busy: the same batch is posted
-- again by the next run, under the same keys). Keys not in the batch are refused.
create function public.xero_settle(p_batch uuid, p_results jsonb) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  v_result jsonb;
  v_count integer := 0;
  v_status text;
begin
  if p_batch is null or p_results is null or jsonb_typeof(p_results) <> 'array' then
    raise exception 'xero_settle: give the batch and an array of results' using errcode = '22023';
  end if;
  for v_result in select * from jsonb_array_elements(p_results) loop
    v_status := v_result ->> 'status';
    if v_status is null or v_status not in ('posted', 'failed', 'retry') then
      raise exception 'xero_settle: a result is posted, failed or retry' using errcode = '22023';
    end if;
    if v_status = 'posted' and coalesce(v_result ->> 'xero_id', '') = '' then
      raise exception 'xero_settle: a posted result carries its Xero id' using errcode = '22023';
    end if;
    update public.xero_postings p set
      status = case v_status when 'retry' then 'claimed' else v_status end,
      batch = case v_status when 'retry' then p.batch end,
      claimed_until = case v_status when 'retry' then now() end,
      xero_id = coalesce(v_result ->> 'xero_id', p.xero_id),
      xero_number = coalesce(v_result ->> 'xero_number', p.xero_number),
      payment_id = coalesce(v_result ->> 'payment_id', p.payment_id),
      total = coalesce((v_result ->> 'total')::numeric, p.total),
      gst = coalesce((v_result ->> 'gst')::numeric, p.gst),
      error = case v_status when 'posted' then null else left(coalesce(nullif(v_result ->> 'error', ''), 'Xero did not say why.'), 1000) end,
      posted_at = case v_status when 'posted' then now() end
    where p.key = v_result ->> 'key' and p.batch = p_batch and p.status = 'claimed';
    if not found then
      raise exception 'xero_settle: % is not claimed in this batch', v_result ->> 'key' using errcode = '22023';
    end if;
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$$;

-- What the back office shows: the connection (never its token), the last run, what waits and what failed.
create function public.admin_xero_status() returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select jsonb_build_object(
    'connection', (select jsonb_build_object('tenant_name', c.tenant_name, 'connected_at', c.connected_at, 'connected_by', c.connected_by,
        'start_on', c.start_on, 'refresh_expires_at', c.refresh_expires_at, 'renewal_reason', c.renewal_reason)
      from public.xero_connection c where c.tenant_id is not null),
    'last_sync', (select jsonb_build_object('started_at', s.started_at, 'finished_at', s.finished_at, 'trigger', s.trigger, 'posted', s.posted,
        'failed', s.failed, 'calls', s.calls, 'stopped', s.stopped) from public.xero_syncs s order by s.started_at desc, s.id desc limit 1),
    'posted', (select count(*) from public.xero_postings where status = 'posted'),
    'waiting', n.waiting,
    'refused', n.refused,
    'failures', (select coalesce(jsonb_agg(jsonb_build_object('key', f.key, 'kind', f.kind, 'number', o.number, 'order_id', f.order_id,
        'payout_id', f.payout ->> 'id', 'error', f.error, 'attempts', f.attempts, 'last_tried_at', f.last_tried_at) order by f.last_tried_at desc), '[]'::jsonb)
      from (select * from public.xero_postings where status = 'failed' order by last_tried_at desc limit 50) f left join public.orders o on o.id = f.order_id)
  )
  -- What the next sync posts, as it claims it (none before a connection); Stripe's new payouts are not known until
  -- the sync asks Stripe.
  from (select count(*) as waiting, count(*) filter (where w.status = 'failed') as refused
          from public.xero_connection c cross join lateral public.xero_waiting(c.start_on) w
         where c.tenant_id is not null) n;
$$;

revoke all on function public.xero_waiting(date, jsonb), public.xero_document(text, text, uuid, uuid, uuid), public.xero_claim(text, integer, integer, jsonb, timestamptz),
  public.xero_settle(uuid, jsonb), public.admin_xero_status() from public, anon, authenticated, service_role;
grant execute on function public.xero_claim(text, integer, integer, jsonb, timestamptz), public.xero_settle(uuid, jsonb) to service_role;
grant execute on function public.admin_xero_status() to authenticated;
