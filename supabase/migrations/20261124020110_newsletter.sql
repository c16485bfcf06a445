-- The newsletter: every subscriber's consent (when, and where they agreed), unsubscribing, and newsletters sent
-- to every subscriber once. A newsletter's recipients are drawn when it is written, one delivery row each; the
-- sender claims them a batch at a time and marks each batch sent, so a send that stops half-way is resumed
-- without anyone getting it twice (a batch claimed but never confirmed is sent again with the same idempotency
-- key, which the email provider answers without sending again). An unsubscribed address is never sent to.

alter table public.newsletter_subscriptions
  add column consent_at timestamptz,
  add column consent_source text,
  add column consent_page text check (consent_page is null or char_length(consent_page) <= 300),
  add column unsubscribed_at timestamptz;
-- Every address so far came through the website's sign-up form; when is known, not on which page.
update public.newsletter_subscriptions set consent_at = created_at, consent_source = 'Website sign-up form (page not recorded)';
alter table public.newsletter_subscriptions
  alter column consent_at set default now(),
  alter column consent_at set not null,
  alter column consent_source set default 'Website sign-up form',
  alter column consent_source set not null,
  add constraint newsletter_subscriptions_consent_source_length check (char_length(consent_source) between 1 and 200);

create table public.newsletters (
  id uuid primary key default gen_random_uuid(),
  subject text not null check (char_length(btrim(subject)) between 1 and 200 and subject !~ '[[:cntrl:]]'),
  body_markdown text not null check (char_length(btrim(body_markdown)) between 1 and 50000),
  created_by text not null check (char_length(created_by) between 1 and 254),
  created_at timestamptz not null default now(),
  finished_at timestamptz
);

create table public.newsletter_deliveries (
  newsletter_id uuid not null references public.newsletters (id) on delete cascade,
  -- The address as it was when the newsletter was written, lower case: one delivery per address.
  email text not null check (email = lower(email) and char_length(email) <= 254),
  subscription_id uuid references public.newsletter_subscriptions (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'claimed', 'sent', 'skipped')),
  batch integer check (batch is null or batch > 0),
  claimed_at timestamptz,
  sent_at timestamptz,
  primary key (newsletter_id, email),
  constraint newsletter_deliveries_batch_when_claimed check ((status in ('claimed', 'sent')) = (batch is not null)),
  constraint newsletter_deliveries_sent_whole check ((status = 'sent') = (sent_at is not null))
);
create index newsletter_deliveries_batch_idx on public.newsletter_deliveries (newsletter_id, batch);

alter table public.newsletters enable row level security;
alter table public.newsletter_deliveries enable row level security;
revoke all on public.newsletters, public.newsletter_deliveries from public, anon, authenticated, service_role;
grant select on public.newsletters, public.newsletter_deliveries to service_role;

-- Writes a newsletter and draws its recipients: every subscriber who has not unsubscribed.
create function public.admin_create_newsletter(p_subject text, p_body text)
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
    select v_id, lower(s.email), s.id from public.newsletter_subscriptions s where s.unsubscribed_at is null
    on conflict do nothing;
  get diagnostics v_count = row_count;
  if v_count = 0 then
    raise exception 'There is nobody to send it to: no one is subscribed.' using errcode = '22023';
  end if;
  return jsonb_build_object('id', v_id, 'recipients', v_count);
end;
$$;

-- Every newsletter, newest first, with how many it was for and how many have been sent.
create function public.admin_list_newsletters()
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
      'finished_at', n.finished_at, 'recipients', d.recipients, 'sent', d.sent, 'skipped', d.skipped, 'waiting', d.waiting) order by n.created_at desc), '[]'::jsonb)
    into v_result
    from public.newsletters n
    cross join lateral (
      select count(*) as recipients, count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'skipped') as skipped,
        count(*) filter (where status in ('pending', 'claimed')) as waiting
      from public.newsletter_deliveries where newsletter_id = n.id) d;
  return v_result;
end;
$$;

