-- Mailing lists and messages: the newsletter with confirmed opt-in, "Email me when it's available", the mailings
-- sent a batch at a time, marketing opt-outs, and the contact form's messages.
-- This file holds the tables, the sign-ups and their confirmation links; the rest follows in _mailing_sending.sql.

-- ===============================================================================================================
-- Tables

-- Contact messages, stored by /api/send-notification with the service role after its bot-check (nobody posts
-- rows straight to /rest/v1); staff mark them handled.
create table public.contact_submissions (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  subject text not null check (char_length(btrim(subject)) between 1 and 200),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  created_at timestamptz not null default now(),
  handled_at timestamptz,
  handled_by text check (handled_by is null or char_length(handled_by) <= 254)
);

-- The newsletter's readers, with confirmed opt-in. A sign-up on the website is only a request: it sends one email
-- with a signed confirmation link (valid 7 days), and only an address confirmed from its own inbox is written to.
-- A pending sign-up holds no consent (consent_at stays null) and is deleted once its link has expired. A pending
-- address asks for at most one more confirmation a day, and an address that unsubscribed stays unsubscribed until
-- it confirms again; a stranger's sign-up of it can only send that one confirmation. A reader's consent is when,
-- and where they agreed. Written by the server functions only (after the bot-check).
create table public.newsletter_subscriptions (
  id uuid primary key default gen_random_uuid(),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  created_at timestamptz not null default now(),
  consent_at timestamptz default now(),
  consent_source text default 'Website sign-up form',
  consent_page text check (consent_page is null or char_length(consent_page) <= 300),
  unsubscribed_at timestamptz,
  confirmation_sent_at timestamptz,
  confirmation_page text check (confirmation_page is null or char_length(confirmation_page) <= 300),
  status text generated always as (
    case when unsubscribed_at is not null then 'unsubscribed' when consent_at is not null then 'confirmed' else 'pending' end
  ) stored,
  notice_sent_at timestamptz,
  constraint newsletter_subscriptions_consent_source_length check (char_length(consent_source) between 1 and 200),
  -- A consent is a time and where it was given, or neither.
  constraint newsletter_subscriptions_consent_whole check ((consent_at is null) = (consent_source is null)),
  -- A row without consent is a sign-up waiting for its confirmation (or an address that unsubscribed).
  constraint newsletter_subscriptions_pending_asked check (consent_at is not null or unsubscribed_at is not null or confirmation_sent_at is not null)
);
comment on column public.newsletter_subscriptions.notice_sent_at is 'when a confirmed reader who signed up again was last told they are already subscribed';

