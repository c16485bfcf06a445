-- Orders, continued (_orders.sql has the tables): promotion codes as checkout prices them and payment takes a use,
-- and the back office's list of codes.

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: promotion codes
--
-- A use is taken at payment, never held by an unpaid checkout. A hold per email address let one visitor with many
-- addresses (a+1@x, a+2@x …) keep a code from every real buyer with unpaid checkouts, renewed every half hour. Only a
-- payment takes a use: fulfil_order counts the code's paid orders under the code's row lock, and a payment that
-- arrives after the last use went is refunded in full, as one that finds the copies sold out is. However many
-- checkouts are left open, a buyer can apply a code that has uses left and pay with it; the price is that two buyers
-- paying at once for the last use get one order and one refund. A code that has ended (past its end, used up,
-- switched off) answers as a code that never existed.

-- A code's uses: its orders that were paid for (and not cancelled). Unpaid checkouts hold nothing.
create function public.promotion_code_uses(p_code_id uuid) returns integer
language sql stable set search_path = '' as $$
  select count(*)::integer from public.orders o
   where o.promotion_code_id = p_code_id and o.payment_status <> 'unpaid' and o.status <> 'cancelled';
$$;

-- What a code does for goods worth p_subtotal, now: its status and, when it applies, the discount (rounded half up
-- for a percentage; never more than the goods). A code that has not started, has ended or is used up answers as a
-- code that does not exist ('not_valid'): a guesser learns nothing of it. p_shopper no longer changes the answer
-- (no checkout holds a use for anyone); it stays so the callers' signature stands.
create function public.promotion_code_answer(p_code public.promotion_codes, p_subtotal numeric, p_shopper text default null) returns jsonb
language sql stable set search_path = '' as $$
  select case
    when p_code.id is null or not p_code.active
       or (p_code.starts_at is not null and now() < p_code.starts_at)
       or (p_code.ends_at is not null and now() >= p_code.ends_at)
       or (p_code.max_uses is not null and public.promotion_code_uses(p_code.id) >= p_code.max_uses)
      then jsonb_build_object('status', 'not_valid')
    when p_subtotal < p_code.min_subtotal
      then jsonb_build_object('status', 'spend_more', 'code', p_code.code, 'min_subtotal', p_code.min_subtotal, 'shortfall', p_code.min_subtotal - p_subtotal)
    else jsonb_build_object('status', 'ok', 'code', p_code.code, 'kind', p_code.kind, 'amount', p_code.amount,
      'discount', case p_code.kind when 'percent' then round(p_subtotal * p_code.amount / 100, 2) else least(p_code.amount, p_subtotal) end)
  end;
$$;

-- The shopper's check, through /api/promotion-code (the server prices the cart first). Reveals nothing about
-- other codes, nor a code's limits beyond what the shopper needs to be told.
create function public.check_promotion_code(p_code text, p_subtotal numeric, p_shopper text default null) returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.promotion_code_answer((select c from public.promotion_codes c where c.code = upper(btrim(coalesce(p_code, '')))),
    coalesce(p_subtotal, 0), nullif(btrim(coalesce(p_shopper, '')), ''));
$$;

-- The publisher's codes, newest first, with the uses taken and what they took off paid orders.
create function public.admin_list_codes() returns jsonb
language sql stable security definer set search_path = '' as $$
  select public.require_staff();
  select coalesce(jsonb_agg(jsonb_build_object(
      'id', c.id, 'code', c.code, 'kind', c.kind, 'amount', c.amount, 'min_subtotal', c.min_subtotal, 'starts_at', c.starts_at,
      'ends_at', c.ends_at, 'max_uses', c.max_uses, 'active', c.active, 'created_at', c.created_at, 'created_by', c.created_by,
      'uses', public.promotion_code_uses(c.id),
      'paid_orders', (select count(*) from public.orders o where o.promotion_code_id = c.id and o.payment_status = 'paid'),
      'discount_given', (select coalesce(sum(o.discount_amount), 0) from public.orders o where o.promotion_code_id = c.id and o.payment_status = 'paid')
    ) order by c.created_at desc, c.code), '[]'::jsonb)
    from public.promotion_codes c;
$$;

-- Creates a code; answers its id. Its dates are Sydney days, both included: it starts at midnight of starts_on and
-- ends at the midnight after ends_on. The table's checks refuse what does not make sense.
create function public.admin_create_code(p_code jsonb) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  v_actor text := public.require_staff();
  v_id uuid;
begin
  insert into public.promotion_codes (code, kind, amount, min_subtotal, starts_at, ends_at, max_uses, created_by)
  values (
    upper(btrim(p_code ->> 'code')),
    p_code ->> 'kind',
    (p_code ->> 'amount')::numeric,
    coalesce((p_code ->> 'min_subtotal')::numeric, 0),
    (nullif(p_code ->> 'starts_on', ''))::date::timestamp at time zone 'Australia/Sydney',
    ((nullif(p_code ->> 'ends_on', ''))::date + 1)::timestamp at time zone 'Australia/Sydney',
    (nullif(p_code ->> 'max_uses', ''))::integer,
    v_actor
  ) returning id into v_id;
  return v_id;
exception
  when unique_violation then
    raise exception 'There is already a code %.', upper(btrim(p_code ->> 'code')) using errcode = '23505';
  when check_violation then
    raise exception 'Check the code: 3 to 32 capital letters, digits, - or _; a percentage from 1 to 100 or an amount above 0; an end on or after the start.' using errcode = '23514';
end;
$$;

-- Switches a code off (or on again); an order already paid with it keeps its discount.
create function public.admin_set_code_active(p_id uuid, p_active boolean) returns boolean
language sql security definer set search_path = '' as $$
  select public.require_staff();
  with changed as (
    update public.promotion_codes set active = p_active where id = p_id
      returning 1
  )
  select exists (select 1 from changed);
$$;
