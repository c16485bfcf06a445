-- Grants exactly as the shop needs them, whatever the project gives by default.
--
-- A Supabase project grants anon, authenticated and service_role everything on every table, sequence and
-- function a migration creates (its default privileges on schema public). Tables made after the first
-- blanket revoke (staff_members, order_events, stock_changes) had kept those grants: any signed-in user could
-- truncate them, and only row-level security stood between a policy mistake and self-made staff. Here every
-- grant is revoked and given back per role, and the default privileges are revoked too, so a table, sequence
-- or function created by a later migration is closed to the API roles until that migration grants it.

-- Staff only for a confirmed address: a session for an address nobody has proven (email sign-up with
-- confirmation off, say) must not open the back office.
create or replace function public.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from auth.users u join public.staff_members s on s.email = lower(u.email)
    where u.id = (select auth.uid()) and u.email_confirmed_at is not null
  );
$$;

create or replace function public.require_staff()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_email text;
begin
  select lower(u.email) into v_email from auth.users u join public.staff_members s on s.email = lower(u.email)
  where u.id = (select auth.uid()) and u.email_confirmed_at is not null;
  if v_email is null then
    raise exception 'Only the publisher''s staff can do this.' using errcode = '42501';
  end if;
  return v_email;
end;
$$;

-- Staff read orders through admin_list_orders and admin_get_order, which leave out each order's status token
-- (the key to its status page); reading the tables directly would hand them every token.
drop policy "staff: read orders" on public.orders;
drop policy "staff: read order items" on public.order_items;

-- Tables and sequences.
revoke all on all tables in schema public from public, anon, authenticated, service_role;
revoke all on all sequences in schema public from public, anon, authenticated, service_role;

grant select on public.products to anon, authenticated;
grant select, insert, delete on public.wishlists to authenticated;
-- Row-level security narrows each of these: a shopper's own orders; the staff list's messages, subscribers
-- and history.
grant select on public.orders, public.order_items, public.order_events, public.stock_changes, public.contact_submissions,
  public.newsletter_subscriptions to authenticated;

-- The server functions' role: rows, never truncate; the histories are append-only.
grant select, insert, update, delete on all tables in schema public to service_role;
revoke update, delete on public.order_events, public.stock_changes from service_role;
grant usage, select on all sequences in schema public to service_role;

-- Functions: nobody by default, then each to the role that calls it.
revoke all on all functions in schema public from public, anon, authenticated, service_role;
grant execute on function public.is_staff() to anon, authenticated, service_role;
grant execute on function public.require_staff(), public.admin_list_orders(text, text), public.admin_get_order(uuid),
  public.admin_set_stock(text, integer, text), public.admin_mark_message_handled(uuid), public.admin_remove_subscriber(uuid)
  to authenticated;
grant execute on function public.create_order(jsonb, jsonb), public.link_checkout_session(uuid, text), public.fulfil_order(uuid),
  public.cancel_unpaid_order(uuid), public.claim_confirmation_email(uuid), public.record_refund(uuid, text),
  public.claim_refund_email(uuid), public.ship_order(uuid, text, text, text), public.claim_shipping_email(uuid),
  public.release_shipping_email(uuid, text), public.mark_order_delivered(uuid, text), public.cancel_paid_order(uuid, text),
  public.claim_publisher_notice(uuid), public.sync_catalog(jsonb)
  to service_role;

-- What later migrations create starts closed to the API roles (functions to everyone: PostgreSQL's own
-- default gives execute to PUBLIC, which only the schema-wide form can take back).
alter default privileges for role postgres in schema public revoke all on tables from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on sequences from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on functions from anon, authenticated;
alter default privileges for role postgres revoke execute on functions from public;
