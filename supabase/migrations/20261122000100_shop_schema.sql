-- Shop schema: catalog, wishlists, orders, newsletter and contact.
-- Money is numeric(10,2) in AUD everywhere; weights in grams; dimensions in centimetres.

create table public.products (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]{0,99}$'),
  title text not null check (char_length(title) between 1 and 200),
  description text not null default '' check (char_length(description) <= 5000),
  price numeric(10, 2) not null check (price >= 0),
  image_url text check (image_url is null or char_length(image_url) <= 500),
  category text not null default 'Books' check (char_length(category) between 1 and 100),
  stock integer not null default 0 check (stock >= 0),
  weight numeric(8, 2) not null default 0 check (weight >= 0),
  dimensions jsonb not null default '{"length": 0, "width": 0, "height": 0}' check (jsonb_typeof(dimensions) = 'object'),
  featured boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on column public.products.weight is 'grams';
comment on column public.products.dimensions is 'centimetres: {"length", "width", "height"}';

create table public.wishlists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null references public.products (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (user_id, product_id)
);

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  user_id uuid references auth.users (id) on delete set null,
  customer_email text not null check (char_length(customer_email) <= 254 and customer_email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  customer_name text not null default 'Guest Customer' check (char_length(customer_name) between 1 and 100),
  status text not null default 'pending' check (status in ('pending', 'processing', 'completed', 'cancelled')),
  payment_status text not null default 'unpaid' check (payment_status in ('unpaid', 'paid', 'expired', 'refund_due')),
  currency text not null default 'AUD' check (currency = 'AUD'),
  subtotal_amount numeric(10, 2) not null check (subtotal_amount >= 0),
  shipping_amount numeric(10, 2) not null check (shipping_amount >= 0),
  total_amount numeric(10, 2) not null check (total_amount >= 0),
  shipping_address jsonb not null check (jsonb_typeof(shipping_address) = 'object'),
  shipping_method jsonb not null check (jsonb_typeof(shipping_method) = 'object'),
  payment_provider text not null default 'stripe' check (payment_provider in ('stripe', 'local-test')),
  checkout_session_id text unique,
  paid_at timestamptz,
  fulfilled_at timestamptz,
  confirmation_email_sent_at timestamptz,
  constraint orders_total_adds_up check (total_amount = subtotal_amount + shipping_amount),
  constraint orders_fulfilled_only_when_paid check (fulfilled_at is null or payment_status = 'paid')
);
create index orders_user_id_created_at_idx on public.orders (user_id, created_at desc);

create table public.order_items (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  product_id text not null references public.products (id),
  title text not null check (char_length(title) between 1 and 200),
  quantity integer not null check (quantity > 0 and quantity <= 99),
  price_at_time numeric(10, 2) not null check (price_at_time >= 0),
  unique (order_id, product_id)
);
create index order_items_order_id_idx on public.order_items (order_id);

create table public.newsletter_subscriptions (
  id uuid primary key default gen_random_uuid(),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  created_at timestamptz not null default now()
);
-- One subscription per address, whatever its case.
create unique index newsletter_subscriptions_email_key on public.newsletter_subscriptions (lower(email));

create table public.contact_submissions (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  email text not null check (char_length(email) <= 254 and email ~ '^[^\s@]+@[^\s@]+\.[^\s@]+$'),
  subject text not null check (char_length(btrim(subject)) between 1 and 200),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  created_at timestamptz not null default now()
);

-- Payment provider events already handled, so a replayed webhook does nothing twice.
create table public.payment_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);

create function public.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
create trigger products_touch before update on public.products for each row execute function public.touch_updated_at();
create trigger orders_touch before update on public.orders for each row execute function public.touch_updated_at();