-- The next batch to send: a batch claimed over two minutes ago and never marked sent (sent again, with the same
-- batch number and so the same idempotency key), else up to p_size recipients not yet sent to. Recipients who
-- unsubscribed since the newsletter was written (or were removed) are skipped. Answers { batch, recipients:
-- [{ email, subscription_id }] }, or { batch: null, state: 'done' | 'busy' } when nothing is left to claim
-- ('busy': another sender has a batch in hand).
create function public.newsletter_claim_batch(p_newsletter_id uuid, p_size integer)
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
      and not exists (select 1 from public.newsletter_subscriptions s where s.id = d.subscription_id and s.unsubscribed_at is null);

  select min(batch) into v_batch from public.newsletter_deliveries
    where newsletter_id = p_newsletter_id and status = 'claimed' and claimed_at < now() - interval '2 minutes';
  if v_batch is not null then
    update public.newsletter_deliveries set claimed_at = now() where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed';
  elsif exists (select 1 from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'pending') then
    select coalesce(max(batch), 0) + 1 into v_batch from public.newsletter_deliveries where newsletter_id = p_newsletter_id;
    update public.newsletter_deliveries set status = 'claimed', batch = v_batch, claimed_at = now()
      where newsletter_id = p_newsletter_id and email in (
        select email from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'pending' order by email limit p_size);
  elsif exists (select 1 from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status = 'claimed') then
    return jsonb_build_object('batch', null, 'state', 'busy');
  else
    update public.newsletters set finished_at = coalesce(finished_at, now()) where id = p_newsletter_id;
    return jsonb_build_object('batch', null, 'state', 'done');
  end if;
  return jsonb_build_object('batch', v_batch, 'recipients', (
    select coalesce(jsonb_agg(jsonb_build_object('email', email, 'subscription_id', subscription_id) order by email), '[]'::jsonb)
    from public.newsletter_deliveries where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed'));
end;
$$;

-- The provider took the batch: its recipients are sent to. Answers how many are still to send.
create function public.newsletter_batch_sent(p_newsletter_id uuid, p_batch integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_waiting integer;
begin
  update public.newsletter_deliveries set status = 'sent', sent_at = now() where newsletter_id = p_newsletter_id and batch = p_batch and status = 'claimed';
  select count(*) into v_waiting from public.newsletter_deliveries where newsletter_id = p_newsletter_id and status in ('pending', 'claimed');
  if v_waiting = 0 then
    update public.newsletters set finished_at = coalesce(finished_at, now()) where id = p_newsletter_id;
  end if;
  return v_waiting;
end;
$$;

-- Unsubscribes the address behind a signed unsubscribe link: 'unsubscribed', 'already' or 'unknown' (removed).
create function public.newsletter_unsubscribe(p_subscription_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.newsletter_subscriptions set unsubscribed_at = now() where id = p_subscription_id and unsubscribed_at is null;
  if found then
    return 'unsubscribed';
  end if;
  return case when exists (select 1 from public.newsletter_subscriptions where id = p_subscription_id) then 'already' else 'unknown' end;
end;
$$;

-- Someone who unsubscribed signs up again on the website: their new consent replaces the old. False when the
-- address is subscribed already (or not known).
create function public.newsletter_resubscribe(p_email text, p_source text, p_page text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.newsletter_subscriptions
    set unsubscribed_at = null, consent_at = now(), consent_source = p_source, consent_page = p_page
    where lower(email) = lower(btrim(p_email)) and unsubscribed_at is not null;
  return found;
end;
$$;

revoke all on function public.admin_create_newsletter(text, text), public.admin_list_newsletters(), public.newsletter_claim_batch(uuid, integer),
  public.newsletter_batch_sent(uuid, integer), public.newsletter_unsubscribe(uuid), public.newsletter_resubscribe(text, text, text)
  from public, anon, authenticated, service_role;
grant execute on function public.admin_create_newsletter(text, text), public.admin_list_newsletters() to authenticated;
grant execute on function public.newsletter_claim_batch(uuid, integer), public.newsletter_batch_sent(uuid, integer), public.newsletter_unsubscribe(uuid),
  public.newsletter_resubscribe(text, text, text) to service_role;
