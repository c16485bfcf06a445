-- Fulfilment: the one place stock changes. Called by the payment webhook and by verify-payment, possibly
-- at the same time; the order row lock makes the second caller see the first one's result.

create function public.fulfil_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_item record;
  v_short boolean := false;
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.fulfilled_at is not null or v_order.payment_status = 'refund_due' then
    return 'already_fulfilled';
  end if;
  if v_order.status = 'cancelled' then
    return 'cancelled';
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

-- A session that expired or was cancelled before payment: the order is cancelled, stock untouched.
create function public.cancel_unpaid_order(p_order_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  update public.orders set status = 'cancelled', payment_status = 'expired'
    where id = p_order_id and payment_status = 'unpaid'
    returning status into v_status;
  return case when v_status is null then 'unchanged' else 'cancelled' end;
end;
$$;

-- Marks the confirmation email as sent; true only for the one caller that claims it.
create function public.claim_confirmation_email(p_order_id uuid)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with claimed as (
    update public.orders set confirmation_email_sent_at = now()
      where id = p_order_id and fulfilled_at is not null and confirmation_email_sent_at is null
      returning 1
  )
  select exists (select 1 from claimed);
$$;

revoke all on function public.fulfil_order(uuid), public.cancel_unpaid_order(uuid), public.claim_confirmation_email(uuid) from public, anon, authenticated;
grant execute on function public.fulfil_order(uuid), public.cancel_unpaid_order(uuid), public.claim_confirmation_email(uuid) to service_role;
