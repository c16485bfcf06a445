import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fulfilOrder, type FulfilmentServices } from '../../functions/_lib/fulfilment';
import type { EmailMessage } from '../../functions/_lib/providers/email';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { startBackOfficeShop, type BackOfficeShop } from '../helpers/shop';

const STAFF = 'stock-keeper@example.com';
let t: BackOfficeShop;
let staff: SupabaseClient;
let shopper: SupabaseClient;
let outbox: string;

beforeAll(async () => {
  t = await startBackOfficeShop('stock-actions', { staff: STAFF, shopper: 'browser@example.com' });
  ({ staff, shopper, outbox } = t);
});
afterAll(() => t.close());

async function product(id: string, stock: number, lowStockLevel = 10): Promise<void> {
  const { error } = await t
    .service()
    .from('products')
    .insert({ id, title: `Title ${id}`, price: 20, stock, low_stock_level: lowStockLevel });
  if (error) throw error;
}

/** An order of `quantity` copies, not yet paid. */
async function order(productId: string, quantity: number): Promise<string> {
  const { data, error } = await t
    .service()
    .from('orders')
    .insert({
      checkout_session_id: `cs_local_${crypto.randomUUID()}`,
      customer_email: 'reader@example.com',
      subtotal_amount: 20 * quantity,
      shipping_amount: 15,
      total_amount: 20 * quantity + 15,
      shipping_address: { line1: '1 Church St', city: 'Parramatta', postal_code: '2150', country: 'AU' },
      shipping_method: { name: 'AU Standard Courier' },
    })
    .select('id')
    .single();
  if (error) throw error;
  const items = await t
    .service()
    .from('order_items')
    .insert({ order_id: data.id, product_id: productId, title: `Title ${productId}`, quantity, price_at_time: 20 });
  if (items.error) throw items.error;
  return data.id as string;
}

function recordingServices(fail = false) {
  const sent: EmailMessage[] = [];
  const services = {
    email: {
      name: 'recording',
      send: vi.fn(async (message: EmailMessage) => {
        if (fail && message.subject.startsWith('Low stock')) throw new Error('provider down');
        sent.push(message);
      }),
    },
    payments: { refundSession: vi.fn() },
    siteOrigin: 'https://shop.example',
    notifyTo: 'publisher@example.com.au',
  } as unknown as FulfilmentServices;
  return { services, sent };
}
const lowStockMails = (sent: EmailMessage[]) => sent.filter((m) => m.subject.startsWith('Low stock'));