-- Newsletters, and availability mailings (a newsletters row with the book's id). A mailing's recipients are drawn
-- when it is written, one delivery row each; the sender claims them a batch at a time and marks each batch sent,
-- so a send that stops half-way is resumed without anyone getting it twice (a batch claimed but never confirmed is
-- sent again with the same idempotency key, which the email provider answers without sending again). An
-- unsubscribed address is never sent to.
create table public.newsletters (
  id uuid primary key default gen_random_uuid(),
  subject text not null check (char_length(btrim(subject)) between 1 and 200 and subject !~ '[[:cntrl:]]'),
  body_markdown text not null check (char_length(btrim(body_markdown)) between 1 and 50000),
  created_by text not null check (char_length(created_by) between 1 and 254),
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  -- An availability mailing: the book that came back.
  product_id text references public.products (id)
);

-- Email me when it's available: one row per address and book (in any letter case), written only by the server
-- function behind the bot-check (service role), and confirmed from the address's inbox as a newsletter sign-up
-- is. A stock change draws the book's confirmed requests into an availability mailing, which the back office
-- sends a batch at a time, as it sends a newsletter; a drawn request is then off the list.
create table public.back_in_stock_requests (
  id uuid primary key default gen_random_uuid(),
  product_id text not null references public.products (id),
  email text not null check (char_length(email) between 3 and 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  created_at timestamptz not null default now(),
  -- Claimed by the one caller sending its email; a claim left by a caller that died is taken again after 15 minutes.
  claimed_at timestamptz,
  confirmation_sent_at timestamptz,
  confirmed_at timestamptz,
  -- The availability mailing it was drawn into: it is then off the list.
  mailing_id uuid references public.newsletters (id) on delete set null,
  drawn_at timestamptz,
  notice_sent_at timestamptz,
  constraint back_in_stock_requests_pending_asked check (confirmed_at is not null or confirmation_sent_at is not null),
  constraint back_in_stock_requests_drawn_confirmed check (drawn_at is null or confirmed_at is not null)
);
comment on column public.back_in_stock_requests.notice_sent_at is 'when a confirmed request signed up again was last told it is already on the list';

-- A newsletter batch is handed to the email provider under one idempotency key, which the provider honours for
-- 24 hours: a batch whose answer never came is sent again under that key only within the window. Past it (23
-- hours from the batch's first claim, to leave room for a slow call), a second send could reach its readers
-- twice, so the batch's recipients are set aside as 'unknown' (whether it reached them is not known) and never
-- sent again; the back office says how many.
create table public.newsletter_deliveries (
  newsletter_id uuid not null references public.newsletters (id) on delete cascade,
  -- The address as it was when the newsletter was written, lower case: one delivery per address.
  email text not null check (email = lower(email) and char_length(email) <= 254),
  subscription_id uuid references public.newsletter_subscriptions (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'claimed', 'sent', 'skipped', 'unknown')),
  batch integer check (batch is null or batch > 0),
  claimed_at timestamptz,
  sent_at timestamptz,
  first_claimed_at timestamptz,
  back_in_stock_request_id uuid references public.back_in_stock_requests (id) on delete set null,
  primary key (newsletter_id, email),
  constraint newsletter_deliveries_batch_when_claimed check ((status in ('claimed', 'sent', 'unknown')) = (batch is not null)),
  constraint newsletter_deliveries_sent_whole check ((status = 'sent') = (sent_at is not null)),
  constraint newsletter_deliveries_first_claim check ((status in ('claimed', 'sent', 'unknown')) = (first_claimed_at is not null))
);

-- An address that unsubscribed from any marketing email (newsletter, availability, checkout reminder): it is sent
-- no checkout reminder again.
create table public.marketing_opt_outs (
  email text primary key check (email = lower(email) and char_length(email) between 3 and 254),
  opted_out_at timestamptz not null default now(),
  via text not null check (via in ('newsletter', 'availability', 'reminder'))
);

-- ===============================================================================================================
-- Indexes

-- One subscription per address, whatever its case.
create unique index newsletter_subscriptions_email_key on public.newsletter_subscriptions (lower(email));
-- The expiry sweep looks only at pending rows.
create index newsletter_subscriptions_pending_idx on public.newsletter_subscriptions (confirmation_sent_at) where consent_at is null and unsubscribed_at is null;
create unique index back_in_stock_requests_address_key on public.back_in_stock_requests (product_id, lower(email));
create index newsletter_deliveries_batch_idx on public.newsletter_deliveries (newsletter_id, batch);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: mailing lists

-- Sign-ups: one function per list answers what to do with a request, under a lock on the address, and the same
-- for a new, pending or confirmed address. The form and the API answer every sign-up alike ("check your inbox"), so
-- a list of addresses tried one by one learns nothing. What differs goes to the address's own inbox: a confirmation
-- link, or (for an address already confirmed) a note that it is already subscribed or already on the book's list.
-- Each address gets at most one such note a day, as a pending one gets at most one confirmation a day.
-- newsletter_request and back_in_stock_request answer send | notice (id, sent_at: the note to send) | wait (nothing
-- to send now) | for_sale | unknown.
-- The link in the confirmation email: confirm, or "this wasn't me". Only the newest confirmation email counts: its
-- link was made (p_issued_at) at or after the request it answers, so a link from before an unsubscribe, or from an
-- earlier email, confirms nothing. Each answers what it did: confirmed | already (confirmed before) | stale (a
-- newer email, or none waiting) | declined | unknown (expired or removed); back in stock also available (the book
-- can be bought now: nothing is queued) and sent (its email has gone).
-- Unsubscribing: the newsletter's link names the subscription; an availability email's and a reminder's name the
-- address. Every one of them is recorded as an opt-out, which the checkout reminder honours.
-- Sending: newsletters go to confirmed readers only; availability mailings to a book's confirmed requests.

-- The people waiting for a title: its requests confirmed from their inbox and not yet drawn into an availability
-- mailing. The one rule that the stock and pre-order lists count and an availability mailing draws.
create function public.waiting_for(p_product_id text) returns setof public.back_in_stock_requests
language sql stable set search_path = '' as $$
  select r.* from public.back_in_stock_requests r where r.product_id = p_product_id and r.confirmed_at is not null and r.drawn_at is null
$$;

-- Sign-ups whose confirmation link has expired (7 days): a pending one is deleted; an unsubscribed address's
-- request is forgotten.
create function public.expire_pending_sign_ups() returns void
language sql security definer set search_path = '' as $$
  delete from public.newsletter_subscriptions where consent_at is null and unsubscribed_at is null and confirmation_sent_at < now() - interval '7 days';
  update public.newsletter_subscriptions set confirmation_sent_at = null, confirmation_page = null
    where unsubscribed_at is not null and confirmation_sent_at < now() - interval '7 days';
  delete from public.back_in_stock_requests where confirmed_at is null and confirmation_sent_at < now() - interval '7 days';
$$;

-- A newsletter sign-up from the website, stored by the server function after its bot-check.
create function public.newsletter_request(p_email text, p_page text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
    -- Told in their own inbox, at most once a day.
    if v_row.notice_sent_at > now() - interval '1 day' then
      return jsonb_build_object('action', 'wait', 'id', v_row.id);
    end if;
    update public.newsletter_subscriptions set notice_sent_at = now() where id = v_row.id returning * into v_row;
    return jsonb_build_object('action', 'notice', 'id', v_row.id, 'sent_at', v_row.notice_sent_at);
  end if;
  -- One confirmation a day; and none the day a sign-up was answered "this wasn't me".
  if v_row.confirmation_sent_at > now() - interval '1 day' or (v_row.consent_at is null and v_row.unsubscribed_at > now() - interval '1 day') then
    return jsonb_build_object('action', 'wait', 'id', v_row.id);
  end if;
  update public.newsletter_subscriptions set confirmation_sent_at = now(), confirmation_page = p_page where id = v_row.id returning * into v_row;
  return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
end;
$$;

-- An "Email me when it's available" request from the website, stored by the server function after its bot-check.
create function public.back_in_stock_request(p_product_id text, p_email text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
    if v_row.notice_sent_at > now() - interval '1 day' then
      return jsonb_build_object('action', 'wait', 'id', v_row.id);
    end if;
    update public.back_in_stock_requests set notice_sent_at = now() where id = v_row.id returning * into v_row;
    return jsonb_build_object('action', 'notice', 'id', v_row.id, 'sent_at', v_row.notice_sent_at);
  end if;
  if v_row.confirmation_sent_at > now() - interval '1 day' then
    return jsonb_build_object('action', 'wait', 'id', v_row.id);
  end if;
  update public.back_in_stock_requests set confirmation_sent_at = now() where id = v_row.id returning * into v_row;
  return jsonb_build_object('action', 'send', 'id', v_row.id, 'sent_at', v_row.confirmation_sent_at);
end;
$$;

-- The confirmation email (or the already-subscribed note) could not be sent: the request is taken back, so the
-- next sign-up sends one at once.
create function public.sign_up_not_sent(p_list text, p_id uuid, p_sent_at timestamptz) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if p_list = 'newsletter' then
    delete from public.newsletter_subscriptions where id = p_id and status = 'pending' and confirmation_sent_at = p_sent_at;
    update public.newsletter_subscriptions set confirmation_sent_at = null, confirmation_page = null where id = p_id and confirmation_sent_at = p_sent_at;
    update public.newsletter_subscriptions set notice_sent_at = null where id = p_id and notice_sent_at = p_sent_at;
  elsif p_list = 'availability' then
    delete from public.back_in_stock_requests where id = p_id and confirmed_at is null and confirmation_sent_at = p_sent_at;
    update public.back_in_stock_requests set notice_sent_at = null where id = p_id and notice_sent_at = p_sent_at;
  else
    raise exception 'Unknown list %', p_list using errcode = '22023';
  end if;
end;
$$;

-- The newsletter's confirmation link.
create function public.newsletter_confirm(p_subscription_id uuid, p_source text, p_issued_at timestamptz) returns text
language plpgsql security definer set search_path = '' as $$
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
create function public.newsletter_decline(p_subscription_id uuid) returns text
language plpgsql security definer set search_path = '' as $$
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

-- The availability request's confirmation link.
create function public.back_in_stock_confirm(p_request_id uuid, p_issued_at timestamptz) returns text
language plpgsql security definer set search_path = '' as $$
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

-- Someone else typed this address: the request is removed, unless it was drawn into a mailing already.
create function public.back_in_stock_decline(p_request_id uuid) returns text
language sql security definer set search_path = '' as $$
  with declined as (
    delete from public.back_in_stock_requests where id = p_request_id and drawn_at is null
      returning 1
  )
  select case when exists (select 1 from declined) then 'declined' else 'unknown' end;
$$;
