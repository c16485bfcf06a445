-- What hosted Supabase provides before any migration runs: the API roles, the auth schema and the default
-- privileges a new project has on schema public. The embedded backend and the PostgreSQL test suite apply this
-- file as the database's superuser; the migrations then run as `postgres`, as they do on a Supabase project.
-- It mirrors Supabase's own definitions, so a migration that relies on something Supabase does not give fails
-- here too.

create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
-- PostgREST connects as authenticator and switches to the request's role with `set local role`.
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
grant all on schema public to postgres;
grant usage on schema public to anon, authenticated, service_role;

-- Supabase gives every table, function and sequence the migrations create full grants for the API roles.
-- Only row-level security and the migrations' own revokes stand between them and the data.
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

create schema auth;
grant usage on schema auth to anon, authenticated, service_role;

create table auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  -- Set once the address is proven (a provider that verified it, or the confirmation link); null until then.
  email_confirmed_at timestamptz,
  raw_user_meta_data jsonb not null default '{}',
  raw_app_meta_data jsonb not null default '{"provider": "google", "providers": ["google"]}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_sign_in_at timestamptz,
  -- A user made by signInAnonymously(): signed in, with no address proven.
  is_anonymous boolean not null default false
);

-- The sign-in methods a user has, one row per provider account; `email` is the address the provider vouched for.
create table auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);

-- One-time codes of the PKCE flow, exchanged once for a session.
create table auth.flow_state (
  auth_code text primary key,
  code_challenge text not null,
  code_challenge_method text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

create table auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

-- Rotating refresh tokens: each is used once, then revoked in favour of its child.
create table auth.refresh_tokens (
  token text primary key,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  revoked boolean not null default false,
  parent text,
  created_at timestamptz not null default now()
);

create function auth.uid() returns uuid language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create function auth.role() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant execute on function auth.uid(), auth.role(), auth.jwt() to anon, authenticated, service_role;
grant all on all tables in schema auth to service_role;
