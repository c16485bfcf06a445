import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';
import { fulfilOrder, type FulfilmentServices } from '../../functions/_lib/fulfilment';
import type { EmailMessage } from '../../functions/_lib/providers/email';
import { signingSecret, signMailLink } from '../../functions/_lib/mail-links';
import { type OutboxEntry, readOutbox } from '../../functions/_lib/providers/local-email';
import { readServerEnv } from '../../src/config/env';
import { useBackOfficeShop } from '../helpers/shop';
import { insertOrder } from '../helpers/insert-order';

const STAFF = 'stock-keeper@example.com';
const t = useBackOfficeShop('stock-actions', { staff: STAFF, shopper: 'browser@example.com' });

async function product(id: string, stock: number, lowStockLevel = 10): Promise<void> {
  const { error } = await t
    .service()
    .from('products')
    .insert({ id, title: `Title ${id}`, price: 20, stock, low_stock_level: lowStockLevel });
  if (error) throw error;
}

/** An order of `quantity` copies, not yet paid. */
async function order(productId: string, quantity: number): Promise<string> {
  return insertOrder(
    t.service(),
    {
      checkout_session_id: `cs_local_${crypto.randomUUID()}`,
      customer_email: 'reader@example.com',
      subtotal_amount: 20 * quantity,
      shipping_amount: 15,
      total_amount: 20 * quantity + 15,
      shipping_address: { line1: '1 Church St', city: 'Parramatta', postal_code: '2150', country: 'AU' },
      shipping_method: { name: 'AU Standard Courier' },
    },
    [{ product_id: productId, title: `Title ${productId}`, quantity, price_at_time: 20 }],
  );
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

const stockAction = (client: SupabaseClient | null, body: unknown) => t.post('admin-stock', body, client);

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

    expect((await stockAction(t.staff, { action: 'receive', productId: 'low-b', quantity: 5, reason: 'Reprint' })).status).toBe(200); // 9 → 14: re-armed
    await fulfilOrder(t.service(), up.services, await order('low-b', 5)); // 14 → 9
    expect(lowStockMails(up.sent)).toHaveLength(2);
  });
});

describe('/api/admin-stock', () => {
  it('is for staff only', async () => {
    await product('act-a', 3);
    expect(await stockAction(null, { action: 'receive', productId: 'act-a', quantity: 2, reason: 'x' })).toEqual({ status: 401, body: { error: 'Sign in to use the back office.' } });
    expect(await stockAction(t.shopper, { action: 'receive', productId: 'act-a', quantity: 2, reason: 'x' })).toEqual({ status: 403, body: { error: "You don't have access to the back office." } });
  });

  it('adds a delivery and sets a count, with who and why in the history; refuses what is not a whole number of copies', async () => {
    expect(await stockAction(t.staff, { action: 'receive', productId: 'act-a', quantity: 30, reason: '  Delivery   from the printer ' })).toMatchObject({
      status: 200,
      body: { message: 'Title act-a: 30 received, 33 in stock.', stock: 33 },
    });
    expect(await stockAction(t.staff, { action: 'set', productId: 'act-a', stock: 31, reason: 'Counted' })).toMatchObject({
      status: 200,
      body: { message: 'Title act-a: stock set to 31.', stock: 31 },
    });
    for (const [quantity, error] of [
      [0, 'quantity: Copies received must be a whole number, 1 or more.'],
      [-3, 'quantity: Copies received must be a whole number, 1 or more.'],
      [2.5, 'quantity: Copies received must be a whole number, 1 or more.'],
      ['5', 'quantity: Copies received must be a whole number, 1 or more.'],
    ] as const) {
      expect(await stockAction(t.staff, { action: 'receive', productId: 'act-a', quantity, reason: 'x' })).toMatchObject({ status: 400, body: { error: error } });
    }
    expect(await stockAction(t.staff, { action: 'receive', productId: 'act-a', quantity: 2, reason: '   ' })).toMatchObject({ status: 400, body: { error: 'reason: Give a reason for the change.' } });
    expect(await stockAction(t.staff, { action: 'receive', productId: 'act-a', quantity: 99_999, reason: 'Too many' })).toMatchObject({ status: 400, body: { error: 'Stock can be at most 100000.' } });
    expect(await stockAction(t.staff, { action: 'receive', productId: 'no-such-title', quantity: 2, reason: 'x' })).toMatchObject({ status: 404, body: { error: 'We could not find that product.' } });

    const { data } = await t.staff.rpc('admin_stock_history', { p_product_id: 'act-a' });
    expect((data.changes as Array<Record<string, unknown>>).map(({ previous_stock, new_stock, reason, actor }) => ({ previous_stock, new_stock, reason, actor }))).toEqual([
      { previous_stock: 33, new_stock: 31, reason: 'Counted', actor: STAFF },
      { previous_stock: 3, new_stock: 33, reason: 'Delivery from the printer', actor: STAFF },
    ]);
  });
});

