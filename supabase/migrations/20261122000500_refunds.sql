-- An order paid for but sold out at fulfilment (payment_status 'refund_due') is refunded automatically.
-- These record the payment provider's refund and when it was made; they are set once, and the one caller
-- that sets them emails the shopper.

alter table public.orders
  add column refund_id text,
  add column refunded_at timestamptz,
  add constraint orders_refunded_only_when_refund_due check (refunded_at is null or payment_status = 'refund_due'),
  add constraint orders_refund_recorded_whole check ((refund_id is null) = (refunded_at is null)),
  add constraint orders_refund_id_length check (refund_id is null or char_length(refund_id) between 1 and 255);

-- True only for the caller that records the refund (concurrent webhook and verify-payment: one email).
create function public.record_refund(p_order_id uuid, p_refund_id text)
returns boolean
language sql
security definer
set search_path = ''
as $$
  with recorded as (
    update public.orders set refund_id = p_refund_id, refunded_at = now()
      where id = p_order_id and payment_status = 'refund_due' and refunded_at is null
      returning 1
  )
  select exists (select 1 from recorded);
$$;

revoke all on function public.record_refund(uuid, text) from public, anon, authenticated;
grant execute on function public.record_refund(uuid, text) to service_role;
