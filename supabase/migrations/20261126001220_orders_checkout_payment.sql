-- Orders, continued: checkout writes an order and links its payment page, the payment fulfils it once under row
-- locks, and each email an order sends is claimed once (confirmation, publisher's notice, refund, reminder).

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: checkout and payment

-- Checkout writes the order (create_order) and links its payment page (link_checkout_session); the payment
-- webhook and verify-payment fulfil it, or cancel it when the page expires unpaid. Each email is claimed by the one
-- caller that sends it, and given back when the send fails, so it is retried and never sent twice.

-- Checkout writes the order and its items together, or neither. Prices arrive already read from public.products
-- by the checkout function; the table constraints check the sums. An order of a cart whose other order's page is
-- still open is refused. A promotion code is checked again under its row lock; the discount must be the one the
-- checkout priced, or the order is refused (its use is taken at payment, by fulfil_order).
create function public.create_order(p_order jsonb, p_items jsonb) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  v_order_id uuid;
  v_code public.promotion_codes;
  v_answer jsonb;
  v_discount numeric := 0;
  v_cart text := nullif(btrim(coalesce(p_order ->> 'cart_id', '')), '');
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'an order needs at least one item' using errcode = '22023';
  end if;

  if v_cart is not null then
    -- Two presses of Proceed for one cart are served one after the other; the second finds the first's order.
    perform pg_advisory_xact_lock(hashtextextended('cart:' || v_cart, 0));
    if exists (
      select 1 from public.orders o
       where o.cart_id = v_cart and o.payment_status = 'unpaid' and o.status <> 'cancelled'
         and (o.checkout_expires_at is null or o.checkout_expires_at > now())
    ) then
      raise exception 'cart checkout open' using errcode = 'P0001', hint = 'cart_checkout_open';
    end if;
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
    shipping_address, shipping_method, payment_provider, promotion_code_id, promotion_code, discount_amount, checkout_expires_at,
    cart_id, cart_key
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
    now() + interval '31 minutes',
    v_cart,
    nullif(p_order ->> 'cart_key', '')
  ) returning id into v_order_id;

  insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
  select v_order_id, item ->> 'product_id', item ->> 'title', (item ->> 'quantity')::integer, (item ->> 'price_at_time')::numeric
  from jsonb_array_elements(p_items) as item;

  return v_order_id;
end;
$$;

