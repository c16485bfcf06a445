/**
 * /api/send-notification behind Turnstile: fake siteverify servers answer as Cloudflare's documented dummy secret
 * keys do (tests/helpers/send-notification.ts), and "Email me when it's available" is taken only for a book that
 * cannot be bought.
 */
import { describe, expect, it } from 'vitest';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import {
  CONTACT,
  FAIL_SECRET,
  LIVE_SECRET,
  NEWSLETTER,
  outbox,
  PASS_SECRET,
  post,
  SPENT_SECRET,
  shop,
  siteverifyCalls,
  stored,
  turnstileNeverAnswers,
  useSendNotification,
} from '../helpers/send-notification';

useSendNotification();

/** `body` posted with no token, an empty one and a blank one: each refused, 403 Verification failed. */
async function refusedWithoutToken(body: Record<string, unknown>) {
  for (const sent of [body, { ...body, turnstileToken: '' }, { ...body, turnstileToken: '   ' }]) {
    const response = await post(sent);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Verification failed' });
  }
}

describe('send-notification with Turnstile (documented dummy secret keys)', () => {
  it.each([
    ['1x… (always passes)', 200, PASS_SECRET],
    ['2x… (always fails)', 403, FAIL_SECRET],
    ['3x… (token already spent)', 403, SPENT_SECRET],
  ])('contact with secret %s answers %i', async (_name, status, secret) => {
    process.env.TURNSTILE_SECRET_KEY = secret;
    const response = await post({ ...CONTACT, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(response.status).toBe(status);
    expect(siteverifyCalls).toHaveLength(1);
    expect(siteverifyCalls[0]).toMatchObject({ secret, response: 'XXXX.DUMMY.TOKEN.XXXX' });
    if (status === 403) {
      expect(await response.json()).toEqual({ error: 'Verification failed' });
      expect(await readOutbox(outbox)).toEqual([]);
      expect(await stored('contact_submissions')).toEqual([]);
    } else {
      expect((await readOutbox(outbox))[0]?.subject).toBe('Contact form: Parish order');
      expect(await stored('contact_submissions')).toHaveLength(1);
    }
  });

  it('blocks a contact message without a token, without asking Cloudflare or storing it', async () => {
    process.env.TURNSTILE_SECRET_KEY = PASS_SECRET;
    await refusedWithoutToken(CONTACT);
    expect(siteverifyCalls).toEqual([]);
    expect(await readOutbox(outbox)).toEqual([]);
    expect(await stored('contact_submissions')).toEqual([]);
  });

  it('a newsletter sign-up with a passing token is stored as pending and sent its confirmation', async () => {
    process.env.TURNSTILE_SECRET_KEY = PASS_SECRET;
    expect((await post({ ...NEWSLETTER, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' })).status).toBe(200);
    expect(await stored('newsletter_subscriptions')).toHaveLength(1);
    expect((await readOutbox(outbox)).map((m) => m.to)).toEqual(['parent@example.com.au']);
  });

  it.each([
    ['newsletter', NEWSLETTER],
    ['back_in_stock', { type: 'back_in_stock', data: { email: 'waiting@example.com', productId: 'book-10-reasons' } }],
  ])('a %s sign-up without a token is refused when the bot-check is on, without asking Cloudflare, storing or emailing anything', async (type, body) => {
    process.env.TURNSTILE_SECRET_KEY = PASS_SECRET;
    await refusedWithoutToken(body);
    expect(siteverifyCalls).toEqual([]);
    expect(await stored('newsletter_subscriptions')).toEqual([]);
    expect((await shop.service().from('back_in_stock_requests').select('email').eq('email', 'waiting@example.com')).data).toEqual([]);
    expect(await readOutbox(outbox)).toEqual([]);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining(`${type}: bot-check failed (missing-input-response); nothing stored or sent`));
  });

  it.each([
    ['a failing token', FAIL_SECRET, 'invalid-input-response'],
    ['a spent token', SPENT_SECRET, 'timeout-or-duplicate'],
  ])('a newsletter sign-up with %s is refused as the contact form refuses it, storing and emailing nothing', async (_name, secret, reason) => {
    process.env.TURNSTILE_SECRET_KEY = secret;
    const response = await post({ ...NEWSLETTER, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Verification failed' });
    expect(siteverifyCalls).toHaveLength(1);
    expect(await stored('newsletter_subscriptions')).toEqual([]);
    expect(await readOutbox(outbox)).toEqual([]);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining(`newsletter: bot-check failed (${reason}); nothing stored or sent`));
  });

  it('checks the token was minted for this form (action) on this site (hostname without the port)', async () => {
    process.env.TURNSTILE_SECRET_KEY = LIVE_SECRET;
    const contact = (token: string) => post({ ...CONTACT, turnstileToken: token }, { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' } });

    expect((await contact('ok:contact_form:shop.example')).status).toBe(200);
    expect(siteverifyCalls[0]?.remoteip).toBe('203.0.113.7');
    expect((await contact('ok:newsletter_subscribe:shop.example')).status).toBe(403);
    expect((await contact('ok:contact_form:elsewhere.example')).status).toBe(403);
    expect((await post({ ...NEWSLETTER, turnstileToken: 'ok:newsletter_subscribe:shop.example' })).status).toBe(200);
    // A newsletter token minted for the contact form (or another site) is refused too.
    expect((await post({ ...NEWSLETTER, data: { email: 'other@example.com' }, turnstileToken: 'ok:contact_form:shop.example' })).status).toBe(403);
    expect((await readOutbox(outbox)).map((m) => m.subject)).toEqual(['Contact form: Parish order', 'Please confirm your subscription to the Awesome Catholic Kids newsletter']);
  });

  it('treats a siteverify that never answers as not verified: contact and newsletter both 403, nothing stored or sent', async () => {
    process.env.TURNSTILE_SECRET_KEY = PASS_SECRET;
    turnstileNeverAnswers();
    const started = Date.now();
    const [contact, newsletter] = await Promise.all([post({ ...CONTACT, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' }), post({ ...NEWSLETTER, turnstileToken: 'XXXX.DUMMY.TOKEN.XXXX' })]);
    expect(Date.now() - started).toBeLessThan(15_000);
    for (const response of [contact, newsletter]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Verification failed' });
    }
    expect(await readOutbox(outbox)).toEqual([]);
  }, 20_000);
});

describe('"Email me when it\'s available" only for a book that cannot be bought', () => {
  const ask = (productId: string, email = 'waiting@example.com') => post({ type: 'back_in_stock', data: { email, productId } });

  it('refuses a book in stock with a message a person understands, storing and emailing nothing', async () => {
    const { data } = await shop.service().from('products').select('stock, for_sale').eq('id', 'book-10-reasons').single();
    expect(data).toMatchObject({ for_sale: true });
    expect((data as { stock: number }).stock).toBeGreaterThan(0);
    const response = await ask('book-10-reasons');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'This book is in stock: you can order it now, so there is no list to wait on.' });
    expect((await shop.service().from('back_in_stock_requests').select('email').eq('product_id', 'book-10-reasons')).data).toEqual([]);
    expect(await readOutbox(outbox)).toEqual([]);
    expect(await (await ask('no-such-book')).json()).toEqual({ error: 'We could not find that book in the shop.' });
  });

  it('a sold-out book: the address is sent one confirmation, and is on the list only once confirmed', async () => {
    await shop.shop.backend!.db.exec(`insert into public.products (id, title, price, stock) values ('sold-out-notify', 'Sold Out Book', 20, 0) on conflict (id) do update set stock = 0`);
    expect((await ask('sold-out-notify')).status).toBe(200);
    const [mail, ...rest] = await readOutbox(outbox);
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ to: 'waiting@example.com', subject: 'Please confirm: email me when Sold Out Book is available' });
    const { data } = await shop.service().from('back_in_stock_requests').select('confirmed_at').eq('product_id', 'sold-out-notify');
    expect(data).toEqual([{ confirmed_at: null }]);
  });
});
