/**
 * The embedded database: real Postgres (PGlite), file-backed under local/.data/ or in memory for tests.
 * On first start it gets what a new Supabase project has (the API roles, the auth schema, the default
 * privileges), then every migration in supabase/migrations (recorded as the Supabase CLI does), the catalog
 * from the book files and supabase/seed.sql; later starts apply only new migrations and sync the catalog again.
 * The same steps prepare the PostgreSQL server of the test suite (tools/postgres/server.ts).
 */
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeSync, syncEmbedded } from '../catalog';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = join(here, '..', '..');
export const DEFAULT_DATA_DIR = join(projectRoot, 'local', '.data', 'pglite');
const MIGRATIONS_DIR = join(projectRoot, 'supabase', 'migrations');

/** What a new Supabase project has before any migration; applied once, by the database's superuser. */
export const supabaseBaselineSql = () => readFileSync(join(here, 'auth-schema.sql'), 'utf8');
export const seedSql = () => readFileSync(join(projectRoot, 'supabase', 'seed.sql'), 'utf8');

/** The part of a database connection the set-up needs; PGlite and node-postgres both have it. */
export interface SqlSession {
  exec(sql: string): Promise<unknown>;
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}
export interface SqlDatabase extends SqlSession {
  transaction<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T>;
}

export type Database = PGlite;

/**
 * `memory` for a throwaway database, `{ copyOf }` for a throwaway copy of one saved with `saveImage` (the tests
 * copy one prepared database rather than building each), else a folder that keeps the data across restarts.
 */
export type DataLocation = 'memory' | { copyOf: Blob } | { dir: string };

export async function openDatabase(location: DataLocation = { dir: DEFAULT_DATA_DIR }): Promise<Database> {
  const options = {
    // PostgREST answers numeric and bigint columns as JSON numbers; so does the embedded backend.
    parsers: { [types.NUMERIC]: Number, [types.INT8]: Number },
    // The back office's searches use trigram indexes, as pg_trgm serves them on Supabase.
    extensions: { pg_trgm },
  };
  if (location !== 'memory' && 'copyOf' in location) {
    // Options as a memory database has them (see below), so a copy answers exactly as a new one does.
    const copy = new PGlite({ loadDataDir: location.copyOf, extensions: options.extensions });
    await copy.waitReady;
    await applyMigrations(copy);
    await syncEmbedded(copy);
    return copy;
  }
  const fresh = location === 'memory' || !existsSync(join(location.dir, 'PG_VERSION'));
  if (location !== 'memory') mkdirSync(dirname(location.dir), { recursive: true });
  // PGlite reads a memory database's options from its first argument and ignores the second: such a database has
  // always had the default parsers (the tests are written for them), and gets the extension alone.
  const db = location === 'memory' ? new PGlite({ extensions: options.extensions }) : new PGlite(location.dir, options);
  await db.waitReady;
  if (location !== 'memory' && !fresh && !(await followFoldedHistory(db))) {
    // Kept, not deleted: it holds the developer's own orders and sign-ins.
    await db.close();
    const aside = `${location.dir}-before-fold-${Date.now()}`;
    renameSync(location.dir, aside);
    console.log(
      `The local database was made from migrations that the schema's folded history no longer has; it is moved to ${aside} and a new one is made from supabase/migrations (npm run staff adds staff again).`,
    );
    return openDatabase(location);
  }
  if (fresh) await db.exec(supabaseBaselineSql());
  else await upgradeLocalBaseline(db);
  const applied = await applyMigrations(db);
  const synced = await syncEmbedded(db);
  if (fresh) await db.exec(seedSql());
  if (applied.length && !fresh) console.log(`Applied migrations: ${applied.join(', ')}`);
  if (!fresh) console.log(describeSync(synced));
  return db;
}

/**
 * A local database made before the baseline gained a part of Supabase's auth schema gets it here. Users of
 * the local Google sign-in were always verified addresses.
 */