-- Links the payment session to its order, with when its page closes and its address. Repeating the same link is a
-- no-op (a retried checkout gets the same session from the provider's idempotency key); a different session for a
-- linked order, or any session for an order no longer unpaid, is refused.
create function public.link_checkout_session(p_order_id uuid, p_session_id text, p_expires_at timestamptz default null, p_url text default null) returns boolean
language sql security definer set search_path = '' as $$
  with linked as (
    update public.orders
       set checkout_session_id = p_session_id,
           checkout_expires_at = coalesce(p_expires_at, checkout_expires_at),
           checkout_url = coalesce(p_url, checkout_url)
     where id = p_order_id and (checkout_session_id is null or checkout_session_id = p_session_id)
       and payment_status = 'unpaid' and status <> 'cancelled'
     returning 1
  )
  select exists (select 1 from linked);
$$;

-- Fulfilment: the one place stock and pre-order copies are taken, and a limited code's use. Called by the payment
-- webhook and by verify-payment, possibly at the same time; the order row lock makes the second caller see the
-- first one's result. A repeat fulfilment of an order flagged for a refund answers the same reason again, never 'already_fulfilled': a
-- second verify-payment or webhook retry must not tell the shopper the order is paid. Locks are taken in one order
-- (order, cart, code, products), as create_order takes cart then code, so concurrent fulfilments cannot deadlock.
create function public.fulfil_order(p_order_id uuid) returns text
language plpgsql security definer set search_path = '' as $$
declare
  v_order public.orders%rowtype;
  v_code public.promotion_codes;
  v_item record;
  v_short boolean := false;
  v_preorder boolean := false;
  v_kept uuid;
begin
  v_order := public.lock_order(p_order_id);
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
  perform public.lock_order_books(p_order_id);

  -- A title on pre-order is sold from its copies left to pre-order, read under the same lock: two payments for
  -- the last allocated copy count each other as two for the last copy in stock do.
  for v_item in select oi.product_id, oi.quantity, p.stock, public.on_preorder(p.release_date, p.released_at) as on_preorder
      from public.order_items oi join public.products p on p.id = oi.product_id where oi.order_id = p_order_id loop
    if v_item.on_preorder then
      v_preorder := true;
      if public.preorder_left(v_item.product_id) < v_item.quantity then
        v_short := true;
      end if;
    elsif v_item.stock < v_item.quantity then
      v_short := true;
    end if;
  end loop;

  if v_short then
    -- Paid, but the last copies went to another order first: flagged for a refund, stock untouched.
    update public.orders set payment_status = 'refund_due', status = 'cancelled', paid_at = coalesce(paid_at, now())
      where id = p_order_id;
    return 'out_of_stock';
  end if;

  -- Stock is taken for the lines in stock; a pre-order line's copy is taken by the order waiting ('preorder'),
  -- and from the first delivery's stock at the release. The whole order waits and ships once.
  update public.products p set stock = p.stock - oi.quantity
    from public.order_items oi where oi.order_id = p_order_id and oi.product_id = p.id and not public.on_preorder(p.release_date, p.released_at);
  update public.orders set payment_status = 'paid', status = case when v_preorder then 'preorder' else 'processing' end,
      paid_at = coalesce(paid_at, now()), fulfilled_at = now()
    where id = p_order_id;
  return 'fulfilled';
end;
$$;

-- A session that expired or was cancelled before payment: the order is cancelled, stock untouched.
create function public.cancel_unpaid_order(p_order_id uuid) returns text
language sql security definer set search_path = '' as $$
  with cancelled as (
    update public.orders set status = 'cancelled', payment_status = 'expired'
      where id = p_order_id and payment_status = 'unpaid'
      returning 1
  )
  select case when exists (select 1 from cancelled) then 'cancelled' else 'unchanged' end;
$$;

-- Marks the confirmation email as sent; true only for the one caller that claims it.
create function public.claim_confirmation_email(p_order_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  with claimed as (
    update public.orders set confirmation_email_sent_at = now()
      where id = p_order_id and fulfilled_at is not null and confirmation_email_sent_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

-- The publisher hears of every paid order, and of a second payment for one cart (refunded).
create function public.claim_publisher_notice(p_order_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  with claimed as (
    update public.orders set publisher_notified_at = now()
      where id = p_order_id and (fulfilled_at is not null or duplicate_of is not null) and publisher_notified_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

-- True only for the caller that records the refund (concurrent webhook and verify-payment: one email).
create function public.record_refund(p_order_id uuid, p_refund_id text) returns boolean
language sql security definer set search_path = '' as $$
  with recorded as (
    update public.orders set refund_id = p_refund_id, refunded_at = now()
      where id = p_order_id and payment_status = 'refund_due' and refunded_at is null
      returning 1
  )
  select exists (select 1 from recorded);
$$;

-- True only for the one caller that claims the refund email; the claim is given back when the send fails.
create function public.claim_refund_email(p_order_id uuid) returns boolean
language sql security definer set search_path = '' as $$
  with claimed as (
    update public.orders set refund_email_sent_at = now()
      where id = p_order_id and refunded_at is not null and refund_email_sent_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

-- Claims the one reminder of an order left unpaid; answers the order's recovery token to the one caller that
-- claims it, and null to every other: no consent, already sent, paid, the shopper has placed a newer order with
-- the same email since (they came back by themselves), the address unsubscribed from any marketing email, or it
-- was sent a reminder in the last p_once_within_days days (the shop's setting), whichever order that was for.
-- Claims for one address are taken one at a time, so two sessions expiring in the same second send one.
create function public.claim_checkout_reminder(p_order_id uuid, p_once_within_days integer) returns text
language plpgsql security definer set search_path = '' as $$
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

-- Gives the signed-in user the guest orders placed with their address, when that address is confirmed;
-- answers how many joined. Orders of another account are never moved.
create function public.claim_guest_orders() returns integer
language sql security definer set search_path = '' as $$
  with joined as (
    update public.orders o set user_id = u.id
      from auth.users u
      where u.id = (select auth.uid()) and u.email_confirmed_at is not null and u.email is not null
        and o.user_id is null and lower(o.customer_email) = lower(u.email)
      returning 1
  )
  select count(*)::integer from joined;
$$;
