/**
 * One cart, one payment, through the functions as the checkout calls them (the local TEST payments): a second
 * Proceed of the same cart gets the same payment page and no second order; a changed cart closes the older page
 * (which then refuses payment) and cancels its order before the new one is made; and a second payment that still
 * arrives for one cart is refunded through the provider, with the shopper and the publisher told.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cartKey, closeOtherPages, reusablePage } from '../../functions/_lib/cart-checkout';
import { CheckoutRejection } from '../../functions/_lib/checkout';
import { fulfilOrder, type FulfilmentServices } from '../../functions/_lib/fulfilment';
import type { EmailMessage } from '../../functions/_lib/providers/email';
import type { PaymentProvider, PaymentSession } from '../../functions/_lib/providers/payments';
import { NO_GIFT } from '../../src/features/checkout/gift';
import { startTestShop, type TestShop } from '../helpers/shop';

let t: TestShop;
beforeAll(async () => {
  t = await startTestShop();
  await t.service().from('products').insert({ id: 'cart-title', title: 'Cart Title', price: 20, stock: 50 });
});
afterAll(() => t.close());

const address = { fullName: 'Cart Shopper', addressLine1: '1 Church St', city: 'Parramatta', state: 'NSW', postalCode: '2150', country: 'AU', shippingMethod: { id: 'au-standard' } };

async function proceed(cartId: string | undefined, quantity = 1, overrides: Record<string, unknown> = {}) {
  const response = await fetch(`${t.url}/api/create-checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartItems: [{ id: 'cart-title', quantity }], shippingDetails: address, customerEmail: 'cart@example.com', ...(cartId && { cartId }), ...overrides }),
  });
  return { status: response.status, body: (await response.json()) as { url: string; sessionId: string; orderId: string; reused?: boolean; error?: string } };
}

const ordersOfCart = async (cartId: string) => (await t.service().from('orders').select('id, payment_status, status, replaced_at, checkout_url').eq('cart_id', cartId).order('created_at')).data ?? [];

/** Presses Pay (or Cancel) on the TEST payment page behind `url`. */
async function pressOnPage(url: string, action: 'pay' | 'cancel' = 'pay') {
  const page = new URL(url);
  const form = new URLSearchParams({ session: page.searchParams.get('session')!, success: page.searchParams.get('success')!, cancel: page.searchParams.get('cancel')!, action });
  const response = await fetch(page.origin + page.pathname, { method: 'POST', body: form, redirect: 'manual' });
  return { status: response.status, text: await response.text() };
}

