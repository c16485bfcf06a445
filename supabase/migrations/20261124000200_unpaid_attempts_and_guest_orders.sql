-- Unpaid checkout attempts are not orders to the publisher: the back office's views leave them out, and a
-- view of their own lists them. A guest's orders join the account of whoever signs in with that address,
-- once the address is confirmed.

create or replace function public.admin_list_orders(p_view text, p_search text default '')
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_search text := lower(btrim(coalesce(p_search, '')));
  v_result jsonb;
begin
  perform public.require_staff();
  if p_view not in ('to_pack', 'shipped', 'refunds_due', 'all', 'unpaid') then
    raise exception 'Unknown order view %', p_view using errcode = '22023';
  end if;
  select coalesce(jsonb_agg(row_to_json(o.*)::jsonb order by o.sort_key), '[]'::jsonb) into v_result from (
    select id, created_at, paid_at, customer_email, customer_name, status, payment_status, total_amount, shipping_method ->> 'name' as delivery_method,
      tracking_number, refunded_at,
      (select coalesce(sum(quantity), 0) from public.order_items i where i.order_id = orders.id) as item_count,
      case when p_view = 'to_pack' then extract(epoch from coalesce(paid_at, created_at)) else -extract(epoch from created_at) end as sort_key
    from public.orders
    where case p_view
        when 'to_pack' then status = 'processing' and payment_status = 'paid'
        when 'shipped' then status = 'shipped'
        when 'refunds_due' then payment_status = 'refund_due' and refunded_at is null
        when 'unpaid' then payment_status in ('unpaid', 'expired')
        else payment_status in ('paid', 'refund_due') end
      and (v_search = '' or left(id::text, char_length(v_search)) = v_search or position(v_search in lower(customer_email)) > 0)
    order by sort_key
    limit 200
  ) o;
  return v_result;
end;
$$;

-- Gives the signed-in user the guest orders placed with their address, when that address is confirmed;
-- answers how many joined. Orders of another account are never moved.
create function public.claim_guest_orders()
returns integer
language sql
security definer
set search_path = ''
as $$
  with joined as (
    update public.orders o set user_id = u.id
      from auth.users u
      where u.id = (select auth.uid()) and u.email_confirmed_at is not null and u.email is not null
        and o.user_id is null and lower(o.customer_email) = lower(u.email)
      returning 1
  )
  select count(*)::integer from joined;
$$;

revoke all on function public.claim_guest_orders() from public, anon, authenticated, service_role;
grant execute on function public.claim_guest_orders() to authenticated;
