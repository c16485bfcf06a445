-- A repeat fulfilment of an order that was flagged for a refund (paid, but sold out at fulfilment) must
-- answer 'out_of_stock' again, not 'already_fulfilled': otherwise a second verify-payment or webhook
-- retry would tell the shopper the order is paid and confirmed when it is not.

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
begin
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status = 'refund_due' then
    return 'out_of_stock';
  end if;
  if v_order.fulfilled_at is not null then
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

-- create or replace keeps the grants of 20261122000300; restated so this file reads on its own.
revoke all on function public.fulfil_order(uuid) from public, anon, authenticated;
grant execute on function public.fulfil_order(uuid) to service_role;
