/**
 * The migrations build the same public schema on the embedded backend (PGlite) and on PostgreSQL 17 set up as on
 * Supabase: every table, column, constraint, index, function (its body and settings), trigger, policy, comment and
 * grant, as tools/schema-compare's catalog dump reads them. A statement one engine reads differently from the other
 * shows here, named, rather than as a behaviour that differs between `npm start` and a deploy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestDatabase } from '../helpers/test-databases';

type Row = { kind: string; name: string; definition: string };
const dumpSql = readFileSync(join(import.meta.dirname, '..', '..', 'tools', 'schema-compare', 'catalog-dump.sql'), 'utf8');

/**
 * The public schema's objects, as text lines; what belongs to each engine's own set-up is left out, and so are the
 * not-null constraints PGlite's PostgreSQL 18 lists as constraints (17 does not): each column's line says not null.
 */
const publicSchema = (rows: Row[]) =>
  rows.filter((r) => r.name.startsWith('public.') && !(r.kind === 'constraint' && r.definition.startsWith('n NOT NULL '))).map((r) => `${r.kind} ${r.name}: ${r.definition}`);

describe('the schema on both databases', () => {
  const opened: TestDatabase[] = [];
  const dumps: string[][] = [];
  beforeAll(async () => {
    for (const { open } of DATABASES) {
      const db = await open();
      opened.push(db);
      dumps.push(publicSchema((await db.admin.query<Row>(dumpSql)).rows));
    }
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
  });

  it('is the same, object for object', () => {
    const [embedded = [], postgres = []] = dumps;
    expect(embedded.length).toBeGreaterThan(1000);
    expect({ onlyOnPglite: embedded.filter((r) => !postgres.includes(r)), onlyOnPostgres: postgres.filter((r) => !embedded.includes(r)) }).toEqual({
      onlyOnPglite: [],
      onlyOnPostgres: [],
    });
  });
});
