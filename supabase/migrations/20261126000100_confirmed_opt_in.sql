-- Confirmed opt-in for both mailing lists (the newsletter, and "Email me when it's available"), and one record of
-- who said no to the shop's marketing email.
--
-- A sign-up on the website is only a request: it sends one email with a signed confirmation link (valid 7 days),
-- and only an address confirmed from its own inbox is written to. A pending sign-up holds no consent (consent_at
-- stays null) and is deleted once its link has expired. A pending address asks for at most one more confirmation a
-- day, and an address that unsubscribed stays unsubscribed until it confirms again; a stranger's sign-up of it can
-- only send that one confirmation.
--
-- Availability emails go through the newsletter's batched, resumable sender: a stock change draws the book's
-- confirmed requests into a mailing (a newsletters row with the book's id), which the back office sends a batch at a
-- time, as it sends a newsletter.
--
-- marketing_opt_outs: an address that unsubscribed from any marketing email (newsletter, availability, checkout
-- reminder) is sent no checkout reminder again.

-- ---------------------------------------------------------------------------------------------------------------
-- The newsletter

alter table public.newsletter_subscriptions
  alter column consent_at drop not null,
  alter column consent_source drop not null,
  add column confirmation_sent_at timestamptz,
  add column confirmation_page text check (confirmation_page is null or char_length(confirmation_page) <= 300),
  add column status text generated always as (
    case when unsubscribed_at is not null then 'unsubscribed' when consent_at is not null then 'confirmed' else 'pending' end
  ) stored,
  -- A consent is a time and where it was given, or neither.
  add constraint newsletter_subscriptions_consent_whole check ((consent_at is null) = (consent_source is null)),
  -- A row without consent is a sign-up waiting for its confirmation (or an address that unsubscribed).
  add constraint newsletter_subscriptions_pending_asked check (consent_at is not null or unsubscribed_at is not null or confirmation_sent_at is not null);

-- The expiry sweep looks only at pending rows.
create index newsletter_subscriptions_pending_idx on public.newsletter_subscriptions (confirmation_sent_at) where consent_at is null and unsubscribed_at is null;

-- ---------------------------------------------------------------------------------------------------------------
-- Back in stock

alter table public.back_in_stock_requests
  add column confirmation_sent_at timestamptz,
  add column confirmed_at timestamptz,
  -- The availability mailing it was drawn into: it is then off the list.
  add column mailing_id uuid references public.newsletters (id) on delete set null,
  add column drawn_at timestamptz;
-- Requests from before confirmation by email were all the shop's own test data.
update public.back_in_stock_requests set confirmed_at = created_at;
alter table public.back_in_stock_requests
  add constraint back_in_stock_requests_pending_asked check (confirmed_at is not null or confirmation_sent_at is not null),
  add constraint back_in_stock_requests_drawn_confirmed check (drawn_at is null or confirmed_at is not null);

alter table public.newsletters
  -- An availability mailing: the book that came back.
  add column product_id text references public.products (id);

alter table public.newsletter_deliveries
  add column back_in_stock_request_id uuid references public.back_in_stock_requests (id) on delete set null;

create table public.marketing_opt_outs (
  email text primary key check (email = lower(email) and char_length(email) between 3 and 254),
  opted_out_at timestamptz not null default now(),
  via text not null check (via in ('newsletter', 'availability', 'reminder'))
);
alter table public.marketing_opt_outs enable row level security;
revoke all on public.marketing_opt_outs from public, anon, authenticated, service_role;
grant select on public.marketing_opt_outs to service_role;

-- ---------------------------------------------------------------------------------------------------------------
-- Sign-ups: one function per list answers what to do with a request, under a lock on the address.
--   send: email a confirmation now ({ id, sent_at }); wait: one was sent in the last day, send nothing;
--   subscribed: the address is confirmed already. Back in stock also answers for_sale (the book can be bought now)
--   and unknown (no such book).

create function public.expire_pending_sign_ups()
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.newsletter_subscriptions where consent_at is null and unsubscribed_at is null and confirmation_sent_at < now() - interval '7 days';
  update public.newsletter_subscriptions set confirmation_sent_at = null, confirmation_page = null
    where unsubscribed_at is not null and confirmation_sent_at < now() - interval '7 days';
  delete from public.back_in_stock_requests where confirmed_at is null and confirmation_sent_at < now() - interval '7 days';
$$;

create function public.newsletter_request(p_email text, p_page text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := btrim(coalesce(p_email, ''));
  v_row public.newsletter_subscriptions;
begin
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || lower(v_email), 0));
  perform public.expire_pending_sign_ups();
  select * into v_row from public.newsletter_subscriptions where lower(email) = lower(v_email) for update;
  if not found then
    insert into public.newsletter_subscriptions (email, consent_at, consent_source, confirmation_sent_at, confirmation_page)
      values (v_email, null, null, now(), p_page)
      returning * into v_row;
    return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
  end if;
  if v_row.status = 'confirmed' then
    return jsonb_build_object('action', 'subscribed', 'id', v_row.id);
  end if;
  -- One confirmation a day; and none the day a sign-up was answered "this wasn't me".
  if v_row.confirmation_sent_at > now() - interval '1 day' or (v_row.consent_at is null and v_row.unsubscribed_at > now() - interval '1 day') then
    return jsonb_build_object('action', 'wait', 'id', v_row.id);
  end if;
  update public.newsletter_subscriptions set confirmation_sent_at = now(), confirmation_page = p_page where id = v_row.id returning * into v_row;
  return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
