import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it, vi } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { main as staffCli } from '../../local/staff';
import { useBackOfficeShop } from '../helpers/shop';
import { insertOrder } from '../helpers/insert-order';

const STAFF = 'publisher@example.com';
const t = useBackOfficeShop('back-office', { staff: STAFF, shopper: 'shopper@example.com', staffSignsInAs: STAFF.toUpperCase() });

/** A paid order for a guest (fulfilled as the payment webhook would). */
async function paidOrder(email: string, quantity = 1): Promise<string> {
  return insertOrder(
    t.service(),
    {
      checkout_session_id: `cs_local_${crypto.randomUUID()}`,
      customer_email: email,
      customer_name: 'Guest Customer',
      subtotal_amount: 22 * quantity,
      shipping_amount: 15,
      total_amount: 22 * quantity + 15,
      shipping_address: { line1: '1 Church St', city: 'Parramatta', state: 'NSW', postal_code: '2150', country: 'AU' },
      shipping_method: { id: 'au-standard', name: 'AU Standard Courier' },
    },
    [{ product_id: 'book-10-reasons', title: 'The Book', quantity, price_at_time: 22 }],
    { fulfil: true },
  );
}

async function tokenOf(client: SupabaseClient): Promise<string> {
  return (await client.auth.getSession()).data.session!.access_token;
}

