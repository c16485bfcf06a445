-- Checkout writes the order and its items in one transaction, links the payment session once, and
-- the refund email is claimed and released like the confirmation email, so a failed send is retried.

-- The order and its items together, or neither: a failure half-way can no longer leave an order with no items.
-- Prices arrive already read from public.products by the checkout function; the table constraints check the sums.
create function public.create_order(p_order jsonb, p_items jsonb)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order_id uuid;
begin
  if jsonb_typeof(p_items) <> 'array' or jsonb_array_length(p_items) = 0 then
    raise exception 'an order needs at least one item' using errcode = '22023';
  end if;

  insert into public.orders (
    user_id, customer_email, customer_name, subtotal_amount, shipping_amount, total_amount,
    shipping_address, shipping_method, payment_provider
  ) values (
    nullif(p_order ->> 'user_id', '')::uuid,
    p_order ->> 'customer_email',
    coalesce(nullif(p_order ->> 'customer_name', ''), 'Guest Customer'),
    (p_order ->> 'subtotal_amount')::numeric,
    (p_order ->> 'shipping_amount')::numeric,
    (p_order ->> 'total_amount')::numeric,
    p_order -> 'shipping_address',
    p_order -> 'shipping_method',
    p_order ->> 'payment_provider'
  ) returning id into v_order_id;

  insert into public.order_items (order_id, product_id, title, quantity, price_at_time)
  select v_order_id, item ->> 'product_id', item ->> 'title', (item ->> 'quantity')::integer, (item ->> 'price_at_time')::numeric
  from jsonb_array_elements(p_items) as item;

  return v_order_id;
end;
$$;

-- Links the payment session to its order. Repeating the same link is a no-op (a retried checkout gets the
-- same session from the provider's idempotency key); a different session for a linked order is refused.
create function public.link_checkout_session(p_order_id uuid, p_session_id text)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with linked as (
    update public.orders set checkout_session_id = p_session_id
      where id = p_order_id and (checkout_session_id is null or checkout_session_id = p_session_id)
      returning 1
  )
  select exists (select 1 from linked);
$$;

alter table public.orders
  add column refund_email_sent_at timestamptz,
  add constraint orders_refund_email_after_refund check (refund_email_sent_at is null or refunded_at is not null);

-- True only for the one caller that claims the refund email; the claim is given back when the send fails.
create function public.claim_refund_email(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set refund_email_sent_at = now()
      where id = p_order_id and refunded_at is not null and refund_email_sent_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

revoke all on function public.create_order(jsonb, jsonb), public.link_checkout_session(uuid, text), public.claim_refund_email(uuid) from public, anon, authenticated;
grant execute on function public.create_order(jsonb, jsonb), public.link_checkout_session(uuid, text), public.claim_refund_email(uuid) to service_role;
