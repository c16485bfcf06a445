/** The availability structured data states: the stock a hosted database gives the build, else in stock. */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inStockAtBuild, readStockAtBuild } from '@/features/catalog/stock-at-build';

let server: Server;
let origin: string;
const seen: Array<{ url: string; apikey: string | undefined }> = [];
let answer: { status: number; body: unknown } = { status: 200, body: [] };

beforeAll(async () => {
  // Answers GET /rest/v1/products?select=id,stock as Supabase's REST API does.
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', apikey: req.headers.apikey as string | undefined });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('stock at build', () => {
  it('reads every book’s stock once from the hosted database, with the public key', async () => {
    answer = {
      status: 200,
      body: [
        { id: 'in-stock', stock: 4 },
        { id: 'sold-out', stock: 0 },
      ],
    };
    const stock = await readStockAtBuild({ PUBLIC_SUPABASE_URL: origin, PUBLIC_SUPABASE_ANON_KEY: 'anon-key' });
    expect(seen.at(-1)).toEqual({ url: '/rest/v1/products?select=id,stock', apikey: 'anon-key' });
    expect(inStockAtBuild(stock, 'in-stock')).toBe(true);
    expect(inStockAtBuild(stock, 'sold-out')).toBe(false);
    // A book the database does not know yet (added since the last sync) is stated in stock.
    expect(inStockAtBuild(stock, 'new-book')).toBe(true);
  });

  it('without a hosted database, or when the read fails, states every book in stock', async () => {
    const before = seen.length;
    expect(inStockAtBuild(await readStockAtBuild({}), 'sold-out')).toBe(true);
    expect(seen.length).toBe(before);
    answer = { status: 500, body: { message: 'down' } };
    expect(inStockAtBuild(await readStockAtBuild({ PUBLIC_SUPABASE_URL: origin, PUBLIC_SUPABASE_ANON_KEY: 'k' }), 'sold-out')).toBe(true);
    answer = { status: 200, body: { not: 'a list' } };
    expect((await readStockAtBuild({ PUBLIC_SUPABASE_URL: origin, PUBLIC_SUPABASE_ANON_KEY: 'k' })).size).toBe(0);
  });
});
