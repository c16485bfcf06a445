/** The file-backed embedded database keeps what was committed across a restart, and its catalog matches the book files. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../local/backend/database';
import { startShop } from '../../local/shop';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { readCatalog } from '@/features/catalog/book-files';

const dir = join(mkdtempSync(join(tmpdir(), 'pglite-')), 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded database on disk', () => {
  // Two starts of a disk-backed database with every migration: over 30 s on a busy two-core machine.
  it('serves the synced books over REST, and keeps a committed row after a restart', { timeout: 120_000 }, async () => {
    const books = readCatalog();
    const first = await startShop({ projectRoot: process.cwd(), port: 0, data: { dir } });
    const products = await fetch(`${first.server.url}/rest/v1/products?select=id,title,category,price,stock,weight,dimensions,featured`, { headers: { apikey: LOCAL_ANON_KEY } });
    expect(products.status).toBe(200);
    expect(await products.json()).toEqual(
      books.map(({ id, title, category, price, weight, dimensions, featured }) => ({ id, title, category, price, stock: expect.any(Number), weight, dimensions, featured })),
    );
    // As /api/send-notification stores it: browsers may not insert sign-ups themselves.
    const insert = await fetch(`${first.server.url}/rest/v1/newsletter_subscriptions`, {
      method: 'POST',
      headers: { apikey: LOCAL_SERVICE_ROLE_KEY, authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify({ email: 'keep@example.com' }),
    });
    expect(insert.status).toBe(201);
    await first.close();

    const db = await openDatabase({ dir });
    const { rows } = await db.query<{ email: string }>('select email from public.newsletter_subscriptions');
    expect(rows).toEqual([{ email: 'keep@example.com' }]);
    const { rows: stock } = await db.query<{ stock: number }>(`select stock from public.products where id = '${books[0]!.id}'`);
    expect(stock[0]!.stock).toBeGreaterThan(0);
    await db.close();
  });
});
