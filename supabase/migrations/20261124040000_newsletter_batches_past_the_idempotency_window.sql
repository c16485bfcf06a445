-- A newsletter batch is handed to the email provider under one idempotency key, which the provider honours for
-- 24 hours: a batch whose answer never came is sent again under that key only within the window. Past it (23
-- hours from the batch's first claim, to leave room for a slow call), a second send could reach its readers
-- twice, so the batch's recipients are set aside as 'unknown' (whether it reached them is not known) and never
-- sent again; the back office says how many.

alter table public.newsletter_deliveries add column first_claimed_at timestamptz;
update public.newsletter_deliveries set first_claimed_at = claimed_at where claimed_at is not null;

alter table public.newsletter_deliveries drop constraint newsletter_deliveries_status_check;
alter table public.newsletter_deliveries
  add constraint newsletter_deliveries_status_check check (status in ('pending', 'claimed', 'sent', 'skipped', 'unknown'));
alter table public.newsletter_deliveries drop constraint newsletter_deliveries_batch_when_claimed;
alter table public.newsletter_deliveries
  add constraint newsletter_deliveries_batch_when_claimed check ((status in ('claimed', 'sent', 'unknown')) = (batch is not null));
alter table public.newsletter_deliveries
  add constraint newsletter_deliveries_first_claim check ((status in ('claimed', 'sent', 'unknown')) = (first_claimed_at is not null));

-- The next batch to send: a batch claimed over two minutes ago and never marked sent (sent again, with the same
-- batch number and so the same idempotency key) while its first claim is under 23 hours old, else up to p_size
-- recipients not yet sent to. Recipients who unsubscribed since the newsletter was written (or were removed) are
-- skipped. Answers { batch, recipients: [{ email, subscription_id }] }, or { batch: null, state: 'busy' } while
-- a batch is still in flight elsewhere, or { batch: null, state: 'done' }.
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
      and not exists (select 1 from public.newsletter_subscriptions s where s.id = d.subscription_id and s.unsubscribed_at is null);
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
    select coalesce(jsonb_agg(jsonb_build_object('email', email, 'subscription_id', subscription_id) order by email), '[]'::jsonb)
    from public.newsletter_deliveries where newsletter_id = p_newsletter_id and batch = v_batch and status = 'claimed'));
end;
$$;

-- The back office's list of newsletters, with how many were sent, skipped, set aside as unknown and still waiting.
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
      'finished_at', n.finished_at, 'recipients', d.recipients, 'sent', d.sent, 'skipped', d.skipped, 'unknown', d.unknown, 'waiting', d.waiting)
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
