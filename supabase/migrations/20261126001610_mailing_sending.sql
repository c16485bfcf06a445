-- Mailing, continued (_mailing.sql has the tables, the sign-ups and their confirmation links): unsubscribing and
-- opting out, writing and sending newsletters and availability mailings a batch at a time, the contact messages,
-- and the mailing tables' row-level security.

-- The newsletter's link names the subscription: 'unsubscribed', 'already' or 'unknown' (removed).
create function public.newsletter_unsubscribe(p_subscription_id uuid) returns text
language plpgsql security definer set search_path = '' as $$
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
create function public.marketing_opt_out(p_email text, p_via text) returns text
language plpgsql security definer set search_path = '' as $$
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

-- Writes a newsletter and draws its recipients: every confirmed reader.
create function public.admin_create_newsletter(p_subject text, p_body text) returns jsonb
language plpgsql security definer set search_path = '' as $$
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
create function public.availability_create_mailing(p_product_id text, p_subject text, p_body text, p_actor text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_id uuid;
  v_count integer;
begin
  -- One draw at a time per book: two stock changes at once make one mailing. A book can be bought when it is in
  -- stock, or on pre-order with copies left to pre-order.
  perform 1 from public.products where id = p_product_id and for_sale and (stock > 0 or public.preorder_left(id) > 0) for update;
  if not found then
    return null;
  end if;
  if not exists (select 1 from public.waiting_for(p_product_id)) then
    return null;
  end if;
  insert into public.newsletters (subject, body_markdown, created_by, product_id) values (p_subject, p_body, p_actor, p_product_id) returning id into v_id;
  with drawn as (
    update public.back_in_stock_requests set drawn_at = now(), mailing_id = v_id
     where id in (select w.id from public.waiting_for(p_product_id) w)
     returning id, lower(email) as email
  )
  insert into public.newsletter_deliveries (newsletter_id, email, back_in_stock_request_id)
    select v_id, email, id from drawn
    on conflict do nothing;
  get diagnostics v_count = row_count;
  return jsonb_build_object('id', v_id, 'recipients', v_count);
end;
$$;

-- The next batch to send: a batch claimed over two minutes ago and never marked sent (sent again, with the same
-- batch number and so the same idempotency key) while its first claim is under 23 hours old, else up to p_size
-- recipients not yet sent to. A recipient is sent to while their confirmed subscription, or their request, is
-- still there; the others are skipped. Answers { batch, recipients: [{ email, subscription_id, request_id }] },
-- or { batch: null, state: 'busy' } while a batch is still in flight elsewhere, or { batch: null, state: 'done' }.
create function public.newsletter_claim_batch(p_newsletter_id uuid, p_size integer) returns jsonb
language plpgsql security definer set search_path = '' as $$
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

-- The provider took the batch: its recipients are sent to. Answers how many are still to send.
create function public.newsletter_batch_sent(p_newsletter_id uuid, p_batch integer) returns integer
language plpgsql security definer set search_path = '' as $$
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

-- The back office's list of newsletters and availability mailings (with their book), with how many were sent,
-- skipped, set aside as unknown and still waiting.
create function public.admin_list_newsletters() returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select coalesce(jsonb_agg(jsonb_build_object('id', n.id, 'subject', n.subject, 'created_by', n.created_by, 'created_at', n.created_at,
      'finished_at', n.finished_at, 'product_id', n.product_id, 'recipients', d.recipients, 'sent', d.sent, 'skipped', d.skipped, 'unknown', d.unknown,
      'waiting', d.waiting)
      order by n.created_at desc), '[]'::jsonb)
    from public.newsletters n
    cross join lateral (
      select count(*) as recipients, count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'skipped') as skipped,
        count(*) filter (where status = 'unknown') as unknown, count(*) filter (where status in ('pending', 'claimed')) as waiting
      from public.newsletter_deliveries where newsletter_id = n.id) d;
$$;

-- Takes a reader off the list (staff).
create function public.admin_remove_subscriber(p_subscriber_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  select public.require_staff();
  with removed as (
    delete from public.newsletter_subscriptions where id = p_subscriber_id
      returning 1
  )
  select exists (select 1 from removed);
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: contact messages

-- Marks a contact message handled by this staff member; false when it was handled already. The check stands first,
-- so someone not on the staff is refused even when there is nothing to mark.
create function public.admin_mark_message_handled(p_message_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  select public.require_staff();
  with handled as (
    update public.contact_submissions set handled_at = now(), handled_by = public.require_staff()
      where id = p_message_id and handled_at is null
      returning 1
  )
  select exists (select 1 from handled);
$$;

-- ===============================================================================================================
-- Row-level security

alter table public.contact_submissions enable row level security;
alter table public.newsletter_subscriptions enable row level security;
alter table public.newsletters enable row level security;
alter table public.back_in_stock_requests enable row level security;
alter table public.newsletter_deliveries enable row level security;
alter table public.marketing_opt_outs enable row level security;

create policy "staff: read messages" on public.contact_submissions for select to authenticated using ((select public.is_staff()));
create policy "staff: read subscribers" on public.newsletter_subscriptions for select to authenticated using ((select public.is_staff()));
