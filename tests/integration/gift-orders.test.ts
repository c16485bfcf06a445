/**
 * Gifts and reminders through the functions, on the local defaults: create-checkout keeps a gift's message
 * (checked on the server: 200 characters, a few lines, no control characters) and the reminder consent with
 * its time; the confirmation and the status page show the gift; Cancel on the TEST payment page (the local
 * stand-in for an expired Stripe session) sends a consenting shopper one reminder, a second cancel none, and
 * a shopper who did not agree none; the reminder's link gives the books back at today's price.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { useTestShop } from '../helpers/shop';

const outbox = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'outbox.jsonl');
const t = useTestShop({ env: { LOCAL_OUTBOX_FILE: outbox } });
beforeAll(async () => {
  await t.service().from('products').insert({ id: 'gift-book', title: 'Gift Book', price: 12, stock: 50 });
});

const address = { fullName: 'Lucy Recipient', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };

const checkout = (extra: Record<string, unknown>, email = `buyer-${Math.random().toString(36).slice(2)}@example.com`) =>
  t.post('create-checkout', { cartItems: [{ id: 'gift-book', quantity: 2 }], shippingDetails: address, customerEmail: email, ...extra });

const orderRow = async (id: string) =>
  (await t.service().from('orders').select('customer_name, customer_email, is_gift, gift_message, gift_hide_prices, reminder_consent_at, reminder_sent_at, status_token').eq('id', id).single()).data!;

/** Presses a button on the TEST payment page of a checkout's answer. */
async function testPage(url: string, action: 'pay' | 'cancel') {
  const link = new URL(url);
  const form = new URLSearchParams({ session: link.searchParams.get('session')!, success: link.searchParams.get('success')!, cancel: link.searchParams.get('cancel')!, action });
  return fetch(`${t.url}/api/test-payment`, { method: 'POST', body: form, redirect: 'manual' });
}

const remindersFor = async (orderId: string) => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `checkout-reminder-${orderId}`);

describe('a gift at checkout', () => {
  it('is kept on the order with its message and the prices left out; the buyer’s email stays the buyer’s', async () => {
    const { status, body } = await checkout({ gift: { isGift: true, message: '  Happy First Communion, Lucy!\r\nLove, Nonna  ', hidePrices: true } }, 'nonna@example.com');
    expect(status).toBe(200);
    const orderId = body!.orderId as string;
    expect(await orderRow(orderId)).toMatchObject({
      customer_name: 'Lucy Recipient',
      customer_email: 'nonna@example.com',
      is_gift: true,
      gift_message: 'Happy First Communion, Lucy!\nLove, Nonna',
      gift_hide_prices: true,
      reminder_consent_at: null,
    });

    expect((await testPage(body!.url as string, 'pay')).status).toBe(303);
    const confirmation = (await readOutbox(outbox)).find((e) => e.idempotencyKey === `order-confirmation-${orderId}`);
    expect(confirmation?.to).toBe('nonna@example.com');
    expect(confirmation?.text).toMatch(/^Hello,$/m);
    expect(confirmation?.text).toContain('This order is a gift for Lucy Recipient.');
    expect(confirmation?.text).toContain('  Happy First Communion, Lucy!\n  Love, Nonna');
    expect(confirmation?.text).toContain('Prices are left out of the parcel.');

    const statusPage = await t.post('order-status', { token: (await orderRow(orderId)).status_token });
    expect(statusPage.body?.gift).toEqual({ recipient: 'Lucy Recipient', message: 'Happy First Communion, Lucy!\nLove, Nonna', hidePrices: true });
  });

  it('accepts a message of exactly 200 characters (an emoji is one) and refuses 201, naming the field', async () => {
    expect((await checkout({ gift: { isGift: true, message: '🎁'.repeat(200) } })).status).toBe(200);
    // A family emoji is seven code points and one character: thirty of them are thirty characters.
    expect((await checkout({ gift: { isGift: true, message: '👨‍👩‍👧‍👦'.repeat(30) } })).status).toBe(200);
    expect((await checkout({ gift: { isGift: true, message: '👨‍👩‍👧‍👦'.repeat(201) } })).status).toBe(400);
    const { status, body } = await checkout({ gift: { isGift: true, message: 'x'.repeat(201) } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'gift.message: Please keep the gift message to 200 characters or fewer.', details: [{ path: 'gift.message' }] });
  });

  it.each([
    ['a tab', 'Dear\tLucy'],
    ['a NUL', 'Dear\u0000Lucy'],
    ['an escape code', 'Dear \u001b[31mLucy'],
  ])('refuses a message with %s', async (_what, message) => {
    const { status, body } = await checkout({ gift: { isGift: true, message } });
    expect(status).toBe(400);
    expect(body?.error).toBe('gift.message: The gift message has a character we cannot print (such as a tab or a control code). Please remove it.');
  });

  it('keeps a message with invisible direction marks, without them', async () => {
    const { status, body } = await checkout({ gift: { isGift: true, message: '\u200fDear \u202eLucy\u202c\u2066!\u2069' } });
    expect(status).toBe(200);
    expect((await orderRow(body!.orderId as string)).gift_message).toBe('Dear Lucy!');
  });

  it('refuses more than six lines, and a gift without the recipient’s name', async () => {
    expect((await checkout({ gift: { isGift: true, message: 'a\nb\nc\nd\ne\nf\ng' } })).body?.error).toBe('gift.message: Please keep the gift message to 6 lines or fewer.');
    const unnamed = await t.post('create-checkout', {
      cartItems: [{ id: 'gift-book', quantity: 1 }],
      shippingDetails: { ...address, fullName: ' ' },
      customerEmail: 'x@example.com',
      gift: { isGift: true },
    });
    expect(unnamed).toMatchObject({ status: 400, body: { details: [{ path: 'shippingDetails.fullName', message: "Please enter the recipient's full name for the parcel's label." }] } });
  });

  it('drops the gift details of an order that is not a gift', async () => {
    const { body } = await checkout({ gift: { isGift: false, message: 'Ignored', hidePrices: true } });
    expect(await orderRow(body!.orderId as string)).toMatchObject({ is_gift: false, gift_message: null, gift_hide_prices: false });
  });
});

