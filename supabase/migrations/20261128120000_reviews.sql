-- Reviews from the people who bought: one request per order after delivery, a review per book per order from the
-- request's signed link, moderated by the publisher, and only published reviews readable by anyone else.

-- One row per order asked for a review. A row is the claim of the one request: claimed while it is being sent (a
-- ten-minute lease), sent once. An order is never asked twice, whatever event or run comes next.
create table public.review_requests (
  order_id uuid primary key references public.orders (id),
  email text not null check (email = lower(email) and char_length(email) between 3 and 254),
  claimed_at timestamptz not null default now(),
  sent_at timestamptz
);
create index review_requests_sent_idx on public.review_requests (sent_at) where sent_at is not null;

-- A buyer's review of one book of one order. The limits here are the form's (src/features/reviews/contract.ts).
-- Nothing is shown on the site until the publisher publishes it; the link can change it until then. A review the
-- publisher rejected, or published and then took off the site (unpublished), is final: the link says it is not
-- published and no longer changes it.
create table public.reviews (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id),
  product_id text not null references public.products (id),
  rating smallint not null check (rating between 1 and 5),
  title text not null check (char_length(title) between 1 and 80 and title = btrim(title) and title !~ '[[:cntrl:]]'),
  body text not null check (char_length(body) between 1 and 2000 and body = btrim(body)),
  display_name text not null check (char_length(display_name) between 1 and 40 and display_name = btrim(display_name) and display_name !~ '[[:cntrl:]]'),
  -- The buyer ticked "may be published": a review without it is never stored.
  publish_consent boolean not null check (publish_consent),
  status text not null default 'new' check (status in ('new', 'published', 'rejected', 'unpublished')),
  -- The buyer's saves counted: a save names the version its form loaded, so one from an older copy of the form (the
  -- link open in two windows) is refused rather than overwriting the newer words. The publisher's actions leave it.
  version integer not null default 1 check (version >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  published_at timestamptz,
  -- Why the publisher rejected or unpublished it: for the publisher only.
  rejection_note text check (rejection_note is null or char_length(rejection_note) <= 500),
  -- The publisher's public answer, shown under the published review.
  reply text check (reply is null or (char_length(reply) between 1 and 1000 and reply = btrim(reply))),
  replied_at timestamptz,
  unique (order_id, product_id),
  constraint reviews_published_has_date check ((status = 'published') = (published_at is not null)),
  constraint reviews_reply_has_date check ((reply is null) = (replied_at is null))
);
-- The hourly run's look for orders whose request is due.
create index orders_review_due_idx on public.orders ((coalesce(delivered_at, shipped_at))) where payment_status = 'paid' and status in ('shipped', 'completed');
create index reviews_moderation_idx on public.reviews ((status = 'new') desc, created_at desc);
create index reviews_published_idx on public.reviews (product_id, published_at desc) where status = 'published';

-- Every change to a review: what it said before an edit, a rejection's or an unpublishing's note, a reply. Append-only.
create table public.review_history (
  id bigint generated always as identity primary key,
  review_id uuid not null references public.reviews (id),
  at timestamptz not null default now(),
  action text not null check (action in ('submitted', 'edited', 'published', 'rejected', 'unpublished', 'replied')),
  actor text not null check (char_length(actor) between 1 and 254),
  rating smallint not null,
  title text not null,
  body text not null,
  display_name text not null,
  note text check (note is null or char_length(note) <= 1000)
);
create index review_history_review_idx on public.review_history (review_id, at);

create trigger reviews_touch before update on public.reviews for each row execute function public.touch_updated_at();
create trigger review_history_append_only before update or delete on public.review_history for each row execute function public.refuse_change();
create trigger review_history_no_truncate before truncate on public.review_history execute function public.refuse_change();

alter table public.review_requests enable row level security;
alter table public.reviews enable row level security;
alter table public.review_history enable row level security;

