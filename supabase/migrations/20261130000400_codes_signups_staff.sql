-- Promotion codes nobody can hoard, sign-ups that tell a stranger nothing, and staff only by a real Google sign-in.

-- ---------------------------------------------------------------------------------------------------------------
-- Promotion codes: a use is taken at payment, never held by an unpaid checkout.
--
-- A hold per email address let one visitor with many addresses (a+1@x, a+2@x …) keep a code from every real buyer
-- with unpaid checkouts, renewed every half hour. Now only a payment takes a use: fulfil_order counts the code's
-- paid orders under the code's row lock, and a payment that arrives after the last use went is refunded in full,
-- as one that finds the copies sold out is. However many checkouts are left open, a buyer can apply a code that
-- has uses left and pay with it; the price is that two buyers paying at once for the last use get one order and one
-- refund. A code that has ended (past its end, used up, switched off) answers as a code that never existed.

-- Whether a paid order was refunded because its code's last use went to another payment first.
alter table public.orders add column code_used_up boolean not null default false;
comment on column public.orders.code_used_up is 'paid, but its promotion code''s last use went to another payment first: refunded in full';
comment on column public.orders.checkout_expires_at is 'when the order''s payment page closes; until then the cart has its one open payment page';

drop function public.promotion_code_use_counts(uuid, text);

-- A code's uses: its orders that were paid for (and not cancelled). Unpaid checkouts hold nothing.
create or replace function public.promotion_code_uses(p_code_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer from public.orders o
   where o.promotion_code_id = p_code_id and o.payment_status <> 'unpaid' and o.status <> 'cancelled';
$$;

-- What a code does for goods worth p_subtotal, now: its status and, when it applies, the discount (rounded half up
-- for a percentage; never more than the goods). A code that has not started, has ended or is used up answers as a
-- code that does not exist ('not_valid'): a guesser learns nothing of it. p_shopper no longer changes the answer
-- (no checkout holds a use for anyone); it stays so the callers' signature stands.
create or replace function public.promotion_code_answer(p_code public.promotion_codes, p_subtotal numeric, p_shopper text default null)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_discount numeric;
begin
  if p_code.id is null or not p_code.active
     or (p_code.starts_at is not null and now() < p_code.starts_at)
     or (p_code.ends_at is not null and now() >= p_code.ends_at)
     or (p_code.max_uses is not null and public.promotion_code_uses(p_code.id) >= p_code.max_uses) then
    return jsonb_build_object('status', 'not_valid');
  end if;
  if p_subtotal < p_code.min_subtotal then
    return jsonb_build_object('status', 'spend_more', 'code', p_code.code, 'min_subtotal', p_code.min_subtotal, 'shortfall', p_code.min_subtotal - p_subtotal);
  end if;
  v_discount := case p_code.kind when 'percent' then round(p_subtotal * p_code.amount / 100, 2) else least(p_code.amount, p_subtotal) end;
  return jsonb_build_object('status', 'ok', 'code', p_code.code, 'kind', p_code.kind, 'amount', p_code.amount, 'discount', v_discount);
end;
$$;

-- Fulfilment: the one place stock is taken, and a limited code's use. Called by the payment webhook and by
-- verify-payment, possibly at the same time; the order row lock makes the second caller see the first one's result.
-- A repeat fulfilment of an order flagged for a refund answers the same reason again, never 'already_fulfilled': a
-- second verify-payment or webhook retry must not tell the shopper the order is paid. Locks are taken in one order
-- (order, cart, code, products), as create_order takes cart then code, so concurrent fulfilments cannot deadlock.
create or replace function public.fulfil_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_code public.promotion_codes;
  v_item record;
  v_short boolean := false;
  v_kept uuid;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status = 'refund_due' then
    return case when v_order.duplicate_of is not null then 'duplicate' when v_order.code_used_up then 'code_used_up' else 'out_of_stock' end;
  end if;
  if v_order.fulfilled_at is not null then
    return 'already_fulfilled';
  end if;
  if v_order.status = 'cancelled' then
    return 'cancelled';
  end if;

  if v_order.cart_id is not null then
    -- Two payments of one cart arriving together: one keeps its order, the other finds it.
    perform pg_advisory_xact_lock(hashtextextended('cart:' || v_order.cart_id, 0));
    -- An order of the same cart paid after this one was made: this one was open then, so it is the second payment.
    select o.id into v_kept from public.orders o
     where o.cart_id = v_order.cart_id and o.id <> v_order.id and o.fulfilled_at is not null and o.paid_at > v_order.created_at
     order by o.paid_at limit 1;
    if v_kept is not null then
      update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now()), duplicate_of = v_kept
        where id = p_order_id;
      return 'duplicate';
    end if;
  end if;

  if v_order.promotion_code_id is not null then
    -- The code's row lock makes payments for its last use count each other: the first takes it, a later one is refunded.
    select * into v_code from public.promotion_codes where id = v_order.promotion_code_id for update;
    if v_code.max_uses is not null and public.promotion_code_uses(v_code.id) >= v_code.max_uses then
      update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now()), code_used_up = true
        where id = p_order_id;
      return 'code_used_up';
    end if;
  end if;

  -- Lock the products in a fixed order so concurrent fulfilments cannot deadlock.
  perform 1 from public.products p
    where p.id in (select product_id from public.order_items where order_id = p_order_id)
    order by p.id for update;

  for v_item in select oi.product_id, oi.quantity, p.stock from public.order_items oi
      join public.products p on p.id = oi.product_id where oi.order_id = p_order_id loop
    if v_item.stock < v_item.quantity then
      v_short := true;
    end if;
  end loop;

  if v_short then
    -- Paid, but the last copies went to another order first: flagged for a refund, stock untouched.
    update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now())
      where id = p_order_id;
    return 'out_of_stock';
  end if;

  update public.products p set stock = p.stock - oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id;
  update public.orders set payment_status = 'paid', status = 'processing', paid_at = coalesce(paid_at, now()), fulfilled_at = now()
    where id = p_order_id;
  return 'fulfilled';
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Sign-ups: the same answer for a new, pending or confirmed address.
--
-- The form and the API answer every sign-up alike ("check your inbox"), so a list of addresses tried one by one
-- learns nothing. What differs goes to the address's own inbox: a confirmation link, or (for an address already
-- confirmed) a note that it is already subscribed or already on the book's list. Each address gets at most one such
-- note a day, as a pending one gets at most one confirmation a day. newsletter_request and back_in_stock_request
-- answer send | notice (id, sent_at: the note to send) | wait (nothing to send now) | for_sale | unknown.

