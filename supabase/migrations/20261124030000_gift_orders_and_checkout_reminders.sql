-- Gifts and checkout reminders.
--
-- A gift order carries the buyer's message for the recipient (plain text: up to 200 characters on at most six
-- lines, no control characters, no bidirectional overrides) and whether the parcel leaves prices out. The
-- delivery name is the recipient's; the buyer's email stays the buyer's.
--
-- A shopper may agree at checkout to one reminder if they leave the payment page unpaid. The agreement is kept
-- with its time; the reminder is claimed here, once per order, so a replayed payment event sends none. The claim
-- gives the order a recovery token: the reminder's link brings the order's books back to the cart.

alter table public.orders
  add column is_gift boolean not null default false,
  add column gift_message text,
  add column gift_hide_prices boolean not null default false,
  add column reminder_consent_at timestamptz,
  add column reminder_sent_at timestamptz,
  add column recovery_token text,
  add constraint orders_gift_message_plain check (
    gift_message is null or (
      char_length(gift_message) between 1 and 200
      and gift_message = btrim(gift_message)
      and array_length(string_to_array(gift_message, E'\n'), 1) <= 6
      and gift_message !~ '[\u0001-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
    )
  ),
  add constraint orders_gift_details_need_gift check (is_gift or (gift_message is null and not gift_hide_prices)),
  add constraint orders_reminder_needs_consent check (reminder_sent_at is null or reminder_consent_at is not null),
  add constraint orders_recovery_token_format check (recovery_token is null or recovery_token ~ '^[0-9a-f]{64}$');

create unique index orders_recovery_token_key on public.orders (recovery_token) where recovery_token is not null;

-- Claims the one reminder of an order left unpaid; answers the order's recovery token to the one caller that
-- claims it, and null to every other (no consent, already sent, paid, or the shopper has placed a newer order
-- with the same email since: they came back by themselves).
create function public.claim_checkout_reminder(p_order_id uuid)
returns text
language sql
security definer
set search_path = ''
as $$
  update public.orders o
     set reminder_sent_at = now(),
         recovery_token = coalesce(o.recovery_token, replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))
   where o.id = p_order_id
     and o.reminder_consent_at is not null
     and o.reminder_sent_at is null
     and o.payment_status in ('unpaid', 'expired')
     and not exists (
       select 1 from public.orders later
        where lower(later.customer_email) = lower(o.customer_email) and later.id <> o.id and later.created_at > o.created_at
     )
  returning o.recovery_token;
$$;

revoke all on function public.claim_checkout_reminder(uuid) from public, anon, authenticated;
grant execute on function public.claim_checkout_reminder(uuid) to service_role;