async function act(client: SupabaseClient | null, body: unknown): Promise<{ status: number; body: { message?: string; error?: string } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (client) headers.authorization = `Bearer ${await tokenOf(client)}`;
  const response = await fetch(`${t.url}/api/admin-order`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const mailTo = async (email: string) => (await readOutbox(t.outbox)).filter((m) => m.to === email);
const stock = async () => (await t.anon().from('products').select('stock').eq('id', 'book-10-reasons').single()).data!.stock as number;
const history = async (orderId: string) => ((await t.staff.rpc('admin_get_order', { p_order_id: orderId })).data as { history: Array<{ action: string; actor: string; detail: string }> }).history;

describe('order actions (/api/admin-order)', () => {
  it('ship: one email with the number and the tracking link; twice sends one; a corrected number sends a correction', async () => {
    const email = 'ship-guest@example.com';
    const orderId = await paidOrder(email);
    const ship = (trackingNumber: string) => act(t.staff, { action: 'ship', orderId, shipment: { carrier: 'auspost', trackingNumber } });

    const bad = await ship('12');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Australia Post tracking number is 10 to 23 letters and digits/);

    expect((await ship('33abc 1234567')).status).toBe(200);
    const again = await ship('33ABC1234567');
    expect(again.body.message).toMatch(/already shipped with this tracking number/);
    let mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your order ${await t.orderNumber(orderId)} has shipped`);
    expect(mails[0]!.text).toContain('Tracking number: 33ABC1234567 (Australia Post)');
    expect(mails[0]!.text).toContain('https://auspost.com.au/mypost/track/details/33ABC1234567');
    expect(mails[0]!.text).toMatch(new RegExp(`${t.url}/order-status#[0-9a-f]{64}`));

    // The server checks an international number's check digit as the form does.
    const wrongCheckDigit = await ship('RR123456789AU');
    expect(wrongCheckDigit.status).toBe(400);
    expect(wrongCheckDigit.body.error).toContain('RR123456789AU is not a valid international tracking number');
    expect(wrongCheckDigit.body.error).toContain('e.g. RR123456785AU');

    const corrected = await ship('RR123456785AU');
    expect(corrected.body.message).toMatch(/corrected/);
    mails = await mailTo(email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/has shipped$/), expect.stringMatching(/^Corrected tracking number for your order/)]);
    expect(mails[1]!.text).toContain('RR123456785AU');

    expect((await history(orderId)).map((e) => e.action)).toEqual(['shipped', 'shipping_emailed', 'tracking_corrected', 'shipping_emailed']);
    expect((await history(orderId)).every((e) => e.actor === STAFF)).toBe(true);
  });

  it('another carrier is named in free text and gets no made-up link', async () => {
    const email = 'other-carrier@example.com';
    const orderId = await paidOrder(email);
    const noName = await act(t.staff, { action: 'ship', orderId, shipment: { carrier: 'other', carrierName: '', trackingNumber: 'ABC-1' } });
    expect(noName.body.error).toMatch(/Name the carrier/);
    expect((await act(t.staff, { action: 'ship', orderId, shipment: { carrier: 'other', carrierName: 'Aramex', trackingNumber: 'ABC-1' } })).status).toBe(200);
    const [mail] = await mailTo(email);
    expect(mail!.text).toContain('Tracking number: ABC-1 (Aramex)');
    expect(mail!.text).toContain("Track it on Aramex's website");
  });

  it('mark as delivered: only a shipped order, and it becomes completed', async () => {
    const orderId = await paidOrder('delivered@example.com');
    expect((await act(t.staff, { action: 'deliver', orderId })).status).toBe(409);
    await act(t.staff, { action: 'ship', orderId, shipment: { carrier: 'auspost', trackingNumber: '33ABC7654321' } });
    expect((await act(t.staff, { action: 'deliver', orderId })).status).toBe(200);
    const { data } = await t.service().from('orders').select('status, delivered_at').eq('id', orderId).single();
    expect(data).toMatchObject({ status: 'completed', delivered_at: expect.any(String) });
    expect((await history(orderId)).at(-1)).toMatchObject({ action: 'delivered', actor: STAFF });
  });

  it('cancel and refund: one refund with its reference, stock put back, the customer emailed once', async () => {
    const email = 'cancel@example.com';
    const before = await stock();
    const orderId = await paidOrder(email, 3);
    expect(await stock()).toBe(before - 3);

    const [first, second] = await Promise.all([act(t.staff, { action: 'cancel', orderId }), act(t.staff, { action: 'cancel', orderId })]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await stock()).toBe(before);
    const { data } = await t.service().from('orders').select('status, payment_status, refund_id, refunded_at').eq('id', orderId).single();
    expect(data).toMatchObject({ status: 'cancelled', payment_status: 'refund_due', refund_id: expect.stringMatching(/^re_local_/), refunded_at: expect.any(String) });
    const mails = await mailTo(email);
    expect(mails.filter((m) => /cancelled and refunded/.test(m.subject))).toHaveLength(1);
    expect((await history(orderId)).map((e) => e.action)).toEqual(['cancelled', 'refunded']);
    expect((await act(t.staff, { action: 'retry_refund', orderId })).status).toBe(409);
  });

  it('a refund the provider refuses is recorded as failed, listed under Refunds due, and Retry refund completes it', async () => {
    const { createLocalTestPayments } = await import('../../functions/_lib/providers/local-payments');
    const real = createLocalTestPayments(() => t.service());
    const orderId = await paidOrder('retry@example.com');
    const { runOrderAction } = await import('../../functions/_lib/back-office');
    const email = { name: 'recording', send: vi.fn(async () => undefined), sendBatch: vi.fn(async () => undefined) };
    const refusing = { ...real, refundSession: vi.fn(async () => ({ id: 're_failed', status: 'failed' as const })) };
    const failed = await runOrderAction({ db: t.service(), actor: STAFF, services: { email, payments: refusing, siteOrigin: t.url } }, { action: 'cancel', orderId });
    expect(failed.status).toBe(502);
    expect(failed.message).toMatch(/Refunds due: use Retry refund/);
    const due = (await t.staff.rpc('admin_list_orders', { p_view: 'refunds_due', p_search: '' })).data.orders as Array<{ id: string }>;
    expect(due.map((o) => o.id)).toContain(orderId);

    const retried = await act(t.staff, { action: 'retry_refund', orderId });
    expect(retried.status).toBe(200);
    expect((await history(orderId)).map((e) => e.action)).toEqual(['cancelled', 'refund_failed', 'refunded']);
    const after = (await t.staff.rpc('admin_list_orders', { p_view: 'refunds_due', p_search: '' })).data.orders as Array<{ id: string }>;
    expect(after.map((o) => o.id)).not.toContain(orderId);
  });

  it('resend confirmation: sends the confirmation again and records it', async () => {
    const email = 'resend@example.com';
    const orderId = await paidOrder(email);
    expect((await act(t.staff, { action: 'resend_confirmation', orderId })).status).toBe(200);
    expect((await mailTo(email)).map((m) => m.subject)).toEqual([expect.stringMatching(/is confirmed$/)]);
    expect((await history(orderId)).map((e) => e.action)).toEqual(['confirmation_resent']);
  });

  it('refuses a signed-out caller (401), a shopper who is not staff (403) and a malformed body (400)', async () => {
    const orderId = await paidOrder('refused@example.com');
    expect((await act(null, { action: 'deliver', orderId })).status).toBe(401);
    const asShopper = await act(t.shopper, { action: 'cancel', orderId });
    expect(asShopper).toEqual({ status: 403, body: { error: "You don't have access to the back office." } });
    expect((await act(t.staff, { action: 'explode', orderId })).status).toBe(400);
    expect((await act(t.staff, { action: 'cancel', orderId: 'not-an-id' })).body.error).toMatch(/orderId must be an order id/);
  });
});