-- Published reviews are public: the build reads them with the anon key, so it needs no secret. Only the columns
-- the page shows; never the order, the rejection note or anything unpublished.
create policy reviews_published_are_public on public.reviews for select to anon, authenticated using (status = 'published');
revoke all on public.review_requests, public.reviews, public.review_history from public, anon, authenticated, service_role;
grant select (id, product_id, rating, title, body, display_name, published_at, reply, replied_at) on public.reviews to anon, authenticated;
grant select on public.review_requests, public.reviews, public.review_history to service_role;

-- The orders whose review request is due, claimed for this sender (at most p_size): paid, not cancelled or refunded
-- in full, not every book of it refunded (see below), delivered p_delay_days ago (or shipped p_untracked_days +
-- p_delay_days ago when the carrier never sent a tracking event), due within the last 30 days (an old order is not
-- asked), never asked, no claim in progress, and the address not opted out of marketing email (the list the
-- newsletter and the checkout reminder honour).
-- Answers [{ order_id, number, email, bought_by, items: [{ product_id, title }] }] (bought_by: who bought it, as the shop
-- names them everywhere; never a gift's recipient).
create function public.claim_review_requests(p_delay_days integer, p_untracked_days integer, p_size integer) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_ids uuid[];
begin
  if p_delay_days is null or p_delay_days < 0 or p_untracked_days is null or p_untracked_days < 0 then
    raise exception 'claim_review_requests: the delays must be zero or more days' using errcode = '22023';
  end if;
  if p_size is null or p_size not between 1 and 500 then
    raise exception 'claim_review_requests: the batch size must be between 1 and 500' using errcode = '22023';
  end if;
  with due as (
    select o.id, coalesce(o.delivered_at, o.shipped_at + make_interval(days => p_untracked_days)) + make_interval(days => p_delay_days) as due_at
      from public.orders o
     where o.payment_status = 'paid'
       and o.status in ('shipped', 'completed')
       and o.refunded_at is null and o.cancelled_at is null
       -- Along the index below: only orders that can be due within the 30 days.
       and coalesce(o.delivered_at, o.shipped_at) > now() - interval '30 days' - make_interval(days => p_delay_days + p_untracked_days)
       -- Asked unless every book on it was refunded: a refund of the postage only, or of some copies, leaves books
       -- the buyer kept. A part refund is an amount, not lines, so the books count as all refunded once the refunds
       -- reach what they cost after any discount (the total less postage); books that cost nothing were not refunded.
       and (public.order_refunded_amount(o.id, o.total_amount, o.refunded_at) < o.total_amount - o.shipping_amount
            or o.total_amount = o.shipping_amount)
       and (o.delivered_at is not null
            or (o.shipped_at is not null and not exists (select 1 from public.shipment_tracking_events e where e.order_id = o.id)))
       and not exists (select 1 from public.marketing_opt_outs m where m.email = lower(o.customer_email))
       and not exists (
         select 1 from public.review_requests r
          where r.order_id = o.id and (r.sent_at is not null or r.claimed_at > now() - interval '10 minutes'))
  ), picked as (
    select o.id, lower(o.customer_email) as email from public.orders o join due on due.id = o.id
     where due.due_at <= now() and due.due_at > now() - interval '30 days'
     order by due.due_at
     limit p_size
     for update of o skip locked
  ), claimed as (
    -- Only what this caller inserted, or took over from a claim whose lease ended: a concurrent caller that picked
    -- the same order waits on the row and then finds it claimed.
    insert into public.review_requests as r (order_id, email, claimed_at)
      select id, email, now() from picked
      on conflict (order_id) do update set claimed_at = now(), email = excluded.email
        where r.sent_at is null and r.claimed_at <= now() - interval '10 minutes'
      returning r.order_id
  )
  select coalesce(array_agg(order_id), '{}') into v_ids from claimed;

  return coalesce((
    select jsonb_agg(jsonb_build_object(
      'order_id', o.id, 'number', public.order_label(o.number), 'email', lower(o.customer_email),
      'bought_by', o.bought_by,
      'items', (select jsonb_agg(jsonb_build_object('product_id', i.product_id, 'title', i.title) order by i.title)
                  from public.order_items i where i.order_id = o.id)
    ) order by o.number)
      from public.orders o where o.id = any (v_ids)
  ), '[]'::jsonb);
end;
$$;

-- The requests the email provider accepted: sent, never claimed again. Answers how many were marked.
create function public.review_requests_sent(p_order_ids uuid[]) returns integer
language sql security definer set search_path = '' as $$
  with marked as (
    update public.review_requests set sent_at = now() where order_id = any (p_order_ids) and sent_at is null returning 1
  )
  select count(*)::integer from marked;
$$;

-- A send that failed gives its claims back, so the next run asks again.
create function public.release_review_requests(p_order_ids uuid[]) returns integer
language sql security definer set search_path = '' as $$
  with released as (delete from public.review_requests where order_id = any (p_order_ids) and sent_at is null returning 1)
  select count(*)::integer from released;
$$;

-- What the review form of an order shows: its number, the buyer's name (for the name to show) and each book with
-- the buyer's review of it so far. Null unless the order was sent its review request (the link comes from it).
create function public.review_form(p_order_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'order_id', o.id, 'number', public.order_label(o.number), 'bought_by', o.bought_by,
    'books', (
      select jsonb_agg(jsonb_build_object(
        'product_id', i.product_id, 'title', i.title,
        'review', (select jsonb_build_object('rating', r.rating, 'title', r.title, 'body', r.body, 'display_name', r.display_name, 'status', r.status,
                                             'version', r.version)
                     from public.reviews r where r.order_id = o.id and r.product_id = i.product_id)
      ) order by i.title)
        from (select distinct on (product_id) product_id, title from public.order_items where order_id = o.id order by product_id) i
    ))
    from public.orders o
   where o.id = p_order_id
     and exists (select 1 from public.review_requests q where q.order_id = o.id and q.sent_at is not null);
$$;

-- A line of a review's history, with what the review said at that moment (before an edit, or as it stood when the
-- publisher acted) and the action's note.
create function public.record_review_history(p_review public.reviews, p_action text, p_actor text, p_note text default null) returns void
language sql set search_path = '' as $$
  insert into public.review_history (review_id, action, actor, rating, title, body, display_name, note)
    values (p_review.id, p_action, p_actor, p_review.rating, p_review.title, p_review.body, p_review.display_name, p_note);
