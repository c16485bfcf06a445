-- The catalog: the books (from the book files, by the catalog sync), their quantity prices, the publisher's
-- promotion codes and the shoppers' wishlists. Stock belongs to the database and the back office (_stock.sql).

-- ===============================================================================================================
-- Tables

-- The catalog comes from the book files: `npm run catalog:sync` calls sync_catalog with every book, as the
-- service role. It writes the catalog columns and never stock (stock belongs to the database and the back
-- office). A product whose file is gone stays (orders keep their rows) but is no longer for sale.
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
  updated_at timestamptz not null default now(),
  for_sale boolean not null default true,
  -- The level under which the publisher is told, set per book in its file (the catalog sync writes it).
  low_stock_level integer not null default 10 check (low_stock_level between 0 and 100000),
  -- Customs data per book: since 2025 a parcel to the US without, for every item, a description, a tariff (HS) code
  -- and a country of origin is returned. The catalog sync writes them from the book file (sync_customs); the
  -- server makes an order's customs lines from them (functions/_lib/customs.ts). Null on a book not yet released.
  customs_description text check (customs_description is null or char_length(customs_description) between 1 and 200),
  hs_code text check (hs_code is null or hs_code ~ '^[0-9]{4}\.[0-9]{2}([.]?[0-9]{2}){0,2}$'),
  origin_country text check (origin_country is null or origin_country ~ '^[A-Z]{2}$'),
  -- Pre-orders (the functions are in _preorders.sql): a title is on pre-order while release_date is set and
  -- released_at is not. The catalog sync writes release_date from the book file; released_at is set once, by the
  -- release. The allocation is how many copies may be pre-ordered (the first print run), set in the back office.
  release_date date,
  released_at timestamptz,
  preorder_allocation integer not null default 0 check (preorder_allocation between 0 and 1000000),
  -- The copies the publisher expects in the first delivery, entered ahead: the daily release on the release date
  -- sets the stock from it (without it, the title waits for Release now).
  preorder_first_delivery integer check (preorder_first_delivery between 0 and 100000),
  constraint products_released_with_date check (released_at is null or release_date is not null)
);
comment on column public.products.weight is 'grams';
comment on column public.products.dimensions is 'centimetres: {"length", "width", "height"}';
comment on column public.products.for_sale is 'false once its book file is removed from the catalog; hidden from the shop';
comment on column public.products.customs_description is 'what a customs declaration says the item is; from the book file';
comment on column public.products.hs_code is 'the tariff (Harmonized System) code, e.g. 4903.00 for printed picture books; from the book file';
comment on column public.products.origin_country is 'ISO 3166 alpha-2 country the copies were made in; from the book file';
comment on column public.products.release_date is 'the day a title comes out (Australia/Sydney); on pre-order until released_at is set';
comment on column public.products.released_at is 'when the title was released (Release now, or the daily release on its date)';
comment on column public.products.preorder_allocation is 'how many copies may be pre-ordered; public.preorder_left is what remains';

-- Copies for a class or a parish: a book's price per copy from a number of copies up, written by the catalog sync
-- from the book file (never by hand). Checkout prices every line from these rows; the shopper's browser only
-- previews them.
create table public.product_quantity_prices (
  product_id text not null references public.products (id) on delete cascade,
  min_quantity integer not null check (min_quantity between 2 and 99),
  price numeric(10, 2) not null check (price > 0),
  primary key (product_id, min_quantity)
);
comment on table public.product_quantity_prices is 'a book''s price per copy from min_quantity copies up; from its book file, by the catalog sync';

-- Promotion codes: the publisher's codes, kept in a table nobody but the server and the staff functions reads. A
-- shopper's code is checked through check_promotion_code (called by /api/promotion-code), which answers only
-- whether it applies to this cart and what it takes off. One code per order, off the goods, never the shipping.
-- A code's uses are taken by paid orders only (fulfil_order, under the code's row lock); the functions that read
-- and take them are with checkout's, in _orders.sql.
create table public.promotion_codes (
  id uuid primary key default gen_random_uuid(),
  -- Stored as typed in capitals; shoppers' input is trimmed and put in capitals before it is compared.
  code text not null unique check (code ~ '^[A-Z0-9][A-Z0-9_-]{2,31}$'),
  kind text not null check (kind in ('percent', 'amount')),
  -- A whole percentage (1-100) off the goods, or AUD off the goods.
  amount numeric(10, 2) not null check (amount > 0),
  min_subtotal numeric(10, 2) not null default 0 check (min_subtotal >= 0),
  starts_at timestamptz,
  ends_at timestamptz,
  max_uses integer check (max_uses is null or max_uses > 0),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  created_by text not null check (char_length(created_by) between 1 and 254),
  constraint promotion_codes_percent_whole check (kind <> 'percent' or (amount <= 100 and amount = trunc(amount))),
  constraint promotion_codes_period check (starts_at is null or ends_at is null or ends_at > starts_at)
);