async function stockAction(client: SupabaseClient | null, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const token = client ? (await client.auth.getSession()).data.session?.access_token : undefined;
  const response = await fetch(`${t.url}/api/admin-stock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the low-stock email', () => {
  it('goes once when sales take a title below its level: concurrent fulfilments and retries send one', async () => {
    await product('low-a', 12, 10);
    const { services, sent } = recordingServices();
    const [first, second] = [await order('low-a', 2), await order('low-a', 2)]; // 12 → 10 → 8
    const third = await order('low-a', 1); // 8 → 7: still below
    await Promise.all([first, second, first, second].map((id) => fulfilOrder(t.service(), services, id)));
    await fulfilOrder(t.service(), services, third);
    await fulfilOrder(t.service(), services, second);
    const mails = lowStockMails(sent);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'publisher@example.com.au', subject: 'Low stock: Title low-a' });
    expect(mails[0]!.text).toContain('Title low-a: 8 left (low-stock level 10)');
    expect(mails[0]!.text).toContain('https://shop.example/admin#stock');
  });

  it('is sent again only after the stock was back at the level; a failed send is given back and sent by the retry', async () => {
    await product('low-b', 11, 10);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const down = recordingServices(true);
    const sale = await order('low-b', 2); // 11 → 9
    await fulfilOrder(t.service(), down.services, sale);
    expect(lowStockMails(down.sent)).toEqual([]);
    const up = recordingServices();
    await fulfilOrder(t.service(), up.services, sale); // the webhook's retry
    expect(lowStockMails(up.sent)).toHaveLength(1);

    expect((await stockAction(staff, { action: 'receive', productId: 'low-b', quantity: 5, reason: 'Reprint' })).status).toBe(200); // 9 → 14: re-armed
    await fulfilOrder(t.service(), up.services, await order('low-b', 5)); // 14 → 9
    expect(lowStockMails(up.sent)).toHaveLength(2);
  });
});

describe('/api/admin-stock', () => {
  it('is for staff only', async () => {
    await product('act-a', 3);
    expect(await stockAction(null, { action: 'receive', productId: 'act-a', quantity: 2, reason: 'x' })).toEqual({ status: 401, body: { error: 'Sign in to use the back office.' } });
    expect(await stockAction(shopper, { action: 'receive', productId: 'act-a', quantity: 2, reason: 'x' })).toEqual({ status: 403, body: { error: "You don't have access to the back office." } });
  });

  it('adds a delivery and sets a count, with who and why in the history; refuses what is not a whole number of copies', async () => {
    expect(await stockAction(staff, { action: 'receive', productId: 'act-a', quantity: 30, reason: '  Delivery   from the printer ' })).toMatchObject({
      status: 200,
      body: { message: 'Title act-a: 30 received, 33 in stock.', stock: 33 },
    });
    expect(await stockAction(staff, { action: 'set', productId: 'act-a', stock: 31, reason: 'Counted' })).toMatchObject({ status: 200, body: { message: 'Title act-a: stock set to 31.', stock: 31 } });
    for (const [quantity, error] of [
      [0, 'quantity: Copies received must be a whole number, 1 or more.'],
      [-3, 'quantity: Copies received must be a whole number, 1 or more.'],
      [2.5, 'quantity: Copies received must be a whole number, 1 or more.'],
      ['5', 'quantity: Copies received must be a whole number, 1 or more.'],
    ] as const) {
      expect(await stockAction(staff, { action: 'receive', productId: 'act-a', quantity, reason: 'x' })).toMatchObject({ status: 400, body: { error: error } });
    }
    expect(await stockAction(staff, { action: 'receive', productId: 'act-a', quantity: 2, reason: '   ' })).toMatchObject({ status: 400, body: { error: 'reason: Give a reason for the change.' } });
    expect(await stockAction(staff, { action: 'receive', productId: 'act-a', quantity: 99_999, reason: 'Too many' })).toMatchObject({ status: 400, body: { error: 'Stock can be at most 100000.' } });
    expect(await stockAction(staff, { action: 'receive', productId: 'no-such-title', quantity: 2, reason: 'x' })).toMatchObject({ status: 404, body: { error: 'We could not find that product.' } });

    const { data } = await staff.rpc('admin_stock_history', { p_product_id: 'act-a' });
    expect((data as Array<Record<string, unknown>>).map(({ previous_stock, new_stock, reason, actor }) => ({ previous_stock, new_stock, reason, actor }))).toEqual([
      { previous_stock: 33, new_stock: 31, reason: 'Counted', actor: STAFF },
      { previous_stock: 3, new_stock: 33, reason: 'Delivery from the printer', actor: STAFF },
    ]);
  });
});

describe('tell me when it’s back', () => {
  const ask = (email: string, productId: string) =>
    fetch(`${t.url}/api/send-notification`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'back_in_stock', data: { email, productId } }) });

  it('puts an address on a sold-out book’s list once in any letter case, and emails each address once when stock comes back', async () => {
    await product('back-a', 0);
    const before = (await readOutbox(outbox)).length;
    expect((await ask('ann@example.com', 'back-a')).status).toBe(200);
    expect((await ask('bo@example.com', 'back-a')).status).toBe(200);
    const again = await ask('ANN@example.com', 'back-a');
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "You're already on the list for this book: we'll email you once when it's available." });
    expect(await (await ask('ann@example.com', 'no-such-title')).json()).toEqual({ error: 'We could not find that book in the shop.' });
    expect((await ask('not-an-address', 'back-a')).status).toBe(400);
    // Nothing is sent on signing up, and a shopper cannot read the list.
    expect((await readOutbox(outbox)).length).toBe(before);
    expect((await shopper.from('back_in_stock_requests').select('email')).error).toBeTruthy();
    const { data: listed } = await staff.rpc('admin_list_stock');
    expect((listed as Array<{ id: string; waiting: number }>).find((p) => p.id === 'back-a')?.waiting).toBe(2);

    // Set to 0 is not back in stock: nobody is emailed.
    expect(await stockAction(staff, { action: 'set', productId: 'back-a', stock: 0, reason: 'Recount' })).toMatchObject({ status: 200, body: { notified: 0 } });
    const received = await Promise.all([
      stockAction(staff, { action: 'receive', productId: 'back-a', quantity: 10, reason: 'Reprint' }),
      stockAction(staff, { action: 'receive', productId: 'back-a', quantity: 1, reason: 'Found one' }),
    ]);
    expect(received.map((r) => r.status)).toEqual([200, 200]);
    expect(received.reduce((n, r) => n + Number(r.body.notified), 0)).toBe(2);
    expect(await stockAction(staff, { action: 'receive', productId: 'back-a', quantity: 1, reason: 'Another' })).toMatchObject({ status: 200, body: { notified: 0 } });

    const mails = (await readOutbox(outbox)).filter((m) => m.subject === 'Title back-a is back in stock');
    expect(mails.map((m) => m.to).sort()).toEqual(['ann@example.com', 'bo@example.com']);
    expect(mails[0]!.text).toContain(`/store/product/back-a`);
    const { data: after } = await staff.rpc('admin_list_stock');
    expect((after as Array<{ id: string; waiting: number }>).find((p) => p.id === 'back-a')?.waiting).toBe(0);
  });
});
