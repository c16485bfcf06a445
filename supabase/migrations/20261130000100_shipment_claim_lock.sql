-- Two fulfilments of one order at once could both find no shipment row and both insert one: the loser's insert
-- then failed on the order number's unique index, which `on conflict (order_id)` does not cover. The claim now
-- takes the order's row lock first, so concurrent claims of one order run one after the other and the second
-- finds the first's row.
create or replace function public.claim_shipment_send(p_order_id uuid, p_platform text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders%rowtype;
  v_shipment public.shipments%rowtype;
begin
  select * into v_order from public.orders where id = p_order_id for no key update;
  if not found then
    raise exception 'Order % not found', p_order_id using errcode = 'P0002';
  end if;
  if v_order.payment_status <> 'paid' or v_order.status not in ('processing', 'shipped', 'completed') then
    return jsonb_build_object('outcome', 'not_paid');
  end if;
  insert into public.shipments (order_id, order_number, platform) values (p_order_id, upper(left(p_order_id::text, 8)), p_platform)
    on conflict (order_id) do nothing;
  select * into v_shipment from public.shipments where order_id = p_order_id for update;
  if v_shipment.state not in ('pending', 'failed') then
    return jsonb_build_object('outcome', 'done', 'platform_order_id', v_shipment.platform_order_id);
  end if;
  -- A lease of two minutes: well past the platform call's deadline, so a live send is never doubled.
  if v_shipment.claimed_at is not null and v_shipment.claimed_at > now() - interval '2 minutes' then
    return jsonb_build_object('outcome', 'busy');
  end if;
  update public.shipments set claimed_at = now(), attempts = attempts + 1, platform = p_platform where order_id = p_order_id
    returning * into v_shipment;
  return jsonb_build_object('outcome', 'claimed', 'attempts', v_shipment.attempts, 'order_number', v_shipment.order_number,
    'lost_answer', v_shipment.attempts > 1 and v_shipment.state = 'pending');
end;
$$;