create table public.wishlists (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null references public.products (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (user_id, product_id)
);

-- ===============================================================================================================
-- Functions

-- ---------------------------------------------------------------------------------------------------------------
-- Functions: the catalog sync and quantity prices

-- Writes every book's catalog columns and its quantity prices (a book without any has none), never its stock; a
-- book missing from the list is taken off sale.
create function public.sync_catalog(p_books jsonb) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  v_ids text[];
  v_withdrawn text[];
begin
  if jsonb_typeof(p_books) is distinct from 'array' or jsonb_array_length(p_books) = 0 then
    -- An empty list would take every book off sale: refuse it rather than empty the shop.
    raise exception 'sync_catalog needs a non-empty array of books' using errcode = '22023';
  end if;

  -- A release date is written only while it is ahead (a book file may keep the day a released book came out) and
  -- never over a date buyers have pre-ordered for: that one moves only through the back office's Move the date,
  -- which tells them. A released title keeps its date.
  insert into public.products as p (id, title, description, price, image_url, category, weight, dimensions, featured, for_sale, release_date)
  select b.id, b.title, coalesce(b.description, ''), b.price, b.image_url, b.category, b.weight, b.dimensions, coalesce(b.featured, false), true,
    case when b.release_date > (now() at time zone 'Australia/Sydney')::date then b.release_date end
  from jsonb_to_recordset(p_books) as b(id text, title text, description text, price numeric, image_url text, category text, weight numeric, dimensions jsonb, featured boolean, release_date date)
  on conflict (id) do update set
    title = excluded.title,
    description = excluded.description,
    price = excluded.price,
    image_url = excluded.image_url,
    category = excluded.category,
    weight = excluded.weight,
    dimensions = excluded.dimensions,
    featured = excluded.featured,
    for_sale = true,
    release_date = case
      when p.released_at is not null or public.preorder_copies(p.id) > 0 then p.release_date
      else excluded.release_date
    end;

  select array_agg(b ->> 'id') into v_ids from jsonb_array_elements(p_books) as b;

  delete from public.product_quantity_prices where product_id = any (v_ids);
  insert into public.product_quantity_prices (product_id, min_quantity, price)
  select b ->> 'id', (t ->> 'min_quantity')::integer, (t ->> 'price')::numeric
  from jsonb_array_elements(p_books) as b, jsonb_array_elements(coalesce(b -> 'quantity_prices', '[]'::jsonb)) as t;

  with withdrawn as (
    update public.products set for_sale = false
    where for_sale and not (id = any (v_ids))
    returning id
  )
  select coalesce(array_agg(id order by id), '{}') into v_withdrawn from withdrawn;

  return jsonb_build_object('synced', to_jsonb(v_ids), 'withdrawn', to_jsonb(v_withdrawn));
end;
$$;

-- The catalog sync writes each book's low-stock level beside its other facts (a book file without a level keeps
-- the default).
create function public.sync_low_stock_levels(p_books jsonb) returns integer
language sql security definer set search_path = '' as $$
  with changed as (
    update public.products p set low_stock_level = b.low_stock_level
    from jsonb_to_recordset(p_books) as b(id text, low_stock_level integer)
    where p.id = b.id and b.low_stock_level is not null and p.low_stock_level is distinct from b.low_stock_level
    returning 1
  )
  select count(*)::integer from changed;
$$;

-- The tiers of one book must make sense together: each larger quantity a lower price, all below the book's own.
create function public.check_quantity_prices(p_product_id text) returns void
language plpgsql set search_path = '' as $$
declare
  v_base numeric;
  v_previous numeric;
  v_tier record;
