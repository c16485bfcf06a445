-- Customs data per book: since 2025 a parcel to the US without, for every item, a description, a tariff (HS) code
-- and a country of origin is returned. The catalog sync writes them from the book file (sync_customs); the
-- server makes an order's customs lines from them (functions/_lib/customs.ts). Null on a book not yet released.
alter table public.products
  add column customs_description text check (customs_description is null or char_length(customs_description) between 1 and 200),
  add column hs_code text check (hs_code is null or hs_code ~ '^[0-9]{4}\.[0-9]{2}([.]?[0-9]{2}){0,2}$'),
  add column origin_country text check (origin_country is null or origin_country ~ '^[A-Z]{2}$');
comment on column public.products.customs_description is 'what a customs declaration says the item is; from the book file';
comment on column public.products.hs_code is 'the tariff (Harmonized System) code, e.g. 4903.00 for printed picture books; from the book file';
comment on column public.products.origin_country is 'ISO 3166 alpha-2 country the copies were made in; from the book file';

-- Beside sync_low_stock_levels: the catalog sync writes each book's customs data (a book file without it clears it,
-- so the doctor sees the gap rather than stale values).
create function public.sync_customs(p_books jsonb)
returns integer
language sql
security definer
set search_path = ''
as $$
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

revoke all on function public.sync_customs(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.sync_customs(jsonb) to service_role;