end;
$$;

create function public.back_in_stock_request(p_product_id text, p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := btrim(coalesce(p_email, ''));
  v_product public.products;
  v_row public.back_in_stock_requests;
begin
  select * into v_product from public.products where id = p_product_id;
  if not found then
    return jsonb_build_object('action', 'unknown');
  end if;
  -- Only a book that cannot be bought now has a waiting list.
  if v_product.for_sale and v_product.stock > 0 then
    return jsonb_build_object('action', 'for_sale');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('back_in_stock:' || p_product_id || ':' || lower(v_email), 0));
  perform public.expire_pending_sign_ups();
  select * into v_row from public.back_in_stock_requests where product_id = p_product_id and lower(email) = lower(v_email) for update;
  -- Emailed when the book last came back: a new wait starts from the beginning.
  if found and v_row.drawn_at is not null then
    delete from public.back_in_stock_requests where id = v_row.id;
    found := false;
  end if;
  if not found then
    insert into public.back_in_stock_requests (product_id, email, confirmation_sent_at) values (p_product_id, v_email, now()) returning * into v_row;
    return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
  end if;
  if v_row.confirmed_at is not null then
    return jsonb_build_object('action', 'subscribed', 'id', v_row.id);
  end if;
  if v_row.confirmation_sent_at > now() - interval '1 day' then
    return jsonb_build_object('action', 'wait', 'id', v_row.id);
  end if;
  update public.back_in_stock_requests set confirmation_sent_at = now() where id = v_row.id returning * into v_row;
  return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
end;
$$;

-- The confirmation email could not be sent: the request is taken back, so the next sign-up sends one at once.
create function public.sign_up_not_sent(p_list text, p_id uuid, p_sent_at timestamptz)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_list = 'newsletter' then
    delete from public.newsletter_subscriptions where id = p_id and status = 'pending' and confirmation_sent_at = p_sent_at;
    update public.newsletter_subscriptions set confirmation_sent_at = null, confirmation_page = null where id = p_id and confirmation_sent_at = p_sent_at;
  elsif p_list = 'availability' then
    delete from public.back_in_stock_requests where id = p_id and confirmed_at is null and confirmation_sent_at = p_sent_at;
  else
    raise exception 'Unknown list %', p_list using errcode = '22023';
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- The link in the confirmation email: confirm, or "this wasn't me". Only the newest confirmation email counts: its
-- link was made (p_issued_at) at or after the request it answers, so a link from before an unsubscribe, or from an
-- earlier email, confirms nothing. Each answers what it did: confirmed | already (confirmed before) | stale (a
-- newer email, or none waiting) | declined | unknown (expired or removed); back in stock also available (the book
-- can be bought now: nothing is queued) and sent (its email has gone).

create function public.newsletter_confirm(p_subscription_id uuid, p_source text, p_issued_at timestamptz)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.newsletter_subscriptions;
begin
  select * into v_row from public.newsletter_subscriptions where id = p_subscription_id for update;
  if not found then
    return 'unknown';
  end if;
  if v_row.status = 'confirmed' then
    return 'already';
  end if;
  if v_row.confirmation_sent_at is null or p_issued_at < date_trunc('second', v_row.confirmation_sent_at) then
    return 'stale';
  end if;
  update public.newsletter_subscriptions
     set consent_at = now(), consent_source = p_source, consent_page = confirmation_page, unsubscribed_at = null,
         confirmation_sent_at = null, confirmation_page = null
   where id = p_subscription_id;
  return 'confirmed';