async function upgradeLocalBaseline(db: SqlSession): Promise<void> {
  await db.exec(`
    do $$ begin
      if not exists (select 1 from information_schema.columns where table_schema = 'auth' and table_name = 'users' and column_name = 'email_confirmed_at') then
        alter table auth.users add column email_confirmed_at timestamptz;
        update auth.users set email_confirmed_at = created_at;
      end if;
      if not exists (select 1 from pg_roles where rolname = 'authenticator') then
        create role authenticator login noinherit;
        grant anon, authenticated, service_role to authenticator;
      end if;
    end $$;`);
}

/** The migrations a database has run, by version, in the table the Supabase CLI keeps them in. */
async function recordedVersions(db: SqlSession): Promise<Set<string>> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text primary key, name text, statements text[]);
  `);
  return new Set((await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((r) => r.version));
}

const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((file) => {
      const [version = '', ...rest] = file.replace(/\.sql$/, '').split('_');
      return { file, version, name: rest.join('_') };
    });

/**
 * Until launch the migrations' history is folded (docs/architecture.md): each fold rewrites files as others that
 * build the same catalog (compared by tools/schema-compare). `replaced` are the versions it rewrote, `by` the ones it
 * wrote; a version in both is a file whose first part kept its name when it was split.
 */
export const FOLDS = [
  {
    replaced: ['20261126000500', '20261127000100', '20261128000100', '20261128000200', '20261129000100', '20261130000100', '20261130000200', '20261130000300', '20261130000400', '20261130000500'],
    by: ['20261126001000', '20261126001100', '20261126001200', '20261126001300', '20261126001400', '20261126001500', '20261126001600', '20261126001700', '20261126001800'],
  },
  {
    // The four longest area files split into parts of at most 400 lines: each first part keeps its version.
    replaced: ['20261126001200', '20261126001500', '20261126001600', '20261126001700'],
    by: [
      '20261126001200',
      '20261126001210',
      '20261126001220',
      '20261126001230',
      '20261126001500',
      '20261126001510',
      '20261126001520',
      '20261126001600',
      '20261126001610',
      '20261126001700',
      '20261126001710',
      '20261126001720',
      '20261126001730',
    ],
  },
];

/**
 * A database that ran every file a fold replaced has the folded schema: it is recorded as having run the new files
 * instead, and keeps its rows. False when it ran migrations that are gone and no fold accounts for them (a database
 * older than a fold's last file): it cannot be brought forward.
 */
export async function followFoldedHistory(db: SqlDatabase): Promise<boolean> {
  const done = await recordedVersions(db);
  const files = migrationFiles();
  const present = new Set(files.map((f) => f.version));
  for (const fold of FOLDS) {
    const added = fold.by.filter((v) => !fold.replaced.includes(v));
    // It ran the old files when it ran one that is gone or, where a split kept a file's version, none of the new ones.
    if (!fold.replaced.some((v) => done.has(v) && (!present.has(v) || !added.some((a) => done.has(a))))) continue;
    if (!fold.replaced.every((v) => done.has(v))) return false;
    await db.transaction(async (tx) => {
      await tx.query('delete from supabase_migrations.schema_migrations where version = any ($1)', [fold.replaced]);
      for (const { version, name } of files.filter((f) => fold.by.includes(f.version))) {
        await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [version, name]);
      }
    });
    for (const v of fold.replaced) done.delete(v);
    for (const v of fold.by) done.add(v);
    console.log(`The migrations ${fold.replaced[0]} … ${fold.replaced.at(-1)} were rewritten as ${fold.by.length} files; this database ran them all and is recorded as having the new ones.`);
  }
  return [...done].every((v) => present.has(v));
}

/** Applies every migration not yet recorded, each in its own transaction, in file-name order. */
export async function applyMigrations(db: SqlDatabase): Promise<string[]> {
  const done = await recordedVersions(db);
  const applied: string[] = [];
  for (const { file, version, name } of migrationFiles()) {
    if (!version || done.has(version)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
      await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [version, name]);
    });
    applied.push(file);
  }
  return applied;
}

/** A new database, set up and seeded as `openDatabase('memory')` makes it, saved for `{ copyOf }`. */
export async function saveImage(): Promise<Blob> {
  const db = await openDatabase('memory');
  try {
    return await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
}

/** Deletes the local data folder; the next start recreates and seeds it. */
export function wipeData(dir: string = DEFAULT_DATA_DIR): void {
  rmSync(dir, { recursive: true, force: true });
}