alter table public.newsletter_subscriptions add column notice_sent_at timestamptz;
comment on column public.newsletter_subscriptions.notice_sent_at is 'when a confirmed reader who signed up again was last told they are already subscribed';
alter table public.back_in_stock_requests add column notice_sent_at timestamptz;
comment on column public.back_in_stock_requests.notice_sent_at is 'when a confirmed request signed up again was last told it is already on the list';

-- A newsletter sign-up from the website, stored by the server function after its bot-check.
create or replace function public.newsletter_request(p_email text, p_page text)
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
create or replace function public.back_in_stock_request(p_product_id text, p_email text)
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
create or replace function public.sign_up_not_sent(p_list text, p_id uuid, p_sent_at timestamptz)
returns void
language plpgsql
security definer
set search_path = ''
as $$
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

-- ---------------------------------------------------------------------------------------------------------------
-- Staff: only a real sign-in with Google under the staff address.
--
-- email_confirmed_at alone is not proof: where anonymous sign-ins are on and "Confirm email" is off, an anonymous
-- user can set any address with updateUser({ email }) and have it confirmed at once. So staff is a user who is not
-- anonymous (in auth.users and in the request's token) and whose Google identity carries the staff address.

create or replace function public.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users u join public.staff_members s on s.email = lower(u.email)
    where u.id = (select auth.uid()) and u.email_confirmed_at is not null and not u.is_anonymous
      and coalesce((select auth.jwt() ->> 'is_anonymous'), 'false') <> 'true'
      and exists (select 1 from auth.identities i where i.user_id = u.id and i.provider = 'google' and i.email = lower(u.email))
  );
$$;

-- The staff member's email, for the history; raises 42501 (a permission error: 401/403 through the REST API)
-- unless the caller is staff (as is_staff). The server functions ask it with the caller's own token.
create or replace function public.require_staff()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  if public.is_staff() then
    select lower(u.email) into v_email from auth.users u where u.id = (select auth.uid());
  end if;
  if v_email is null then
    raise exception 'Only the publisher''s staff can do this.' using errcode = '42501';
  end if;
  return v_email;
end;
$$;
