-- The catalog comes from the book files: `npm run catalog:sync` calls sync_catalog with every book, as the
-- service role. It writes the catalog columns and never stock (stock belongs to the database and the back
-- office). A product whose file is gone stays (orders keep their rows) but is no longer for sale.

alter table public.products add column for_sale boolean not null default true;
comment on column public.products.for_sale is 'false once its book file is removed from the catalog; hidden from the shop';

drop policy "products are public" on public.products;
create policy "products for sale are public" on public.products for select to anon, authenticated using (for_sale);

create function public.sync_catalog(p_books jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ids text[];
  v_withdrawn text[];
begin
  if jsonb_typeof(p_books) is distinct from 'array' or jsonb_array_length(p_books) = 0 then
    -- An empty list would take every book off sale: refuse it rather than empty the shop.
    raise exception 'sync_catalog needs a non-empty array of books' using errcode = '22023';
  end if;

  insert into public.products as p (id, title, description, price, image_url, category, weight, dimensions, featured, for_sale)
  select b.id, b.title, coalesce(b.description, ''), b.price, b.image_url, b.category, b.weight, b.dimensions, coalesce(b.featured, false), true
  from jsonb_to_recordset(p_books) as b(id text, title text, description text, price numeric, image_url text, category text, weight numeric, dimensions jsonb, featured boolean)
  on conflict (id) do update set
    title = excluded.title,
    description = excluded.description,
    price = excluded.price,
    image_url = excluded.image_url,
    category = excluded.category,
    weight = excluded.weight,
    dimensions = excluded.dimensions,
    featured = excluded.featured,
    for_sale = true;

  select array_agg(b ->> 'id') into v_ids from jsonb_array_elements(p_books) as b;
  with withdrawn as (
    update public.products set for_sale = false
    where for_sale and not (id = any (v_ids))
    returning id
  )
  select coalesce(array_agg(id order by id), '{}') into v_withdrawn from withdrawn;

  return jsonb_build_object('synced', to_jsonb(v_ids), 'withdrawn', to_jsonb(v_withdrawn));
end;
$$;

revoke all on function public.sync_catalog(jsonb) from public, anon, authenticated;
grant execute on function public.sync_catalog(jsonb) to service_role;
