-- Address and courier look-ups, counted per visitor across every function instance. A visitor is the hash of the
-- cookie its look-up session is bound to (never the cookie itself); each kind has one window of a minute, which
-- starts at the first look-up after the last window ended. Only `take_lookup` reads or writes the rows.
create table public.lookup_counts (
  visitor text not null check (visitor ~ '^[A-Za-z0-9_-]{16,64}$'),
  kind text not null check (kind in ('places', 'rates')),
  window_start timestamptz not null default now(),
  used integer not null default 1 check (used >= 1),
  primary key (visitor, kind)
);
create index lookup_counts_window_start on public.lookup_counts (window_start);

alter table public.lookup_counts enable row level security;
revoke all on public.lookup_counts from public, anon, authenticated, service_role;

-- Counts one look-up and answers how many the visitor has made in the current window, this one included: the
-- caller refuses it past its limit. Windows ended more than ten minutes ago are deleted on the way.
create or replace function public.take_lookup(p_visitor text, p_kind text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_used integer;
begin
  if p_visitor is null or p_visitor !~ '^[A-Za-z0-9_-]{16,64}$' then
    raise exception 'take_lookup: the visitor is not a visitor hash' using errcode = '22023';
  end if;
  if p_kind is null or p_kind not in ('places', 'rates') then
    raise exception 'take_lookup: the kind must be places or rates' using errcode = '22023';
  end if;
  insert into public.lookup_counts as c (visitor, kind, window_start, used) values (p_visitor, p_kind, now(), 1)
    on conflict (visitor, kind) do update set
      used = case when c.window_start > now() - interval '1 minute' then c.used + 1 else 1 end,
      window_start = case when c.window_start > now() - interval '1 minute' then c.window_start else now() end
    returning used into v_used;
  delete from public.lookup_counts where window_start < now() - interval '10 minutes';
  return v_used;
end;
$$;

revoke all on function public.take_lookup(text, text) from public, anon, authenticated;
grant execute on function public.take_lookup(text, text) to service_role;
