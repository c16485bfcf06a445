-- Row-level security on every table; table grants revoked, then given back per role.
-- Roles: anon (no sign-in), authenticated (signed in), service_role (server functions only; bypasses RLS).

alter table public.products enable row level security;
alter table public.wishlists enable row level security;
alter table public.orders enable row level security;
alter table public.order_items enable row level security;
alter table public.newsletter_subscriptions enable row level security;
alter table public.contact_submissions enable row level security;
alter table public.payment_events enable row level security;

revoke all on all tables in schema public from anon, authenticated;
revoke all on all functions in schema public from public, anon, authenticated;
grant usage on schema public to anon, authenticated, service_role;
grant all on all tables in schema public to service_role;

-- Catalog: everyone reads; only the service role writes (it bypasses RLS).
grant select on public.products to anon, authenticated;
create policy "products are public" on public.products for select to anon, authenticated using (true);

-- Wishlists: a signed-in user sees and adds only their own entries.
grant select, insert, delete on public.wishlists to authenticated;
create policy "own wishlist: read" on public.wishlists for select to authenticated using ((select auth.uid()) = user_id);
create policy "own wishlist: add" on public.wishlists for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "own wishlist: remove" on public.wishlists for delete to authenticated using ((select auth.uid()) = user_id);

-- Orders and their items: owners read; orders are created and changed only by server functions.
grant select on public.orders, public.order_items to authenticated;
create policy "own orders: read" on public.orders for select to authenticated using ((select auth.uid()) = user_id);
create policy "own order items: read" on public.order_items for select to authenticated
  using (exists (select 1 from public.orders o where o.id = order_id and o.user_id = (select auth.uid())));

-- Newsletter and contact: insert only (clients send Prefer: return=minimal); nobody but the service role reads.
grant insert on public.newsletter_subscriptions, public.contact_submissions to anon, authenticated;
create policy "anyone subscribes" on public.newsletter_subscriptions for insert to anon, authenticated with check (true);
create policy "anyone writes to us" on public.contact_submissions for insert to anon, authenticated with check (true);

-- payment_events: service role only (no grants, no policies for anyone else).
