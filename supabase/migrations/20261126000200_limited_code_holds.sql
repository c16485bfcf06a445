-- A promotion code with a use limit ("the first 50 orders") can no longer be kept used up by unpaid checkouts.
--
-- Until now every order with the code that was not cancelled took a use, and an unpaid one was cancelled only
-- when its payment page's expiry reached the webhook: a checkout whose page never expired, or whose event never
-- came, held its use for good, and anyone could hold the last uses with checkouts they never meant to pay.
--
-- Now:
-- * A use is taken by a paid order, or held by an unpaid one only while its payment page is open:
--   orders.checkout_expires_at is when that page closes (as the payment provider answered when the page was
--   made, stored by link_checkout_session). Until the page is linked, create_order holds the use for 31 minutes,
--   as long as a payment page with a code stays open (Stripe's shortest, and a minute to spare); a checkout whose
--   page could not be made lets its use go then. The expired webhook still cancels the order, which lets the use
--   go at once.
-- * A shopper (their email, in any case) holds at most one use of a code, however many checkouts they start with
--   it. Their unpaid orders count once, and create_order leaves their own hold out when it judges whether a use
--   is left. Counting them once, rather than cancelling the older order, leaves that order's payment page
--   working: a shopper who goes back to it and pays is not refunded for a cancelled order. The price is that
--   a shopper who pays on two open pages uses the code twice, which only they can do, and only while both pages
--   are open.
-- * A code whose last uses are held by checkouts in progress answers 'held' (try again shortly), not 'used_up':
--   those uses come back if the pages close unpaid.
-- * A code that has not started answers as a code that does not exist ('not_valid'): a guesser learns nothing of
--   it, nor its start date.
--
-- A payment that still arrives for an order whose hold ended (the page closed as the payment went through) is
-- kept: the code is then used once more than its limit, rather than a paid order refused.

alter table public.orders add column checkout_expires_at timestamptz;
comment on column public.orders.checkout_expires_at is 'when the order''s payment page closes; until then an unpaid order holds its promotion code''s use';

-- Unpaid orders from before this column: their payment pages with a code were made to close 31 minutes after the order.
update public.orders set checkout_expires_at = created_at + interval '31 minutes'
  where promotion_code_id is not null and payment_status = 'unpaid' and status <> 'cancelled';

-- A code's uses in two counts: taken by paid orders, and held by unpaid orders whose payment page is open, one per
-- shopper. p_shopper's own hold is left out: their next checkout with the code takes it over.
create function public.promotion_code_use_counts(p_code_id uuid, p_shopper text default null)
returns table (paid integer, held integer)
language sql
stable
set search_path = ''
as $$
  select
    (count(*) filter (where o.payment_status <> 'unpaid'))::integer,
    (count(distinct lower(o.customer_email)) filter (
      where o.payment_status = 'unpaid' and o.checkout_expires_at > now() and lower(o.customer_email) is distinct from lower(btrim(p_shopper))
    ))::integer
  from public.orders o
  where o.promotion_code_id = p_code_id and o.status <> 'cancelled';
$$;

-- How many uses a code has now, as the staff list shows them: paid, and held by open payment pages.
create or replace function public.promotion_code_uses(p_code_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select u.paid + u.held from public.promotion_code_use_counts(p_code_id) u;
$$;

-- What a code does for goods worth p_subtotal, now, for p_shopper (whose own hold does not count against them).
drop function public.promotion_code_answer(public.promotion_codes, numeric);
create function public.promotion_code_answer(p_code public.promotion_codes, p_subtotal numeric, p_shopper text default null)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_paid integer;
  v_held integer;
  v_discount numeric;
begin
  -- A code not started yet is not told apart from one that does not exist.
  if p_code.id is null or not p_code.active or (p_code.starts_at is not null and now() < p_code.starts_at) then
    return jsonb_build_object('status', 'not_valid');
  end if;
  if p_code.ends_at is not null and now() >= p_code.ends_at then
    return jsonb_build_object('status', 'expired', 'code', p_code.code);
  end if;
  if p_code.max_uses is not null then
    select u.paid, u.held into v_paid, v_held from public.promotion_code_use_counts(p_code.id, p_shopper) u;
    if v_paid >= p_code.max_uses then
      return jsonb_build_object('status', 'used_up', 'code', p_code.code);
    end if;
    if v_paid + v_held >= p_code.max_uses then
      return jsonb_build_object('status', 'held', 'code', p_code.code);
    end if;
  end if;
  if p_subtotal < p_code.min_subtotal then
    return jsonb_build_object('status', 'spend_more', 'code', p_code.code, 'min_subtotal', p_code.min_subtotal, 'shortfall', p_code.min_subtotal - p_subtotal);
  end if;
  v_discount := case p_code.kind when 'percent' then round(p_subtotal * p_code.amount / 100, 2) else least(p_code.amount, p_subtotal) end;
  return jsonb_build_object('status', 'ok', 'code', p_code.code, 'kind', p_code.kind, 'amount', p_code.amount, 'discount', v_discount);
end;
$$;

-- The shopper's check, through /api/promotion-code and checkout; p_shopper is their email when the page knows it.
drop function public.check_promotion_code(text, numeric);
create function public.check_promotion_code(p_code text, p_subtotal numeric, p_shopper text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_code public.promotion_codes;
begin
  select * into v_code from public.promotion_codes where code = upper(btrim(coalesce(p_code, '')));
  return public.promotion_code_answer(v_code, coalesce(p_subtotal, 0), nullif(btrim(coalesce(p_shopper, '')), ''));
end;
$$;

-- As before, with the code judged for the order's own shopper, and the use held until the payment page is linked.
create or replace function public.create_order(p_order jsonb, p_items jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order_id uuid;
  v_code public.promotion_codes;
  v_answer jsonb;
  v_discount numeric := 0;
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'an order needs at least one item' using errcode = '22023';
  end if;

  if nullif(btrim(coalesce(p_order ->> 'promotion_code', '')), '') is not null then
    -- The row lock makes concurrent orders for the same code count each other's uses.
    select * into v_code from public.promotion_codes where code = upper(btrim(p_order ->> 'promotion_code')) for update;
    v_answer := public.promotion_code_answer(v_code, (p_order ->> 'subtotal_amount')::numeric, p_order ->> 'customer_email');
    if v_answer ->> 'status' <> 'ok' then
      raise exception 'promotion code refused: %', v_answer ->> 'status' using errcode = 'P0001', hint = v_answer::text;
    end if;
    v_discount := (v_answer ->> 'discount')::numeric;
    if v_discount <> coalesce((p_order ->> 'discount_amount')::numeric, 0) then
      raise exception 'promotion code refused: changed' using errcode = 'P0001', hint = v_answer::text;
    end if;
  end if;

  insert into public.orders (
    user_id, customer_email, customer_name, subtotal_amount, shipping_amount, total_amount,
    shipping_address, shipping_method, payment_provider, promotion_code_id, promotion_code, discount_amount, checkout_expires_at
  ) values (
    nullif(p_order ->> 'user_id', '')::uuid,
    p_order ->> 'customer_email',
    coalesce(nullif(p_order ->> 'customer_name', ''), 'Guest Customer'),
    (p_order ->> 'subtotal_amount')::numeric,
    (p_order ->> 'shipping_amount')::numeric,
    (p_order ->> 'total_amount')::numeric,
    p_order -> 'shipping_address',
    p_order -> 'shipping_method',
    p_order ->> 'payment_provider',
    v_code.id,
    v_code.code,
    v_discount,
    now() + interval '31 minutes'
  ) returning id into v_order_id;

  insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
  select v_order_id, item ->> 'product_id', item ->> 'title', (item ->> 'quantity')::integer, (item ->> 'price_at_time')::numeric
  from jsonb_array_elements(p_items) as item;

  return v_order_id;
end;
$$;

-- Links the payment session to its order, with when its page closes (kept as it was when the provider does not say).
drop function public.link_checkout_session(uuid, text);
create function public.link_checkout_session(p_order_id uuid, p_session_id text, p_expires_at timestamptz default null)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with linked as (
    update public.orders set checkout_session_id = p_session_id, checkout_expires_at = coalesce(p_expires_at, checkout_expires_at)
      where id = p_order_id and (checkout_session_id is null or checkout_session_id = p_session_id)
      returning 1
  )
  select exists (select 1 from linked);
$$;

revoke all on function public.promotion_code_use_counts(uuid, text), public.promotion_code_uses(uuid),
  public.promotion_code_answer(public.promotion_codes, numeric, text) from public, anon, authenticated, service_role;
revoke all on function public.check_promotion_code(text, numeric, text), public.create_order(jsonb, jsonb),
  public.link_checkout_session(uuid, text, timestamptz) from public, anon, authenticated;
grant execute on function public.check_promotion_code(text, numeric, text), public.create_order(jsonb, jsonb),
  public.link_checkout_session(uuid, text, timestamptz) to service_role;