describe('one reminder for a payment left unpaid', () => {
  it('a shopper who agreed gets one reminder when they leave the TEST payment page, and its link gives the books back', async () => {
    const before = Date.now();
    const { body } = await checkout({ reminderConsent: true });
    const orderId = body!.orderId as string;
    const consentAt = Date.parse((await orderRow(orderId)).reminder_consent_at as string);
    expect(consentAt).toBeGreaterThanOrEqual(before - 1000);

    expect((await testPage(body!.url as string, 'cancel')).status).toBe(303);
    expect((await testPage(body!.url as string, 'cancel')).status).toBe(303);
    const reminders = await remindersFor(orderId);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text).toContain('Gift Book × 2');
    const link = reminders[0]!.text.match(/(http\S+\/cart\?restore=([0-9a-f]{64}))/);
    expect(link?.[1]).toBe(`${t.url}/cart?restore=${link?.[2]}`);

    // Today's price, not the order's.
    await t.service().from('products').update({ price: 13 }).eq('id', 'gift-book');
    const restored = await t.post('restore-cart', { token: link![2] });
    expect(restored).toMatchObject({ status: 200, body: { missing: 0, lines: [{ product: { id: 'gift-book', title: 'Gift Book', price: 13 }, quantity: 2 }] } });
    // Sold out since: left out, and counted so the page can say so.
    await t.service().from('products').update({ stock: 0 }).eq('id', 'gift-book');
    expect((await t.post('restore-cart', { token: link![2] })).body).toEqual({ lines: [], missing: 1 });
    await t.service().from('products').update({ stock: 50 }).eq('id', 'gift-book');
    expect((await t.post('restore-cart', { token: 'f'.repeat(64) })).status).toBe(404);
    expect((await t.post('restore-cart', { token: 'not-a-token' })).status).toBe(400);
  });

  it('a shopper who did not agree gets none', async () => {
    const { body } = await checkout({});
    const orderId = body!.orderId as string;
    expect((await orderRow(orderId)).reminder_consent_at).toBeNull();
    expect((await testPage(body!.url as string, 'cancel')).status).toBe(303);
    expect(await remindersFor(orderId)).toEqual([]);
    expect((await orderRow(orderId)).reminder_sent_at).toBeNull();
  });
});