end;
$$;

-- Someone else typed this address: it becomes (or stays) an unsubscribed address, with no consent, and the
-- request is answered (a sign-up of a never-confirmed address the same day sends nothing more: newsletter_request).
-- A confirmed one (the link was followed after confirming) is unsubscribed too: the reader says they did not ask.
create function public.newsletter_decline(p_subscription_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  update public.newsletter_subscriptions set unsubscribed_at = coalesce(unsubscribed_at, now()), confirmation_sent_at = null, confirmation_page = null
    where id = p_subscription_id
    returning lower(email) into v_email;
  if not found then
    return 'unknown';
  end if;
  insert into public.marketing_opt_outs (email, via) values (v_email, 'newsletter') on conflict do nothing;
  return 'declined';
end;
$$;

create function public.back_in_stock_confirm(p_request_id uuid, p_issued_at timestamptz)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.back_in_stock_requests;
begin
  select * into v_row from public.back_in_stock_requests where id = p_request_id for update;
  if not found then
    return 'unknown';
  end if;
  if v_row.drawn_at is not null then
    return 'sent';
  end if;
  if v_row.confirmed_at is not null then
    return 'already';
  end if;
  if p_issued_at < date_trunc('second', v_row.confirmation_sent_at) then
    return 'stale';
  end if;
  -- Back in stock before the link was followed: say so, and queue nothing for a later sell-out.
  if exists (select 1 from public.products p where p.id = v_row.product_id and p.for_sale and p.stock > 0) then
    delete from public.back_in_stock_requests where id = p_request_id;
    return 'available';
  end if;
  update public.back_in_stock_requests set confirmed_at = now() where id = p_request_id;
  return 'confirmed';
end;
$$;

create function public.back_in_stock_decline(p_request_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.back_in_stock_requests where id = p_request_id and drawn_at is null;
  return case when found then 'declined' else 'unknown' end;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Unsubscribing. The newsletter's link names the subscription; an availability email's and a reminder's name the
-- address. Every one of them is recorded as an opt-out, which the checkout reminder honours.

create or replace function public.newsletter_unsubscribe(p_subscription_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  update public.newsletter_subscriptions set unsubscribed_at = now(), confirmation_sent_at = null, confirmation_page = null
    where id = p_subscription_id and unsubscribed_at is null
    returning lower(email) into v_email;
  if found then
    insert into public.marketing_opt_outs (email, via) values (v_email, 'newsletter') on conflict do nothing;
    return 'unsubscribed';
  end if;
  return case when exists (select 1 from public.newsletter_subscriptions where id = p_subscription_id) then 'already' else 'unknown' end;
end;
$$;

-- From an availability email or a checkout reminder: no reminder again, and (from an availability email) off
-- every book's waiting list, including a mailing still being sent. 'unsubscribed' or 'already'.
create function public.marketing_opt_out(p_email text, p_via text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
begin
  if p_via not in ('availability', 'reminder') then
    raise exception 'Unknown list %', p_via using errcode = '22023';
  end if;
  -- Off every list, and out of any availability mailing not yet sent to it (its delivery is then skipped).
  if p_via = 'availability' then
    delete from public.back_in_stock_requests where lower(email) = v_email;
  end if;
  insert into public.marketing_opt_outs (email, via) values (v_email, p_via) on conflict do nothing;
  return case when found then 'unsubscribed' else 'already' end;
end;
$$;

drop function public.newsletter_resubscribe(text, text, text);

-- ---------------------------------------------------------------------------------------------------------------
-- Sending: newsletters go to confirmed readers only; availability mailings to a book's confirmed requests.

create or replace function public.admin_create_newsletter(p_subject text, p_body text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_actor text := public.require_staff();
  v_subject text := regexp_replace(btrim(coalesce(p_subject, '')), '\s+', ' ', 'g');
  v_body text := btrim(coalesce(p_body, ''));
  v_id uuid;
  v_count integer;
begin
  if char_length(v_subject) not between 1 and 200 then
    raise exception 'Give the newsletter a subject of up to 200 characters.' using errcode = '22023';
  end if;
  if char_length(v_body) not between 1 and 50000 then
    raise exception 'Write the newsletter (up to 50 000 characters).' using errcode = '22023';
  end if;
  insert into public.newsletters (subject, body_markdown, created_by) values (v_subject, v_body, v_actor) returning id into v_id;
  insert into public.newsletter_deliveries (newsletter_id, email, subscription_id)
    select v_id, lower(s.email), s.id from public.newsletter_subscriptions s where s.status = 'confirmed'
    on conflict do nothing;
  get diagnostics v_count = row_count;
  if v_count = 0 then
    raise exception 'There is nobody to send it to: no one is subscribed.' using errcode = '22023';
  end if;
  return jsonb_build_object('id', v_id, 'recipients', v_count);
end;
$$;

-- The book is for sale again: its confirmed, not yet emailed requests are drawn into one mailing, which the back
-- office sends as it sends a newsletter. Null when nobody is waiting (or the book still cannot be bought).
create function public.availability_create_mailing(p_product_id text, p_subject text, p_body text, p_actor text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
  v_count integer;
begin
  -- One draw at a time per book: two stock changes at once make one mailing.
  perform 1 from public.products where id = p_product_id and for_sale and stock > 0 for update;
  if not found then
    return null;
  end if;
  if not exists (select 1 from public.back_in_stock_requests where product_id = p_product_id and confirmed_at is not null and drawn_at is null) then
    return null;
  end if;
  insert into public.newsletters (subject, body_markdown, created_by, product_id) values (p_subject, p_body, p_actor, p_product_id) returning id into v_id;
  with drawn as (
    update public.back_in_stock_requests set drawn_at = now(), mailing_id = v_id
     where product_id = p_product_id and confirmed_at is not null and drawn_at is null
     returning id, lower(email) as email
  )
  insert into public.newsletter_deliveries (newsletter_id, email, back_in_stock_request_id)
    select v_id, email, id from drawn
    on conflict do nothing;
  get diagnostics v_count = row_count;
  return jsonb_build_object('id', v_id, 'recipients', v_count);
end;
$$;

-- As before, with the availability requests: a recipient is sent to while their confirmed subscription, or their
-- request, is still there. Answers recipients with their subscription or request id.
create or replace function public.newsletter_claim_batch(p_newsletter_id uuid, p_size integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_batch integer;
begin
  if p_size is null or p_size not between 1 and 100 then
    raise exception 'A batch is 1 to 100 emails.' using errcode = '22023';
  end if;
  -- One claim at a time per newsletter.
  perform 1 from public.newsletters where id = p_newsletter_id for update;
  if not found then
    raise exception 'Newsletter % not found', p_newsletter_id using errcode = 'P0002';
  end if;
  update public.newsletter_deliveries d set status = 'skipped'
    where d.newsletter_id = p_newsletter_id and d.status = 'pending'
      and not exists (select 1 from public.newsletter_subscriptions s where s.id = d.subscription_id and s.status = 'confirmed')
      and not exists (select 1 from public.back_in_stock_requests r where r.id = d.back_in_stock_request_id);
  -- Past the provider's idempotency window a resend could be a second copy: set aside, never sent again.
  update public.newsletter_deliveries set status = 'unknown'
    where newsletter_id = p_newsletter_id and status = 'claimed' and first_claimed_at < now() - interval '23 hours';

  select min(batch) into v_batch from public.newsletter_deliveries
    where newsletter_id = p_newsletter_id and status = 'claimed' and claimed_at < now() - interval '2 minutes';
  if v_batch is not null then
    update public.newsletter_deliveries set claimed_at = now() where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed';
  elsif exists (select 1 from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'pending') then
    select coalesce(max(batch), 0) + 1 into v_batch from public.newsletter_deliveries where newsletter_id = p_newsletter_id;
    update public.newsletter_deliveries set status = 'claimed', batch = v_batch, claimed_at = now(), first_claimed_at = now()
      where newsletter_id = p_newsletter_id and email in (
        select email from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'pending' order by email limit p_size);
  elsif exists (select 1 from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'claimed') then
    return jsonb_build_object('batch', null, 'state', 'busy');
  else
    update public.newsletters set finished_at = coalesce(finished_at, now()) where id = p_newsletter_id;
    return jsonb_build_object('batch', null, 'state', 'done');
  end if;
  return jsonb_build_object('batch', v_batch, 'recipients', (
    select coalesce(jsonb_agg(jsonb_build_object('email', email, 'subscription_id', subscription_id, 'request_id', back_in_stock_request_id) order by email), '[]'::jsonb)
    from public.newsletter_deliveries where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed'));
end;
$$;

-- The back office's list of newsletters and availability mailings (with their book), with how many were sent,
-- skipped, set aside as unknown and still waiting.
create or replace function public.admin_list_newsletters()
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
  select coalesce(jsonb_agg(jsonb_build_object('id', n.id, 'subject', n.subject, 'created_by', n.created_by, 'created_at', n.created_at,
      'finished_at', n.finished_at, 'product_id', n.product_id, 'recipients', d.recipients, 'sent', d.sent, 'skipped', d.skipped, 'unknown', d.unknown,
      'waiting', d.waiting)
      order by n.created_at desc), '[]'::jsonb)
    into v_result
    from public.newsletters n
    cross join lateral (
      select count(*) as recipients, count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'skipped') as skipped,
        count(*) filter (where status = 'unknown') as unknown, count(*) filter (where status in ('pending', 'claimed')) as waiting
      from public.newsletter_deliveries where newsletter_id = n.id) d;
  return v_result;
end;
$$;

-- Every product for sale with its stock, its low-stock level and how many confirmed shoppers wait for it.
create or replace function public.admin_list_stock()
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
  select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'title', p.title, 'stock', p.stock, 'low_stock_level', p.low_stock_level,
      'waiting', (select count(*) from public.back_in_stock_requests r where r.product_id = p.id and r.confirmed_at is not null and r.drawn_at is null))
      order by p.title, p.id), '[]'::jsonb)
    into v_result
    from public.products p
    where p.for_sale;
  return v_result;
end;
$$;

drop function public.claim_back_in_stock(text);

-- ---------------------------------------------------------------------------------------------------------------
-- The checkout reminder, as before, and never to an address that unsubscribed from any marketing email.

create or replace function public.claim_checkout_reminder(p_order_id uuid, p_once_within_days integer)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_token text;
begin
  if p_once_within_days is null or p_once_within_days < 0 then
    raise exception 'p_once_within_days must be zero or more' using errcode = '22023';
  end if;
  select lower(o.customer_email) into v_email from public.orders o where o.id = p_order_id;
  if v_email is null then
    return null;
  end if;
  if exists (select 1 from public.marketing_opt_outs where email = v_email) then
    return null;
  end if;
  perform pg_advisory_xact_lock(hashtextextended('checkout_reminder:' || v_email, 0));

  update public.orders o
     set reminder_sent_at = now(),
         recovery_token = coalesce(o.recovery_token, replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
   where o.id = p_order_id
     and o.reminder_consent_at is not null
     and o.reminder_sent_at is null
     and o.payment_status in ('unpaid', 'expired')
     -- They came back by themselves: a newer order with the same email.
     and not exists (
       select 1 from public.orders later
        where lower(later.customer_email) = v_email and later.id <> o.id and later.created_at > o.created_at
     )
     -- They have heard from the shop already.
     and not exists (
       select 1 from public.orders reminded
        where lower(reminded.customer_email) = v_email and reminded.id <> o.id
          and reminded.reminder_sent_at > now() - make_interval(days => p_once_within_days)
     )
  returning o.recovery_token into v_token;
  return v_token;
end;
$$;

revoke all on function public.expire_pending_sign_ups(), public.newsletter_request(text, text), public.back_in_stock_request(text, text),
  public.sign_up_not_sent(text, uuid, timestamptz), public.newsletter_confirm(uuid, text, timestamptz), public.newsletter_decline(uuid),
  public.back_in_stock_confirm(uuid, timestamptz), public.back_in_stock_decline(uuid), public.marketing_opt_out(text, text),
  public.availability_create_mailing(text, text, text, text)
  from public, anon, authenticated, service_role;
grant execute on function public.newsletter_request(text, text), public.back_in_stock_request(text, text), public.sign_up_not_sent(text, uuid, timestamptz),
  public.newsletter_confirm(uuid, text, timestamptz), public.newsletter_decline(uuid), public.back_in_stock_confirm(uuid, timestamptz), public.back_in_stock_decline(uuid),
  public.marketing_opt_out(text, text), public.availability_create_mailing(text, text, text, text)
  to service_role;