describe('staff lists and changes through the database', () => {
  it('orders: To pack oldest first, search by order number (or the start of its id) or email', async () => {
    const older = await paidOrder('pack-one@example.com');
    const newer = await paidOrder('pack-two@example.com');
    const toPack = ((await t.staff.rpc('admin_list_orders', { p_view: 'to_pack', p_search: '' })).data.orders as Array<{ id: string }>).map((o) => o.id);
    expect(toPack.indexOf(older)).toBeLessThan(toPack.indexOf(newer));
    const search = async (text: string) => ((await t.staff.rpc('admin_list_orders', { p_view: 'all', p_search: text })).data.orders as Array<{ id: string; number: number }>).map((o) => o.id);
    const number = await t.orderNumber(newer);
    expect(await search(number)).toContain(newer);
    expect(await search(`#${number}`)).toEqual([newer]);
    // An order found before orders were numbered by its id's start is found by it still.
    expect(await search(newer.slice(0, 8).toUpperCase())).toEqual([newer]);
    const listed = (await t.staff.rpc('admin_list_orders', { p_view: 'all', p_search: `#${number}` })).data.orders as Array<{ number: number }>;
    expect(listed.map((o) => String(o.number))).toEqual([number]);
    const byEmail = (await t.staff.rpc('admin_list_orders', { p_view: 'all', p_search: 'PACK-ONE@' })).data.orders as Array<{ id: string }>;
    expect(byEmail.map((o) => o.id)).toEqual([older]);
  });

  it('stock: set with a reason, recorded with who and the previous figure', async () => {
    const before = await stock();
    expect((await t.staff.rpc('admin_set_stock', { p_product_id: 'book-10-reasons', p_stock: 7, p_reason: '  ' })).error?.message).toMatch(/Give a reason/);
    expect((await t.staff.rpc('admin_set_stock', { p_product_id: 'book-10-reasons', p_stock: 7, p_reason: 'Stocktake' })).data).toBe(7);
    expect(await stock()).toBe(7);
    const { data } = await t.staff.from('stock_changes').select('previous_stock, new_stock, reason, actor').eq('product_id', 'book-10-reasons');
    expect(data!.at(-1)).toEqual({ previous_stock: before, new_stock: 7, reason: 'Stocktake', actor: STAFF });
    await t.staff.rpc('admin_set_stock', { p_product_id: 'book-10-reasons', p_stock: before, p_reason: 'Back after the test' });
  });

  it('messages: newest first, mark handled once; subscribers: list and remove one', async () => {
    await t
      .service()
      .from('contact_submissions')
      .insert([
        { name: 'Ann', email: 'ann@example.com', subject: 'First', message: 'Hello' },
        { name: 'Bob', email: 'bob@example.com', subject: 'Second', message: 'Hi' },
      ]);
    const { data: messages } = await t.staff.from('contact_submissions').select('id, subject, handled_at').order('created_at', { ascending: false });
    expect(
      messages!
        .map((m) => m.subject)
        .slice(0, 2)
        .sort(),
    ).toEqual(['First', 'Second']);
    const id = messages![0]!.id as string;
    expect((await t.staff.rpc('admin_mark_message_handled', { p_message_id: id })).data).toBe(true);
    expect((await t.staff.rpc('admin_mark_message_handled', { p_message_id: id })).data).toBe(false);
    const { data: handled } = await t.service().from('contact_submissions').select('handled_by').eq('id', id).single();
    expect(handled).toEqual({ handled_by: STAFF });

    await t.service().from('newsletter_subscriptions').insert({ email: 'reader@example.com' });
    const { data: subs } = await t.staff.from('newsletter_subscriptions').select('id, email');
    const reader = subs!.find((s) => s.email === 'reader@example.com')!;
    expect((await t.staff.rpc('admin_remove_subscriber', { p_subscriber_id: reader.id })).data).toBe(true);
    expect((await t.service().from('newsletter_subscriptions').select('id').eq('id', reader.id)).data).toEqual([]);
  });

  it('the order history is append-only, even for the service role', async () => {
    const orderId = await paidOrder('append@example.com');
    await act(t.staff, { action: 'resend_confirmation', orderId });
    const changed = await t.service().from('order_events').update({ actor: 'someone else' }).eq('order_id', orderId);
    expect(changed.error?.code).toBe('42501');
    const removed = await t.service().from('order_events').delete().eq('order_id', orderId);
    expect(removed.error?.code).toBe('42501');
  });
});