describe('a second Proceed for one cart', () => {
  it('with the same cart, address and delivery: the same payment page, and no second order', async () => {
    const first = await proceed('cart-same-0001');
    const second = await proceed('cart-same-0001');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ url: first.body.url, sessionId: first.body.sessionId, orderId: first.body.orderId, reused: true });
    expect(await ordersOfCart('cart-same-0001')).toHaveLength(1);
    expect((await ordersOfCart('cart-same-0001'))[0]!.checkout_url).toBe(first.body.url);
  });

  it('after a change (quantity, address, delivery): the older page is closed, its order cancelled, and only the new page takes the payment', async () => {
    const first = await proceed('cart-change-01');
    const changed = await proceed('cart-change-01', 2);
    expect(changed.status).toBe(200);
    expect(changed.body.url).not.toBe(first.body.url);
    const orders = await ordersOfCart('cart-change-01');
    expect(orders.map((o) => `${o.payment_status}/${o.status}/${o.replaced_at ? 'replaced' : '-'}`)).toEqual(['expired/cancelled/replaced', 'unpaid/pending/-']);

    // The older TEST page refuses the payment, as Stripe's expired page does.
    const old = await pressOnPage(first.body.url);
    expect(old.status).toBe(410);
    expect(old.text).toContain('This payment page has closed');
    expect((await fetch(first.body.url)).status).toBe(410);
    // The new one takes it: one paid order for the cart.
    expect((await pressOnPage(changed.body.url)).status).toBe(303);
    expect((await ordersOfCart('cart-change-01')).map((o) => o.payment_status)).toEqual(['expired', 'paid']);

    // A changed address and delivery close the page too.
    const a = await proceed('cart-change-02');
    const b = await proceed('cart-change-02', 1, { shippingDetails: { ...address, shippingMethod: { id: 'au-express' } } });
    const c = await proceed('cart-change-02', 1, { shippingDetails: { ...address, postalCode: '2000', city: 'Sydney', state: 'NSW' } });
    expect(new Set([a.body.url, b.body.url, c.body.url]).size).toBe(3);
    expect((await ordersOfCart('cart-change-02')).map((o) => o.payment_status)).toEqual(['expired', 'expired', 'unpaid']);
  });

  it('a page whose order was left unpaid and then cancelled on the page is not given back', async () => {
    const first = await proceed('cart-cancel-01');
    expect((await pressOnPage(first.body.url, 'cancel')).status).toBe(303);
    const again = await proceed('cart-cancel-01');
    expect(again.body.url).not.toBe(first.body.url);
    expect(again.body.reused).toBeUndefined();
  });

  it('a change on the checkout page while its page is open closes the page at once (/api/checkout-changed); nothing open is fine', async () => {
    const changed = (cartId: string) => fetch(`${t.url}/api/checkout-changed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cartId }) });
    const first = await proceed('cart-changed-01');
    const answer = await changed('cart-changed-01');
    expect(await answer.json()).toEqual({ closed: 1 });
    expect((await ordersOfCart('cart-changed-01')).map((o) => o.payment_status)).toEqual(['expired']);
    expect((await pressOnPage(first.body.url)).status).toBe(410);
    expect(await (await changed('cart-changed-01')).json()).toEqual({ closed: 0 });
    const bad = await changed('bad id!');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('cartId');
  });

  it('a cart id of the wrong shape is a 400 with a message', async () => {
    const { status, body } = await proceed('bad id!');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('cartId');
  });

  it('without a cart id (an older page), each Proceed is its own order, as before', async () => {
    const a = await proceed(undefined);
    const b = await proceed(undefined);
    expect(a.body.orderId).not.toBe(b.body.orderId);
  });
});

describe('closing the cart’s other pages', () => {
  const OLD = '00000000-0000-4000-8000-0000000000e1';
  const open = [{ id: OLD, cartKey: 'k1', sessionId: 'cs_old', url: 'https://pay/old', expiresAt: null }];
  const provider = (status: PaymentSession['status'] | Error) =>
    ({
      expireSession: vi.fn(async (id: string) => {
        if (status instanceof Error) throw status;
        return { id, status, paymentStatus: status === 'complete' ? 'paid' : 'unpaid', amountTotalCents: null, currency: null, payerName: null };
      }),
    }) as unknown as PaymentProvider & { expireSession: ReturnType<typeof vi.fn> };

  it('a page paid before it could be closed: nothing more is opened for the cart (409)', async () => {
    const payments = provider('complete');
    await expect(closeOtherPages(t.service(), payments, open)).rejects.toMatchObject({ status: 409, message: expect.stringContaining('has just been paid') });
    expect(payments.expireSession).toHaveBeenCalledWith('cs_old');
  });

  it('a provider that cannot close the page: no new order either (503, with what to do)', async () => {
    await expect(closeOtherPages(t.service(), provider(new Error('Stripe is down')), open)).rejects.toBeInstanceOf(CheckoutRejection);
    await expect(closeOtherPages(t.service(), provider(new Error('Stripe is down')), open)).rejects.toMatchObject({ status: 503 });
  });

  it('the page kept is never closed', async () => {
    const payments = provider('expired');
    await closeOtherPages(t.service(), payments, open, OLD);
    expect(payments.expireSession).not.toHaveBeenCalled();
  });

  it('reuses only a page of the same key with time left', () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    const pages = [{ id: 'o1', cartKey: 'k', sessionId: 'cs1', url: 'u1', expiresAt: '2026-11-26T00:02:00Z' }];
    expect(reusablePage(pages, 'k', now)).toBeNull();
    expect(reusablePage([{ ...pages[0]!, expiresAt: '2026-11-26T01:00:00Z' }], 'k', now)?.url).toBe('u1');
    expect(reusablePage([{ ...pages[0]!, expiresAt: '2026-11-26T01:00:00Z' }], 'other', now)).toBeNull();
  });

  it('the key follows every priced line, the address, the delivery, the code, the email and the gift', () => {
    const base = {
      lines: [{ productId: 'a', quantity: 1, unitPrice: 20 }],
      email: 'A@example.com',
      address: { addressLine1: '1 St', city: 'X', postalCode: '2000', country: 'AU' },
      fullName: 'A',
      method: { id: 'au-standard', price: 15 },
      promotionCode: null,
      discount: 0,
      gift: NO_GIFT,
      reminderConsent: false,
    };
    const key = cartKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(cartKey({ ...base, email: 'a@example.com ' })).toBe(key);
    for (const changed of [
      { lines: [{ productId: 'a', quantity: 2, unitPrice: 20 }] },
      { lines: [{ productId: 'a', quantity: 1, unitPrice: 19 }] },
      { address: { ...base.address, postalCode: '2150' } },
      { method: { id: 'au-express', price: 15 } },
      { promotionCode: 'PARISH10', discount: 2 },
      { email: 'b@example.com' },
      { gift: { isGift: true, message: 'Hi', hidePrices: false } },
    ]) {
      expect(cartKey({ ...base, ...changed })).not.toBe(key);
    }
  });
});

describe('a second payment for one cart', () => {
  it('is refunded in full through the provider, and the shopper and the publisher are told, once', async () => {
    // Two pages of one cart, both open and both paid: the provider's answers crossed (a race no check can close).
    const first = await proceed('cart-paid-twice');
    const db = t.service();
    await db.from('orders').update({ status: 'cancelled', payment_status: 'expired' }).eq('id', first.body.orderId);
    const second = await proceed('cart-paid-twice', 3);
    await db.from('orders').update({ status: 'pending', payment_status: 'unpaid' }).eq('id', first.body.orderId);

    const sent: EmailMessage[] = [];
    const refundSession = vi.fn(async () => ({ id: 're_second_1', status: 'succeeded' as const }));
    const services = {
      email: { name: 'recording', send: async (message: EmailMessage) => void sent.push(message) },
      payments: { refundSession },
      siteOrigin: 'https://shop.example',
      notifyTo: 'publisher@example.com.au',
    } as unknown as FulfilmentServices;

    const { data: before } = await db.from('products').select('stock').eq('id', 'cart-title').single();
    expect(await fulfilOrder(db, services, second.body.orderId)).toBe('fulfilled');
    expect(await fulfilOrder(db, services, first.body.orderId)).toBe('duplicate');
    // Again (the webhook redelivered, the confirmation page): nothing twice.
    expect(await fulfilOrder(db, services, first.body.orderId)).toBe('duplicate');

    expect(refundSession).toHaveBeenCalledTimes(1);
    expect(refundSession).toHaveBeenCalledWith(first.body.sessionId, expect.objectContaining({ orderId: first.body.orderId, idempotencyKey: `order-refund-${first.body.orderId}` }));
    const { data: refunded } = await db.from('orders').select('payment_status, refund_id, duplicate_of').eq('id', first.body.orderId).single();
    expect(refunded).toEqual({ payment_status: 'refund_due', refund_id: 're_second_1', duplicate_of: second.body.orderId });
    const { data: after } = await db.from('products').select('stock').eq('id', 'cart-title').single();
    expect(after!.stock).toBe(before!.stock - 3);

    const toShopper = sent.filter((m) => m.to === 'cart@example.com');
    const toPublisher = sent.filter((m) => m.to === 'publisher@example.com.au');
    expect(toShopper.map((m) => m.subject)).toEqual([expect.stringMatching(/is confirmed$/), 'Your second payment for the same cart has been refunded']);
    expect(toShopper[1]!.text).toContain('We have refunded the full $35.00 AUD');
    expect(toPublisher.map((m) => m.subject)).toEqual([expect.stringMatching(/^New order/), expect.stringMatching(/^Second payment refunded: order \w+ \(\$35\.00 AUD\)$/)]);
    expect(toPublisher[1]!.text).toContain(`/admin#order/${second.body.orderId}`);

    // The confirmation page of the second payment says what became of it (not "sold out").
    const verified = await fetch(`${t.url}/api/verify-payment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: first.body.sessionId }) });
    expect(await verified.json()).toMatchObject({ paymentStatus: 'duplicate' });
  });
});
