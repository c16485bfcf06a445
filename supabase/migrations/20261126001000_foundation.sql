-- The shop's database, first of the files that build it (each table, index, function, trigger and policy is
-- defined once, in its current form, in the file of its area; every grant is in the last file, _grants.sql):
--   _foundation   default privileges, extensions, the staff list and the helpers every area uses
--   _catalog      the books, their quantity prices, promotion codes, wishlists, and the catalog sync
--   _orders       orders, checkout and payment, order numbers, "to pack", promotion codes at checkout, look-ups
--   _stock        the stock history and low-stock alerts
--   _shipping     the packing bench: shipments at the shipping platform, labels, tracking, shipping an order
--   _invoicing    schools and parishes on account: quote requests, invoices, an order's paperwork
--   _mailing      the newsletter, "Email me when it's available", opt-outs and contact messages
--   _back_office  the staff's lists, an order's detail, refunds in part, sales, customers and tax
--   _grants       nothing by default, then each table, sequence and function to the role that uses it
-- Until launch a change edits the object where it is defined (docs/architecture.md, "One schema, each object once").
--
-- Money is numeric(10,2) in AUD everywhere; weights in grams; dimensions in centimetres. Dates the publisher reads
-- (sales by day, promotion code periods) are Sydney days.
--
-- Roles: anon (no sign-in), authenticated (signed in; staff are the signed-in users whose confirmed address is on
-- public.staff_members), service_role (the server functions only; bypasses row-level security). Every table has
-- row-level security. The shop defines no types of its own.

-- ===============================================================================================================
-- Default privileges
--
-- A Supabase project grants anon, authenticated and service_role everything on every table, sequence and function
-- a migration creates (its default privileges on schema public), and PostgreSQL gives execute on every function to
-- PUBLIC. Those defaults are taken back first (the service role keeps the project's), so whatever this or a later
-- migration creates is closed to anon and authenticated until a grant opens it: any signed-in user could otherwise
-- truncate a table, and only row-level security would stand between a policy mistake and self-made staff. (The
-- PUBLIC execute default can only be taken back in the schema-wide form.)

alter default privileges for role postgres in schema public revoke all on tables from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on sequences from anon, authenticated;
alter default privileges for role postgres in schema public revoke all on functions from anon, authenticated;
alter default privileges for role postgres revoke execute on functions from public;

-- ===============================================================================================================
-- Extensions

-- The back office's searches (part of an address or a name) use trigram indexes.
create schema if not exists extensions;
create extension if not exists pg_trgm with schema extensions;

-- ===============================================================================================================
-- Tables

-- Staff, by email, so the role can be granted before the person has ever signed in. The role is checked here, in
-- the database, by public.is_staff() and public.require_staff().
create table public.staff_members (
  email text primary key check (email = lower(email) and char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  added_at timestamptz not null default now()
);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: shared helpers

-- updated_at follows every change of the row.
create function public.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- Append-only records: nobody may change or remove a row, the service role included.
create function public.refuse_change() returns trigger
language plpgsql set search_path = '' as $$
begin
  raise exception '% is append-only', tg_table_name using errcode = '42501';
end;
$$;

-- Amounts as the publisher reads them, e.g. A$12.50.
create function public.aud(p_amount numeric) returns text
language sql immutable set search_path = '' as $$
  select 'A$' || to_char(p_amount, 'FM999999990.00');
$$;

-- GST: what an Australian delivery pays includes one eleventh of GST; an export is GST-free.
create function public.gst_applies(p_country text) returns boolean
language sql immutable as $$
  select upper(btrim(coalesce(p_country, ''))) = 'AU';
$$;

-- The GST included in a GST-able amount, to the cent.
create function public.gst_included(p_amount numeric) returns numeric
language sql immutable as $$
  select round(coalesce(p_amount, 0) / 11, 2);
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: staff
--
-- The back office's role is checked here, in the database. Staff functions (admin_*) are called from /admin with
-- the staff member's own token and start with require_staff(); the order changes that also email the shopper or
-- refund the payment are run by the server functions (service role) after they have checked the caller with
-- is_staff(), with the staff member's email as the actor.

-- True when the signed-in user is staff: only a real sign-in with Google under the staff address. Reads auth.users
-- and auth.identities (the verified sign-in), never a claim the browser could shape.
--
-- email_confirmed_at alone is not proof: where anonymous sign-ins are on and "Confirm email" is off, an anonymous
-- user can set any address with updateUser({ email }) and have it confirmed at once. So staff is a user who is not
-- anonymous (in auth.users and in the request's token) and whose Google identity carries the staff address.
create function public.is_staff() returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from auth.users u join public.staff_members s on s.email = lower(u.email)
    where u.id = (select auth.uid()) and u.email_confirmed_at is not null and not u.is_anonymous
      and coalesce((select auth.jwt() ->> 'is_anonymous'), 'false') <> 'true'
      and exists (select 1 from auth.identities i where i.user_id = u.id and i.provider = 'google' and i.email = lower(u.email))
  );
$$;

-- The staff member's email, for the history; raises 42501 (a permission error: 401/403 through the REST API)
-- unless the caller is staff (as is_staff). The server functions ask it with the caller's own token.
create function public.require_staff() returns text
language plpgsql stable security definer set search_path = '' as $$
declare
  v_email text;
begin
  if public.is_staff() then
    select lower(u.email) into v_email from auth.users u where u.id = (select auth.uid());
  end if;
  if v_email is null then
    raise exception 'Only the publisher''s staff can do this.' using errcode = '42501';
  end if;
  return v_email;
end;
$$;

-- ===============================================================================================================
-- Row-level security

alter table public.staff_members enable row level security;