describe('tell me when it’s back', () => {
  const ask = (email: string, productId: string) => t.post('send-notification', { type: 'back_in_stock', data: { email, productId } });
  /** Follows a link of a confirmation email as its page does: the token after `#`, posted with the answer. */
  const follow = (mail: OutboxEntry, answer: 'confirm' | 'decline') => t.post('email-confirm', { token: tokenOf(mail), answer });
  const tokenOf = (mail: OutboxEntry) => mail.text.match(/\/newsletter\/confirm#(\S+)/)![1]!;
  const mailsTo = async (email: string) => (await readOutbox(t.outbox)).filter((m) => m.to.toLowerCase() === email.toLowerCase());
  const confirmationsTo = async (email: string) => (await mailsTo(email)).filter((m) => m.subject.startsWith('Please confirm'));
  const sendMailing = (newsletterId: string) => t.post('admin-newsletter', { newsletterId }, t.staff);
  const waitingFor = async (productId: string) => ((await t.staff.rpc('admin_list_stock')).data as Array<{ id: string; waiting: number }>).find((p) => p.id === productId)?.waiting;

  it('a sold-out book’s list holds only addresses confirmed from their inbox; a stock change draws them into one mailing, sent once to each by the batch sender', async () => {
    await product('back-a', 0);
    await product('back-in', 4);
    const [ann, bo, cy] = ['ann@example.com', 'bo@example.com', 'cy@example.com'];

    // Asking sends one email: a link to confirm and a "This wasn't me" link, with the same token.
    expect(await ask(ann, 'back-a')).toEqual({ status: 200, body: { ok: true } });
    const [confirmation] = await confirmationsTo(ann);
    expect(await mailsTo(ann)).toHaveLength(1);
    expect(confirmation).toMatchObject({ subject: 'Please confirm: email me when Title back-a is available' });
    const token = tokenOf(confirmation!);
    expect(confirmation!.text).toContain(`${t.url}/newsletter/confirm#${token}`);
    expect(confirmation!.text).toContain(`${t.url}/newsletter/confirm?answer=decline#${token}`);
    // Asking again while the email is fresh (in any letter case) sends no second one, and answers the same.
    expect(await ask('ANN@example.com', 'back-a')).toEqual({ status: 200, body: { ok: true } });
    expect(await mailsTo(ann)).toHaveLength(1);

    expect(await follow(confirmation!, 'confirm')).toEqual({ status: 200, body: { state: 'confirmed', message: "Thank you for confirming! We'll email you once when the book is available." } });
    expect(await follow(confirmation!, 'confirm')).toMatchObject({ status: 200, body: { state: 'already' } });
    // Confirmed: asking again answers exactly as a new address is answered; Ann's own inbox is told she is on the list
    // (once a day), with the way off it.
    const newcomer = await ask('dee@example.com', 'back-a');
    expect(await ask('ANN@example.com', 'back-a')).toEqual(newcomer);
    expect(newcomer).toEqual({ status: 200, body: { ok: true } });
    const [note, ...more] = (await mailsTo(ann)).filter((m) => m.subject === "You're already on the list for Title back-a");
    expect(more).toEqual([]);
    expect(note!.text).toContain("we'll email you once when Title back-a is available");
    expect(note!.text).toMatch(/unsubscribe with one click: http:\/\/[^\s]+\/newsletter\/unsubscribe#/);
    expect(await ask(ann, 'back-a')).toEqual(newcomer);
    expect(await mailsTo(ann)).toHaveLength(2);

    // Bo asks and never confirms; Cy asks and confirms.
    expect((await ask(bo, 'back-a')).status).toBe(200);
    expect((await ask(cy, 'back-a')).status).toBe(200);
    expect((await follow((await confirmationsTo(cy))[0]!, 'confirm')).body).toMatchObject({ state: 'confirmed' });

    // A book that can be bought now has no list; an unknown book or a bad address is refused. Nothing is sent.
    const before = (await readOutbox(t.outbox)).length;
    expect(await ask(ann, 'back-in')).toEqual({ status: 422, body: { error: 'This book is in stock: you can order it now, so there is no list to wait on.' } });
    expect(await ask(ann, 'no-such-title')).toEqual({ status: 404, body: { error: 'We could not find that book in the shop.' } });
    expect((await ask('not-an-address', 'back-a')).status).toBe(400);
    expect((await readOutbox(t.outbox)).length).toBe(before);

    // A shopper cannot read the list; staff see the confirmed only.
    expect((await t.shopper.from('back_in_stock_requests').select('email')).error).toBeTruthy();
    expect(await waitingFor('back-a')).toBe(2);

    // Set to 0 is not back in stock: nobody is drawn.
    expect(await stockAction(t.staff, { action: 'set', productId: 'back-a', stock: 0, reason: 'Recount' })).toEqual({
      status: 200,
      body: { message: 'Title back-a: stock set to 0.', stock: 0, mailing: null },
    });
    // Two deliveries at once draw one mailing, for the two confirmed addresses; sending is left to the batch sender.
    const received = await Promise.all([
      stockAction(t.staff, { action: 'receive', productId: 'back-a', quantity: 10, reason: 'Reprint' }),
      stockAction(t.staff, { action: 'receive', productId: 'back-a', quantity: 1, reason: 'Found one' }),
    ]);
    expect(received.map((r) => r.status)).toEqual([200, 200]);
    const drawn = received.filter((r) => r.body.mailing !== null);
    expect(drawn).toHaveLength(1);
    const mailing = drawn[0]!.body.mailing as { id: string; recipients: number };
    expect(mailing).toEqual({ id: expect.any(String), recipients: 2 });
    expect(drawn[0]!.body.message).toMatch(/^Title back-a: (10|1) received, (10|1|11) in stock; emailing 2 waiting shoppers\.$/);
    expect(received.find((r) => r.body.mailing === null)!.body.message).toMatch(/^Title back-a: (10|1) received, (10|1|11) in stock\.$/);
    // Whichever came second found the other's copies there: 11 in all.
    expect(Math.max(...received.map((r) => Number(r.body.stock)))).toBe(11);
    expect(await waitingFor('back-a')).toBe(0);
    const available = async () => (await readOutbox(t.outbox)).filter((m) => m.subject === 'Title back-a is available');
    expect(await available()).toEqual([]);

    // The back office sends it: one email per confirmed address, in one batch, each with its one-click unsubscribe.
    expect(await sendMailing(mailing.id)).toEqual({ status: 200, body: { sent: 2, waiting: 0, state: 'done', message: 'It has gone to everyone it was for.' } });
    const mails = await available();
    expect(mails.map((m) => m.to).sort()).toEqual([ann, cy]);
    const secret = signingSecret(readServerEnv({ SHOP_LOCAL_SERVER: '1' }));
    for (const mail of mails) {
      expect(mail.batchKey).toBe(`newsletter-${mailing.id}-batch-1`);
      const unsubscribe = await signMailLink(secret, { kind: 'availability-unsubscribe', email: mail.to });
      expect(mail.headers).toEqual({
        'List-Unsubscribe': `<${t.url}/api/newsletter-unsubscribe?token=${encodeURIComponent(unsubscribe)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      expect(mail.text).toContain(`${t.url}/newsletter/unsubscribe#${unsubscribe}`);
      expect(mail.text).toContain('/store/product/back-a');
    }
    // Bo, who never confirmed, had the confirmation and nothing else.
    expect((await mailsTo(bo)).map((m) => m.subject)).toEqual(['Please confirm: email me when Title back-a is available']);
    // Sending again sends nobody anything.
    expect((await sendMailing(mailing.id)).body).toMatchObject({ sent: 0, state: 'done' });
    expect(await available()).toHaveLength(2);

    // A later stock change draws nothing: the confirmed were emailed, and Bo is still unconfirmed.
    expect(await stockAction(t.staff, { action: 'receive', productId: 'back-a', quantity: 1, reason: 'Another' })).toEqual({
      status: 200,
      body: { message: 'Title back-a: 1 received, 12 in stock.', stock: 12, mailing: null },
    });
    expect(((await t.staff.rpc('admin_list_newsletters')).data as Array<{ product_id: string | null }>).filter((n) => n.product_id === 'back-a')).toHaveLength(1);
    expect(await available()).toHaveLength(2);
  });
});
