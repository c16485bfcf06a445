/** Catalog set-up for the load run, through the embedded backend's REST API as the service role. */
import { LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { LoopbackClient, Recorder } from './http';

export const BOOK_ID = 'book-10-reasons';
/** A second product with only a few copies, so some checkouts must be refused as out of stock. */
export const LIMITED_ID = 'load-test-limited-edition';
/** Promotion codes of the run: one many shoppers use (10% off), and one with only a few uses they race for. */
export const CODES = {
  tenOff: { code: 'LOADTEN', kind: 'percent', amount: 10, max_uses: null },
  fewUses: { code: 'LOADFEW', kind: 'amount', amount: 5, max_uses: 5 },
} as const;

export const SERVICE_HEADERS = {
  apikey: LOCAL_SERVICE_ROLE_KEY,
  authorization: `Bearer ${LOCAL_SERVICE_ROLE_KEY}`,
  'content-type': 'application/json',
  prefer: 'return=representation',
};

/** Service-role calls are not part of the measured traffic. */
const serviceClient = (port: number) => new LoopbackClient(port, new Recorder(), '127.0.0.1');

async function asService<T>(port: number, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
  const client = serviceClient(port);
  try {
    const reply = await client.request('service', method, `/rest/v1/${path}`, { headers: SERVICE_HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.body}`);
    return (reply.body ? JSON.parse(reply.body) : undefined) as T;
  } finally {
    client.close();
  }
}

/** Book stock set high, the limited product created with `limitedStock` copies; returns every product's stock. */
export async function prepareCatalog(port: number, bookStock: number, limitedStock: number): Promise<Map<string, number>> {
  await asService(port, 'PATCH', `products?id=eq.${BOOK_ID}`, { stock: bookStock });
  await asService(port, 'POST', 'products', {
    id: LIMITED_ID,
    title: 'Load Test Limited Edition',
    description: 'A product that exists only in the load run, with a handful of copies.',
    price: 9.95,
    category: "Children's Books",
    stock: limitedStock,
    weight: 150,
    dimensions: { length: 20, width: 15, height: 1 },
  });
  for (const code of Object.values(CODES)) await asService(port, 'POST', 'promotion_codes', { ...code, created_by: 'load@example.com' });
  return readStock(port);
}

export async function readStock(port: number): Promise<Map<string, number>> {
  const rows = await asService<Array<{ id: string; stock: number }>>(port, 'GET', 'products?select=id,stock&order=id');
  return new Map(rows.map((row) => [row.id, row.stock]));
}

/** An order's fulfilled_at as the database has it now (to prove a second payment changes nothing). */
export async function fulfilledAt(port: number, orderId: string): Promise<string | null> {
  const rows = await asService<Array<{ fulfilled_at: string | null }>>(port, 'GET', `orders?select=fulfilled_at&id=eq.${orderId}`);
  return rows[0]?.fulfilled_at ?? null;
}
