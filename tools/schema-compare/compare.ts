/**
 * Builds two databases from two folders of migrations (each on top of what a new Supabase project has) and
 * compares their catalogs, on the embedded backend (PGlite) and on PostgreSQL 17 as the test suite sets it up.
 * Run at each fold of the history (docs/architecture.md), to show the folded files build the database the history
 * they replace built:
 *   git show <commit>:supabase/migrations/<file> into a folder for each old file, then
 *   npx tsx tools/schema-compare/compare.ts <old folder> supabase/migrations
 * (tests/integration/schema-both-databases.test.ts compares PGlite's with PostgreSQL's from the current files.)
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { supabaseBaselineSql } from '../../local/backend/database';
import { connectionConfig, startPostgresServer } from '../postgres/server';

type Row = { kind: string; name: string; definition: string };
const dumpSql = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'catalog-dump.sql'), 'utf8');

const migrations = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));

async function onPglite(dir: string): Promise<Row[]> {
  // As the embedded backend opens it: the searches' trigram indexes need pg_trgm.
  const db = new PGlite({ extensions: { pg_trgm } });
  await db.exec(supabaseBaselineSql());
  for (const sql of migrations(dir)) await db.transaction((tx) => tx.exec(sql));
  const { rows } = await db.query<Row>(dumpSql);
  await db.close();
  return rows;
}

async function onPostgres(server: Awaited<ReturnType<typeof startPostgresServer>>['server'], dir: string, name: string): Promise<Row[]> {
  const admin = new pg.Client(connectionConfig(server, 'supabase_admin', 'postgres'));
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.query(`grant all on database ${name} to postgres`);
  await admin.end();
  const superuser = new pg.Client(connectionConfig(server, 'supabase_admin', name));
  await superuser.connect();
  // Roles belong to the server, made once by the template database; the rest of the baseline is per database.
  await superuser.query(supabaseBaselineSql().replace(/^create role .*$/gm, ''));
  // The migrations run as `postgres`, as `supabase db push` runs them, each in its own transaction.
  const owner = new pg.Client(connectionConfig(server, 'postgres', name));
  await owner.connect();
  for (const sql of migrations(dir)) {
    await owner.query('begin');
    await owner.query(sql);
    await owner.query('commit');
  }
  await owner.end();
  const { rows } = await superuser.query<Row>(dumpSql);
  await superuser.end();
  return rows;
}

function compare(label: string, a: Row[], b: Row[]): boolean {
  const key = (r: Row) => `${r.kind}\t${r.name}\t${r.definition}`;
  const inB = new Set(b.map(key));
  const inA = new Set(a.map(key));
  const onlyA = a.filter((r) => !inB.has(key(r)));
  const onlyB = b.filter((r) => !inA.has(key(r)));
  const counts = new Map<string, number>();
  for (const r of a) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  console.log(`\n${label}: ${a.length} rows / ${b.length} rows`);
  for (const [kind, n] of [...counts].sort()) console.log(`  ${kind.padEnd(16)} ${n}`);
  for (const r of onlyA) console.log(`- ${r.kind} ${r.name}\n    ${r.definition.replace(/\n/g, '\n    ')}`);
  for (const r of onlyB) console.log(`+ ${r.kind} ${r.name}\n    ${r.definition.replace(/\n/g, '\n    ')}`);
  const same = onlyA.length === 0 && onlyB.length === 0 && a.length === b.length;
  console.log(same ? '  identical' : `  DIFFERENT: ${onlyA.length} only in the first, ${onlyB.length} only in the second`);
  return same;
}

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: tsx tools/schema-compare/compare.ts <migrations folder A> <migrations folder B>');
  process.exit(2);
}
let same = compare('PGlite', await onPglite(dirA), await onPglite(dirB));
const { server, stop } = await startPostgresServer();
try {
  same = compare('PostgreSQL 17', await onPostgres(server, dirA, 'compare_a'), await onPostgres(server, dirB, 'compare_b')) && same;
} catch (error) {
  console.error(error);
  same = false;
} finally {
  await stop();
}
process.exit(same ? 0 : 1);
