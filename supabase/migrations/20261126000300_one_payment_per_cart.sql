-- One cart, one payment.
--
-- Until now every press of Proceed to Payment wrote a new order and opened a new payment page, even while the
-- page of the same cart was still open in another tab: paying on both took two payments for one cart.
--
-- Now each order carries the browser's cart (cart_id, a random id the checkout keeps for the cart) and what it
-- was priced from (cart_key: a SHA-256 of the priced lines, the address, the delivery, the code, the email and
-- the gift). Checkout asks the database for the cart's unpaid orders whose page is open:
-- * one with the same cart_key gives its own payment page back (checkout_url), and no order is written;
-- * any other is marked replaced (replaced_at), its page is expired at the payment provider and the order is
--   cancelled, before the new order is written, so at most one page of a cart can take a payment.
-- create_order, under a lock on the cart, refuses a new order while another of the same cart is still open
-- (two presses racing), and link_checkout_session refuses to link a page to an order no longer unpaid.
--
-- A second payment that still arrives for one cart (two pages completed in the same moment) is refunded:
-- fulfil_order, under the same lock, finds an order of the cart that was paid after this one was made, marks
-- this one refund_due with duplicate_of naming the kept order, and answers 'duplicate'. The shopper and the
-- publisher are told by email.

alter table public.orders
  add column cart_id text,
  add column cart_key text,
  add column checkout_url text,
  add column replaced_at timestamptz,
  add column duplicate_of uuid references public.orders (id),
  add constraint orders_cart_id_shape check (cart_id is null or cart_id ~ '^[A-Za-z0-9_-]{8,100}$'),
  add constraint orders_cart_key_shape check (cart_key is null or cart_key ~ '^[0-9a-f]{64}$'),
  add constraint orders_checkout_url_length check (checkout_url is null or char_length(checkout_url) between 1 and 2000),
  add constraint orders_duplicate_is_refunded check (duplicate_of is null or payment_status = 'refund_due');

comment on column public.orders.cart_id is 'the browser''s id of the cart the order was made from: one cart, one payment page open';
comment on column public.orders.cart_key is 'SHA-256 of what the order was priced from (lines, address, delivery, code, email, gift): the same key reuses the open page';
comment on column public.orders.checkout_url is 'the payment page''s address, given back while it is open';
comment on column public.orders.replaced_at is 'when a newer checkout of the same cart closed this order''s payment page';
comment on column public.orders.duplicate_of is 'the paid order of the same cart this second payment was refunded for';

create index orders_open_by_cart on public.orders (cart_id) where cart_id is not null and payment_status = 'unpaid' and status <> 'cancelled';

-- As before, and with the cart: an order of a cart whose other order's page is still open is refused.
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

-- Links the payment page to its order, with when it closes and its address; only while the order is unpaid and
-- not cancelled (a newer checkout of the same cart may have replaced it meanwhile).
drop function public.link_checkout_session(uuid, text, timestamptz);
create function public.link_checkout_session(p_order_id uuid, p_session_id text, p_expires_at timestamptz default null, p_url text default null)
returns boolean
language sql
security definer
set search_path = ''
as $$
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

-- As 20261122000400, and a second payment for one cart: refunded, never fulfilled.
create or replace function public.fulfil_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_item record;
  v_short boolean := false;
  v_kept uuid;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status = 'refund_due' then
    return case when v_order.duplicate_of is not null then 'duplicate' else 'out_of_stock' end;
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

-- The publisher hears of every paid order, and of a second payment for one cart (refunded).
create or replace function public.claim_publisher_notice(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set publisher_notified_at = now()
      where id = p_order_id and (fulfilled_at is not null or duplicate_of is not null) and publisher_notified_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

revoke all on function public.create_order(jsonb, jsonb), public.link_checkout_session(uuid, text, timestamptz, text),
  public.fulfil_order(uuid), public.claim_publisher_notice(uuid) from public, anon, authenticated;
grant execute on function public.create_order(jsonb, jsonb), public.link_checkout_session(uuid, text, timestamptz, text),
  public.fulfil_order(uuid), public.claim_publisher_notice(uuid) to service_role;
