-- An order's number of its own. It was the first eight hex digits of its id (32 bits): at 100,000 orders two
-- orders share one with a chance of about 69 %, and the second could never reach the shipping platform, whose
-- order number is unique. Now the database gives each order the next number, 1001, 1002 …, never used again: short
-- enough to read over the phone, and the shipping platform's order number. Orders that exist take theirs in the
-- order they were placed; a search by the start of an id still finds any order.

alter table public.orders add column number integer;
update public.orders o set number = 1000 + n.position
  from (select id, row_number() over (order by created_at, id) as position from public.orders) n
  where n.id = o.id;
alter table public.orders alter column number set not null;
alter table public.orders alter column number add generated always as identity (start with 1001);
-- The next order continues after those numbered above (setval of null, on an empty table, changes nothing).
select setval(pg_get_serial_sequence('public.orders', 'number'), (select max(number) from public.orders));
alter table public.orders add constraint orders_number_key unique (number);
comment on column public.orders.number is 'the order''s number as buyers, the publisher and the shipping platform read it (1001, 1002 …), from public.order_label';

-- A number once given stays the order's: the platform, the slips and the emails know the order by it.
create function public.keep_order_number()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'Order % keeps its number.', old.number using errcode = '42501';
end;
$$;
create trigger orders_keep_number before update of number on public.orders
  for each row when (new.number is distinct from old.number) execute function public.keep_order_number();

-- The order number as it is written everywhere, from the database's number: the digits ("1001"). The TypeScript
-- side writes it with orderNumber() in src/lib/format.ts, the same way.
create function public.order_label(p_number integer)
returns text
language sql
immutable
as $$
  select p_number::text;
$$;

-- The platform's order number is the order's.
alter table public.shipments drop constraint shipments_order_number_check;
update public.shipments s set order_number = public.order_label(o.number) from public.orders o where o.id = s.order_id;
alter table public.shipments add constraint shipments_order_number_check check (order_number ~ '^[1-9][0-9]*$');

-- The shipment's claim, the order lists (a search finds an order by its number exactly, by the start of its id, or
-- by part of the address) and the accountant's list carry the number from the migration that makes to pack one rule
-- (20261130000500_school_papers.sql), which defines them next.

-- A product's stock history: a sale names its order's number.
create or replace function public.admin_stock_history(p_product_id text, p_cursor text default null, p_limit integer default 50)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_limit integer := public.page_limit(p_limit, 50, 200);
  v_before bigint;
  v_rows jsonb;
  v_count integer;
  v_last bigint;
begin
  perform public.require_staff();
  if p_cursor is not null then
    if p_cursor !~ '^[0-9]{1,18}$' then
      raise exception 'That page link is not one this list gave: start again from the first page.' using errcode = '22023';
    end if;
    v_before := p_cursor::bigint;
  end if;
  select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'created_at', c.created_at, 'actor', c.actor, 'previous_stock', c.previous_stock,
      'new_stock', c.new_stock, 'reason', c.reason, 'order_id', c.order_id,
      'order_number', (select o.number from public.orders o where o.id = c.order_id)) order by c.id desc) filter (where c.n <= v_limit), '[]'::jsonb),
      count(*), min(c.id) filter (where c.n = v_limit)
    into v_rows, v_count, v_last
    from (
      select s.*, row_number() over (order by s.id desc) as n from (
        select * from public.stock_changes
        where product_id = p_product_id and (v_before is null or id < v_before)
        order by id desc limit v_limit + 1) s
    ) c;
  return jsonb_build_object('changes', v_rows, 'next', case when v_count > v_limit then v_last::text end);
end;
$$;

-- A customer's orders, each with its number.
create or replace function public.admin_get_customer(p_email text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_result jsonb;
begin
  perform public.require_staff();
  select jsonb_build_object(
      'email', v_email,
      'name', coalesce((array_agg(o.buyer order by o.paid_at desc) filter (where o.buyer is not null))[1], ''),
      'has_account', bool_or(o.user_id is not null) or exists (select 1 from auth.users u where lower(u.email) = v_email and u.email_confirmed_at is not null),
      'orders', count(*),
      'total_spent', sum(o.total_amount - public.order_refunded_amount(o.id, o.total_amount, o.refunded_at)),
      'last_order_at', max(o.paid_at),
      'order_list', jsonb_agg(jsonb_build_object('id', o.id, 'number', o.number, 'created_at', o.created_at, 'paid_at', o.paid_at, 'customer_email', o.customer_email,
          'customer_name', o.customer_name, 'buyer_name', o.buyer, 'is_gift', o.is_gift, 'status', o.status, 'payment_status', o.payment_status, 'total_amount', o.total_amount,
          'tracking_number', o.tracking_number, 'refunded_at', o.refunded_at, 'delivery_method', o.shipping_method ->> 'name',
          'item_count', (select coalesce(sum(i.quantity), 0) from public.order_items i where i.order_id = o.id)) order by o.paid_at desc))
    into v_result
    from (select x.*, public.order_buyer_name(x.buyer_name, x.customer_name, x.is_gift) as buyer from public.orders x) o
    where lower(o.customer_email) = v_email and o.payment_status in ('paid', 'refund_due') and o.paid_at is not null
    having count(*) > 0;
  return v_result;
end;
$$;

revoke all on sequence public.orders_number_seq from public, anon, authenticated, service_role;
revoke all on function public.order_label(integer), public.keep_order_number() from public, anon, authenticated, service_role;
