/**
 * A developer's local database made before the migrations were folded still starts: one that ran every file a fold
 * replaced is recorded as having the new files and keeps its rows; one that ran only some of them cannot be brought
 * forward, and `npm start` moves it aside (nothing deleted) and makes a new one.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { applyMigrations, type Database, FOLDS, followFoldedHistory, openDatabase } from '../../local/backend/database';
import { embeddedCopy } from '../helpers/embedded-image';

const fold = FOLDS.at(-1)!;
const versions = async (db: Database) => (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version')).rows.map((r) => r.version);

/** Records the database as having run `ran` of the fold's old files instead of its new ones (its schema is the same). */
async function asBeforeTheFold(db: Database, ran: string[]): Promise<void> {
  await db.query('delete from supabase_migrations.schema_migrations where version = any ($1)', [fold.by]);
  for (const version of ran) await db.query(`insert into supabase_migrations.schema_migrations (version, name) values ($1, 'before_the_fold')`, [version]);
}

describe('a local database from before the fold', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'pglite-fold-')), 'data');
  afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('that ran every replaced file is recorded as having the new ones, keeps its rows and applies nothing again', async () => {
    const db = await openDatabase(embeddedCopy());
    try {
      const current = await versions(db);
      await asBeforeTheFold(db, fold.replaced);
      await db.exec(`insert into public.newsletter_subscriptions (email) values ('kept@example.com')`);
      expect(await followFoldedHistory(db)).toBe(true);
      expect(await versions(db)).toEqual(current);
      expect(await applyMigrations(db)).toEqual([]);
      expect((await db.query('select email from public.newsletter_subscriptions')).rows).toEqual([{ email: 'kept@example.com' }]);
    } finally {
      await db.close();
    }
  });

  it('that ran only some of them is refused', async () => {
    const db = await openDatabase(embeddedCopy());
    try {
      await asBeforeTheFold(db, fold.replaced.slice(0, -2));
      expect(await followFoldedHistory(db)).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('on disk, such a database is moved aside with a message and a new one made from the migrations', { timeout: 180_000 }, async () => {
    const first = await openDatabase({ dir });
    await asBeforeTheFold(first, fold.replaced.slice(0, -2));
    await first.close();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const db = await openDatabase({ dir });
      try {
        expect(await versions(db)).toEqual(
          readdirSync(join(import.meta.dirname, '..', '..', 'supabase', 'migrations'))
            .filter((f) => f.endsWith('.sql'))
            .map((f) => f.split('_')[0])
            .sort(),
        );
      } finally {
        await db.close();
      }
      const aside = readdirSync(join(dir, '..')).filter((name) => name.startsWith('data-before-fold-'));
      expect(aside).toHaveLength(1);
      expect(existsSync(join(dir, '..', aside[0]!, 'PG_VERSION'))).toBe(true);
      expect(log.mock.calls.flat().join('\n')).toContain(`it is moved to ${join(dir, '..', aside[0]!)} and a new one is made from supabase/migrations`);
    } finally {
      log.mockRestore();
    }
  });
});
