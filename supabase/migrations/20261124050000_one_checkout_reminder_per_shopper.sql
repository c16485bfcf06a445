-- One checkout reminder per shopper, not per order. Someone who leaves the payment page on Monday and again
-- on Thursday has two unpaid orders; each was claimed on its own, so they heard from the shop twice. Now an
-- address that was sent a reminder in the last p_once_within_days days (the shop's setting, passed by the
-- caller) is sent no other, whichever order it was for. Claims for one address are taken one at a time (a
-- transaction lock on the address), so two sessions expiring in the same second still send one.

drop function public.claim_checkout_reminder(uuid);

create function public.claim_checkout_reminder(p_order_id uuid, p_once_within_days integer)
returns text
language plpgsql
security definer
set search_path = ''
as $$
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

revoke all on function public.claim_checkout_reminder(uuid, integer) from public, anon, authenticated;
grant execute on function public.claim_checkout_reminder(uuid, integer) to service_role;

-- The claim looks orders up by address, as a person types it in any case.
create index orders_customer_email_lower_idx on public.orders (lower(customer_email));
