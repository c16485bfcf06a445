/**
 * Stripe's `checkout.session.expired` event through the webhook: the unpaid order is cancelled, and a shopper
 * who agreed at checkout gets exactly one reminder whose link brings their books back; the same event replayed,
 * or another event for the same session, sends none, nor does a second abandoned checkout from the same address
 * within the quiet period; a shopper who did not agree gets none; a failed delayed
 * payment (the shopper did pay, the bank refused) is no abandoned checkout and sends none.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { insertOrder } from '../helpers/insert-order';
import { orderRow } from '../helpers/order-row';
import { useTestShop } from '../helpers/shop';

const WEBHOOK_SECRET = 'whsec_test_reminder_secret';
const outbox = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'outbox.jsonl');
// Expired sessions need no call to Stripe: its API is pointed at a port nothing listens on, so none leaves the machine.
const t = useTestShop({ env: { STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE_URL: 'http://127.0.0.1:9', LOCAL_OUTBOX_FILE: outbox } });

async function unpaidOrder(sessionId: string, consent: boolean, email = `${sessionId}@example.com`): Promise<string> {
  return insertOrder(t.service(), orderRow(email, { subtotal: 44, checkout_session_id: sessionId, reminder_consent_at: consent ? new Date().toISOString() : null }), [
    { product_id: 'book-10-reasons', title: '10 Reasons', quantity: 2, price_at_time: 22 },
  ]);
}

const sessionEvent = (eventId: string, sessionId: string, type: string) =>
  JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    data: { object: { id: sessionId, object: 'checkout.session', status: 'expired', payment_status: 'unpaid', amount_total: 5900, currency: 'aud' } },
  });

async function sendWebhook(payload: string): Promise<number> {
  const header = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
  return (await fetch(`${t.url}/api/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': header, 'content-type': 'application/json' }, body: payload })).status;
}

const remindersFor = async (orderId: string) => (await readOutbox(outbox)).filter((e) => e.idempotencyKey === `checkout-reminder-${orderId}`);
const status = async (orderId: string) => (await t.service().from('orders').select('status, payment_status').eq('id', orderId).single()).data;

describe('an expired Stripe session', () => {
  it('cancels the order and sends a consenting shopper one reminder; a replay and a second event send none', async () => {
    const orderId = await unpaidOrder('cs_test_reminder_consent', true);
    const payload = sessionEvent('evt_reminder_1', 'cs_test_reminder_consent', 'checkout.session.expired');
    expect(await sendWebhook(payload)).toBe(200);
    expect(await status(orderId)).toEqual({ status: 'cancelled', payment_status: 'expired' });
    expect(await sendWebhook(payload)).toBe(200);
    expect(await sendWebhook(sessionEvent('evt_reminder_2', 'cs_test_reminder_consent', 'checkout.session.expired'))).toBe(200);

    const reminders = await remindersFor(orderId);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ to: 'cs_test_reminder_consent@example.com', subject: 'Your books are still waiting at Awesome Catholic Kids' });
    const token = reminders[0]!.text.match(/\/cart\?restore=([0-9a-f]{64})/)?.[1];
    const restored = await fetch(`${t.url}/api/restore-cart`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(await restored.json()).toMatchObject({ missing: 0, lines: [{ product: { id: 'book-10-reasons' }, quantity: 2 }] });
  });

  it('the reminder carries a one-click unsubscribe; an address that unsubscribed from any marketing email is never reminded', async () => {
    const orderId = await unpaidOrder('cs_test_reminder_unsubscribe', true, 'leaver@example.com');
    expect(await sendWebhook(sessionEvent('evt_reminder_unsubscribe', 'cs_test_reminder_unsubscribe', 'checkout.session.expired'))).toBe(200);
    const [reminder] = await remindersFor(orderId);
    expect(reminder!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    const oneClick = reminder!.headers!['List-Unsubscribe']!.slice(1, -1);
    const pageToken = reminder!.text.match(/\/newsletter\/unsubscribe#([\w.-]+)/)?.[1];
    expect(oneClick).toBe(`${t.url}/api/newsletter-unsubscribe?token=${encodeURIComponent(pageToken!)}`);
    const response = await fetch(oneClick, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
    expect(await response.json()).toEqual({ message: 'You have been unsubscribed. We will send you no more checkout reminders or review requests.' });

    // A month on, another abandoned checkout: no reminder, as for a reader who left the newsletter.
    await t.shop.backend!.db.exec(`update public.orders set reminder_sent_at = now() - interval '40 days' where id = '${orderId}'`);
    const later = await unpaidOrder('cs_test_reminder_after_unsubscribe', true, 'Leaver@Example.com');
    expect(await sendWebhook(sessionEvent('evt_reminder_after_unsubscribe', 'cs_test_reminder_after_unsubscribe', 'checkout.session.expired'))).toBe(200);
    expect(await status(later)).toEqual({ status: 'cancelled', payment_status: 'expired' });
    expect(await remindersFor(later)).toEqual([]);

    await t.service().from('newsletter_subscriptions').insert({ email: 'reader-left@example.com', unsubscribed_at: new Date().toISOString() });
    await t.shop.backend!.db.exec(`insert into public.marketing_opt_outs (email, via) values ('reader-left@example.com', 'newsletter')`);
    const reader = await unpaidOrder('cs_test_reminder_reader_left', true, 'reader-left@example.com');
    expect(await sendWebhook(sessionEvent('evt_reminder_reader_left', 'cs_test_reminder_reader_left', 'checkout.session.expired'))).toBe(200);
    expect(await remindersFor(reader)).toEqual([]);
  });

  it('a shopper who leaves the payment page again after a reminder hears nothing more', async () => {
    const first = await unpaidOrder('cs_test_reminder_monday', true, 'twice@example.com');
    expect(await sendWebhook(sessionEvent('evt_reminder_monday', 'cs_test_reminder_monday', 'checkout.session.expired'))).toBe(200);
    expect(await remindersFor(first)).toHaveLength(1);
    const second = await unpaidOrder('cs_test_reminder_thursday', true, 'Twice@Example.com');
    expect(await sendWebhook(sessionEvent('evt_reminder_thursday', 'cs_test_reminder_thursday', 'checkout.session.expired'))).toBe(200);
    expect(await status(second)).toEqual({ status: 'cancelled', payment_status: 'expired' });
    expect(await remindersFor(second)).toEqual([]);
  });

  it('sends nothing to a shopper who did not agree', async () => {
    const orderId = await unpaidOrder('cs_test_reminder_none', false);
    expect(await sendWebhook(sessionEvent('evt_reminder_none', 'cs_test_reminder_none', 'checkout.session.expired'))).toBe(200);
    expect(await status(orderId)).toEqual({ status: 'cancelled', payment_status: 'expired' });
    expect(await remindersFor(orderId)).toEqual([]);
  });

  it('a failed delayed payment cancels the order without a reminder', async () => {
    const orderId = await unpaidOrder('cs_test_reminder_failed', true);
    expect(await sendWebhook(sessionEvent('evt_reminder_failed', 'cs_test_reminder_failed', 'checkout.session.async_payment_failed'))).toBe(200);
    expect((await status(orderId))?.status).toBe('cancelled');
    expect(await remindersFor(orderId)).toEqual([]);
  });
});
