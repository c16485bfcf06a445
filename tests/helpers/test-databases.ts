/**
 * The two databases every database test runs on: the embedded backend (PGlite, what `npm start` uses) and a
 * real PostgreSQL 17 set up as Supabase sets up a project (tools/postgres/server.ts). A test written once with
 * `describe.each(DATABASES)` runs on both, so a difference between them shows as a failing test.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type SqlDatabase } from '../../local/backend/database';
import { embeddedCopy } from './embedded-image';
import { useStarted } from './use-started';
import { pgDatabase } from '../../tools/postgres/pg-database';
import { connectionConfig, createTestDatabase, SUPERUSER_NAME } from '../../tools/postgres/server';

/** The roles PostgREST switches to for a request. */
export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export interface RequestResult {
  rows: Record<string, unknown>[];
  /** Rows a write touched. */
  affected: number;
}

export interface TestDatabase {
  label: string;
  /** The superuser: fixtures and catalog checks. */
  admin: SqlDatabase;
  /**
   * One statement run as PostgREST runs a request: a transaction, `set local role`, the token's claims in
   * `request.jwt.claims`. Rolled back unless `commit` is set.
   */
  request(role: ApiRole, claims: Record<string, unknown>, sql: string, options?: { params?: unknown[]; commit?: boolean }): Promise<RequestResult>;
  /** True when this database serves requests on many connections at once (PGlite serves one at a time). */
  concurrent: boolean;
  close(): Promise<void>;
}

/**
 * Gives each user with an address the Google identity a real sign-in leaves (Supabase's auth.identities row), as
 * fixtures that insert users directly need: staff is only a user whose Google identity carries the staff address.
 */
export const GOOGLE_IDENTITIES = `insert into auth.identities (provider_id, user_id, identity_data, provider)
  select u.id::text, u.id, jsonb_build_object('email', u.email, 'email_verified', true), 'google' from auth.users u
  where u.email is not null and not u.is_anonymous and not exists (select 1 from auth.identities i where i.user_id = u.id and i.provider = 'google')`;

const requestPrelude = (role: ApiRole) => `set local role ${role}`;
const CLAIMS = `select set_config('request.jwt.claims', $1, true)`;

async function openEmbedded(): Promise<TestDatabase> {
  const db = await openDatabase(embeddedCopy());
  return {
    label: 'embedded backend (PGlite)',
    admin: db,
    concurrent: false,
    request: (role, claims, sql, options = {}) =>
      db.transaction(async (tx) => {
        await tx.exec(requestPrelude(role));
        await tx.query(CLAIMS, [JSON.stringify({ role, ...claims })]);
        const result = await tx.query<Record<string, unknown>>(sql, options.params);
        if (!options.commit) await tx.rollback();
        return { rows: result.rows, affected: result.affectedRows ?? 0 };
      }),
    close: () => db.close(),
  };
}

async function openPostgres(): Promise<TestDatabase> {
  const server = inject('postgres');
  const name = await createTestDatabase(server, `test_${process.pid}_${randomUUID().slice(0, 8)}`);
  const admin = await pgDatabase(connectionConfig(server, SUPERUSER_NAME, name));
  // PostgREST's own login: it may only switch to the API roles.
  const api = await pgDatabase(connectionConfig(server, 'authenticator', name));
  return {
    label: 'PostgreSQL 17 as on Supabase',
    admin,
    concurrent: true,
    request: async (role, claims, sql, options = {}) => {
      const client = await api.pool.connect();
      try {
        await client.query('begin');
        await client.query(requestPrelude(role));
        await client.query(CLAIMS, [JSON.stringify({ role, ...claims })]);
        const result = await client.query(sql, options.params);
        await client.query(options.commit ? 'commit' : 'rollback');
        return { rows: result.rows, affected: result.command === 'SELECT' ? 0 : (result.rowCount ?? 0) };
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await admin.close();
      await api.close();
    },
  };
}

export const DATABASES: Array<{ label: string; open: () => Promise<TestDatabase> }> = [
  { label: 'embedded backend (PGlite)', open: openEmbedded },
  { label: 'PostgreSQL 17 as on Supabase', open: openPostgres },
];

/** A permission or policy refusal, as opposed to a broken statement. */
export const isPermissionError = (error: unknown) => (error as { code?: string }).code === '42501';

/**
 * The database of a `describe.each(DATABASES)` block: opened (and `seed` run on it as the superuser) before the
 * block's tests, closed after them. What it gives stands for that database from then on.
 */
export function useTestDatabase(open: () => Promise<TestDatabase>, seed?: string): TestDatabase {
  return useStarted(async () => {
    const db = await open();
    if (seed) await db.admin.exec(seed);
    return db;
  });
}

/** A staff member as a fixture: the user, their address on the staff list and the Google identity that proves it. */
export const staffUserSql = (id: string, email: string) => `
      insert into auth.users (id, email, email_confirmed_at) values ('${id}', '${email}', now());
      insert into public.staff_members (email) values ('${email}');
      ${GOOGLE_IDENTITIES};`;

/** A shopper and a staff member as fixtures: both users with their Google identities, the staff address on the list. */
export const shopperAndStaffSql = (shopper: { id: string; email: string }, staff: { id: string; email: string }) => `
      insert into auth.users (id, email, email_confirmed_at) values ('${shopper.id}', '${shopper.email}', now());${staffUserSql(staff.id, staff.email)}`;

/** Calls public.<fn>(args…) as a request of `role` would, committed, and gives its answer. */
export async function callFunction<T>(db: TestDatabase, fn: string, args: unknown[], role: ApiRole = 'service_role', claims: Record<string, unknown> = {}): Promise<T> {
  const placeholders = args.map((_, i) => `$${i + 1}`).join(', ');
  const { rows } = await db.request(role, claims, `select public.${fn}(${placeholders}) as result`, { params: args, commit: true });
  return rows[0]?.result as T;
}