$$;

-- Saves the buyer's review of one book of the order, made from the form as it was loaded: p_version is the version of
-- the review the form showed (0: none yet). Answers { outcome, version }: 'saved' (new), 'updated' or 'unchanged',
-- with the review's version now; 'changed_elsewhere' (it is no longer the version the form loaded: saved from another
-- window since, and not overwritten); 'published' (already published: it can no longer be changed), 'not_published'
-- (rejected or unpublished by the publisher: final), 'not_asked' (the order was not sent a request) or
-- 'not_in_order'. An edit keeps what the review said before in its history.
create function public.review_submit(
  p_order_id uuid, p_product_id text, p_rating integer, p_title text, p_body text, p_display_name text, p_consent boolean, p_version integer
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_review public.reviews;
begin
  if p_version is null or p_version < 0 then
    raise exception 'review_submit: give the version of the review the form loaded (0 when it had none)' using errcode = '22023';
  end if;
  if not exists (select 1 from public.review_requests q where q.order_id = p_order_id and q.sent_at is not null) then
    return jsonb_build_object('outcome', 'not_asked');
  end if;
  if not exists (select 1 from public.order_items i where i.order_id = p_order_id and i.product_id = p_product_id) then
    return jsonb_build_object('outcome', 'not_in_order');
  end if;
  -- One writer per review at a time: of two saves from two windows, the second finds the first's version.
  perform pg_advisory_xact_lock(hashtextextended('review:' || p_order_id || ':' || p_product_id, 0));
  select * into v_review from public.reviews where order_id = p_order_id and product_id = p_product_id;
  if not found then
    insert into public.reviews (order_id, product_id, rating, title, body, display_name, publish_consent)
      values (p_order_id, p_product_id, p_rating, btrim(p_title), btrim(p_body), btrim(p_display_name), coalesce(p_consent, false))
      returning * into v_review;
    perform public.record_review_history(v_review, 'submitted', 'buyer');
    return jsonb_build_object('outcome', 'saved', 'version', v_review.version);
  end if;
  if v_review.status = 'published' then
    return jsonb_build_object('outcome', 'published');
  end if;
  if v_review.status in ('rejected', 'unpublished') then
    return jsonb_build_object('outcome', 'not_published');
  end if;
  if v_review.version <> p_version then
    return jsonb_build_object('outcome', 'changed_elsewhere', 'version', v_review.version);
  end if;
  if v_review.rating = p_rating and v_review.title = btrim(p_title) and v_review.body = btrim(p_body)
     and v_review.display_name = btrim(p_display_name) and coalesce(p_consent, false) then
    return jsonb_build_object('outcome', 'unchanged', 'version', v_review.version);
  end if;
  -- The history keeps what it said before the edit.
  perform public.record_review_history(v_review, 'edited', 'buyer');
  update public.reviews
     set rating = p_rating, title = btrim(p_title), body = btrim(p_body), display_name = btrim(p_display_name),
         publish_consent = coalesce(p_consent, false), version = version + 1
   where id = v_review.id
  returning * into v_review;
  return jsonb_build_object('outcome', 'updated', 'version', v_review.version);
end;
$$;

-- A review the publisher acts on, under its row lock, or null when there is none. Who acts must be named (p_caller,
-- the function asking, starts the message): the history keeps it.
create function public.lock_review(p_review_id uuid, p_actor text, p_caller text) returns public.reviews
language plpgsql security definer set search_path = '' as $$
declare
  v_review public.reviews;
begin
  if p_actor is null or btrim(p_actor) = '' then
    raise exception '%: say who is acting', p_caller using errcode = '22023';
  end if;
  select * into v_review from public.reviews where id = p_review_id for update;
  return v_review;
end;
$$;

-- The publisher publishes, rejects or unpublishes a review (the back-office endpoint checked the caller is staff;
-- p_actor is their address): 'published', 'rejected', 'unpublished', 'already' (it was so already), 'is_published'
-- (a published review is unpublished, never rejected), 'not_published' (only a published review can be
-- unpublished) or 'unknown'. (The back office offers Publish and Reject on a new review, Unpublish on a published
-- one, Publish on the others.) A rejection or an unpublishing keeps its note.
create function public.review_moderate(p_review_id uuid, p_action text, p_note text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_review public.reviews;
  v_status text;
begin
  if p_action is null or p_action not in ('publish', 'reject', 'unpublish') then
    raise exception 'review_moderate: the action must be publish, reject or unpublish' using errcode = '22023';
  end if;
  v_review := public.lock_review(p_review_id, p_actor, 'review_moderate');
  if v_review.id is null then
    return 'unknown';
  end if;
  v_status := case p_action when 'publish' then 'published' when 'reject' then 'rejected' else 'unpublished' end;
  if v_review.status = v_status then
    return 'already';
  end if;
  if p_action = 'reject' and v_review.status = 'published' then
    return 'is_published';
  end if;
  if p_action = 'unpublish' and v_review.status <> 'published' then
    return 'not_published';
  end if;
  update public.reviews
     set status = v_status,
         published_at = case when v_status = 'published' then now() end,
         rejection_note = case when v_status = 'published' then rejection_note else nullif(btrim(coalesce(p_note, '')), '') end
   where id = p_review_id;
  perform public.record_review_history(v_review, v_status, p_actor, nullif(btrim(coalesce(p_note, '')), ''));
  return v_status;
end;
$$;

-- The publisher's public reply under a review; an empty one removes it. 'replied', 'removed', 'unchanged' or 'unknown'.
create function public.review_reply(p_review_id uuid, p_reply text, p_actor text) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_review public.reviews;
  v_reply text := nullif(btrim(coalesce(p_reply, '')), '');
begin
  v_review := public.lock_review(p_review_id, p_actor, 'review_reply');
  if v_review.id is null then
    return 'unknown';
  end if;
  if v_review.reply is not distinct from v_reply then
    return 'unchanged';
  end if;
  update public.reviews set reply = v_reply, replied_at = case when v_reply is null then null else now() end where id = p_review_id;
  perform public.record_review_history(v_review, 'replied', p_actor, coalesce(v_reply, '(reply removed)'));
  return case when v_reply is null then 'removed' else 'replied' end;
end;
$$;

-- The back office's Reviews section: new reviews first, then the newest; each with its order, book and history.
create function public.admin_list_reviews() returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select coalesce(jsonb_agg(x.item order by (r.status = 'new') desc, r.created_at desc), '[]'::jsonb)
    from (select * from public.reviews order by (status = 'new') desc, created_at desc limit 500) r
    cross join lateral (
      select jsonb_build_object(
        'id', r.id, 'order_id', r.order_id, 'order_number', public.order_label(o.number), 'product_id', r.product_id,
        'book_title', coalesce(p.title, r.product_id), 'rating', r.rating, 'title', r.title, 'body', r.body,
        'display_name', r.display_name, 'status', r.status, 'created_at', r.created_at, 'updated_at', r.updated_at,
        'published_at', r.published_at, 'rejection_note', r.rejection_note, 'reply', r.reply,
        'history', coalesce((
          select jsonb_agg(jsonb_build_object('at', h.at, 'action', h.action, 'actor', h.actor, 'rating', h.rating, 'title', h.title,
                                              'body', h.body, 'note', h.note) order by h.at, h.id)
            from public.review_history h where h.review_id = r.id), '[]'::jsonb)
      ) as item
        from public.orders o left join public.products p on p.id = r.product_id
       where o.id = r.order_id
    ) x;
$$;

-- The publisher's view of it: orders asked, orders that answered, reviews published, and their average rating.
create function public.admin_review_counts() returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select jsonb_build_object(
    'asked', (select count(*) from public.review_requests where sent_at is not null),
    'answered', (select count(distinct order_id) from public.reviews),
    'published', (select count(*) from public.reviews where status = 'published'),
    'average', (select round(avg(rating), 1) from public.reviews where status = 'published')
  );
$$;

revoke all on function public.claim_review_requests(integer, integer, integer), public.review_requests_sent(uuid[]),
  public.release_review_requests(uuid[]), public.review_form(uuid), public.review_submit(uuid, text, integer, text, text, text, boolean, integer),
  public.review_moderate(uuid, text, text, text), public.review_reply(uuid, text, text),
  public.admin_list_reviews(), public.admin_review_counts() from public, anon, authenticated;
revoke all on function public.lock_review(uuid, text, text), public.record_review_history(public.reviews, text, text, text)
  from public, anon, authenticated, service_role;
grant execute on function public.claim_review_requests(integer, integer, integer), public.review_requests_sent(uuid[]),
  public.release_review_requests(uuid[]), public.review_form(uuid), public.review_submit(uuid, text, integer, text, text, text, boolean, integer),
  public.review_moderate(uuid, text, text, text), public.review_reply(uuid, text, text) to service_role;
revoke all on function public.admin_list_reviews(), public.admin_review_counts() from service_role;
grant execute on function public.admin_list_reviews(), public.admin_review_counts() to authenticated;