begin
  select price into v_base from public.products where id = p_product_id;
  if v_base is null then
    return;
  end if;
  for v_tier in select min_quantity, price from public.product_quantity_prices where product_id = p_product_id order by min_quantity loop
    if v_tier.price >= v_base then
      raise exception 'Quantity price for % copies of % (%) must be below its price (%)', v_tier.min_quantity, p_product_id, v_tier.price, v_base using errcode = '23514';
    end if;
    if v_previous is not null and v_tier.price >= v_previous then
      raise exception 'Quantity prices of % must fall as the number of copies rises (% copies at %)', p_product_id, v_tier.min_quantity, v_tier.price using errcode = '23514';
    end if;
    v_previous := v_tier.price;
  end loop;
end;
$$;

-- Checks a book's tiers when they or its price change (constraint triggers, at commit).
create function public.quantity_prices_stay_valid() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_table_name = 'products' then
    perform public.check_quantity_prices(new.id);
  elsif tg_op = 'DELETE' then
    perform public.check_quantity_prices(old.product_id);
  else
    perform public.check_quantity_prices(new.product_id);
  end if;
  return null;
end;
$$;

-- Beside sync_low_stock_levels: the catalog sync writes each book's customs data (a book file without it clears it,
-- so the doctor sees the gap rather than stale values).
create function public.sync_customs(p_books jsonb) returns integer
language sql security definer set search_path = '' as $$
  with changed as (
    update public.products p set
      customs_description = nullif(trim(b.customs_description), ''),
      hs_code = nullif(trim(b.hs_code), ''),
      origin_country = nullif(upper(trim(b.origin_country)), '')
    from jsonb_to_recordset(p_books) as b(id text, customs_description text, hs_code text, origin_country text)
    where p.id = b.id
      and (p.customs_description, p.hs_code, p.origin_country) is distinct from
        (nullif(trim(b.customs_description), ''), nullif(trim(b.hs_code), ''), nullif(upper(trim(b.origin_country)), ''))
    returning 1
  )
  select count(*)::integer from changed;
$$;

-- The price per copy the cart charges for this many copies: the book's highest quantity price reached, else its
-- price (src/features/catalog/quantity-prices.ts, tierFor). Null for a book not for sale.
create function public.quantity_unit_price(p_product_id text, p_quantity integer) returns numeric
language sql stable as $$
  select coalesce(
    (select q.price from public.product_quantity_prices q where q.product_id = p.id and q.min_quantity <= p_quantity order by q.min_quantity desc limit 1),
    p.price)
  from public.products p where p.id = p_product_id and p.for_sale;
$$;

-- A book's row lock, as the functions that change its stock or its pre-order take it (payment takes the same): the
-- locked row, or the one error for a book that does not exist.
create function public.lock_product(p_product_id text) returns public.products
language plpgsql security definer set search_path = '' as $$
declare
  v_product public.products%rowtype;
begin
  select * into v_product from public.products where id = p_product_id for update;
  if not found then
    raise exception 'Product % not found', p_product_id using errcode = 'P0002';
  end if;
  return v_product;
end;
$$;

-- ===============================================================================================================
-- Triggers

create trigger products_touch before update on public.products for each row execute function public.touch_updated_at();

-- Checked at commit, so the sync can rewrite a book's price and its tiers in either order.
create constraint trigger quantity_prices_valid after insert or update on public.product_quantity_prices
  deferrable initially deferred for each row execute function public.quantity_prices_stay_valid();
create constraint trigger quantity_prices_valid_for_price after update of price on public.products
  deferrable initially deferred for each row execute function public.quantity_prices_stay_valid();

-- ===============================================================================================================
-- Row-level security

alter table public.products enable row level security;
alter table public.product_quantity_prices enable row level security;
alter table public.promotion_codes enable row level security;
alter table public.wishlists enable row level security;

-- The catalog: everyone reads the books for sale and their quantity prices.
create policy "products for sale are public" on public.products for select to anon, authenticated using (for_sale);
create policy "quantity prices of books for sale are public" on public.product_quantity_prices for select to anon, authenticated
  using (exists (select 1 from public.products p where p.id = product_id and p.for_sale));
-- Wishlists: a signed-in user sees, adds and removes only their own entries.
create policy "own wishlist: read" on public.wishlists for select to authenticated using ((select auth.uid()) = user_id);
create policy "own wishlist: add" on public.wishlists for insert to authenticated with check ((select auth.uid()) = user_id);
create policy "own wishlist: remove" on public.wishlists for delete to authenticated using ((select auth.uid()) = user_id);