describe('order status page (/api/order-status)', () => {
  it('answers by the token only: status, items, delivery method and tracking', async () => {
    const orderId = await paidOrder('status@example.com');
    await act(t.staff, { action: 'ship', orderId, shipment: { carrier: 'auspost', trackingNumber: '33XYZ0000001' } });
    const { data } = await t.service().from('orders').select('status_token').eq('id', orderId).single();
    const ask = (token: string) => fetch(`${t.url}/api/order-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    const found = await ask(data!.status_token as string);
    expect(await found.json()).toEqual({
      orderNumber: await t.orderNumber(orderId),
      status: 'shipped',
      paymentStatus: 'paid',
      refunded: false,
      deliveryMethod: 'AU Standard Courier',
      total: 37,
      items: [{ title: 'The Book', quantity: 1 }],
      gift: null,
      tracking: { number: '33XYZ0000001', carrier: 'Australia Post', url: 'https://auspost.com.au/mypost/track/details/33XYZ0000001' },
      // A number typed by hand: no carrier event has come from the shipping platform.
      latestTracking: null,
      // A card order, not one bought on account: no school's invoice.
      accountInvoice: null,
      // Waiting for no title on pre-order.
      preorders: [],
      // The paid order's tax invoice (its contents are tax-invoice.test.ts's).
      invoice: expect.objectContaining({ title: 'Tax invoice', orderNumber: await t.orderNumber(orderId), total: 37 }),
    });
    expect((await ask(orderId)).status).toBe(400);
    expect((await ask('0'.repeat(64))).status).toBe(404);
  });
});

describe('npm run staff', () => {
  it('adds (before the person ever signed in), lists and removes staff by email against the running shop', async () => {
    const env = { PORT: new URL(t.url).port };
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await staffCli(['add', 'New.Staff@Example.com'], env)).toBe(0);
      expect(await staffCli(['add', 'new.staff@example.com'], env)).toBe(0);
      expect(await staffCli(['list'], env)).toBe(0);
      expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/already staff[\s\S]*new\.staff@example\.com {2}\(since/);
      const newcomer = await t.signIn('new.staff@example.com');
      expect((await newcomer.rpc('is_staff')).data).toBe(true);
      expect(await staffCli(['remove', 'new.staff@example.com'], env)).toBe(0);
      expect((await newcomer.rpc('is_staff')).data).toBe(false);
    } finally {
      log.mockRestore();
    }
  });

  it('says how to start the shop when it is not running, and how to use it when misused', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await staffCli(['list'], { PORT: '1' })).toBe(1);
      expect(String(error.mock.calls.at(-1)?.[0])).toMatch(/not running at http:\/\/localhost:1\. Start it with `npm start`/);
      expect(await staffCli(['promote', 'x@example.com'], {})).toBe(2);
      expect(String(error.mock.calls.at(-1)?.[0])).toMatch(/Usage: npm run staff -- add <email>/);
    } finally {
      error.mockRestore();
    }
  });
});
