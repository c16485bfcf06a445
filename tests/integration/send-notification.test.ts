/**
 * /api/send-notification, called as a module with real Request objects, storing rows in an embedded backend (read
 * back with the service role; set-up in tests/helpers/send-notification.ts): where it is mounted, and sign-ups and
 * contact messages without a bot-check, with what they store and email. The bot-check and the book waiting lists:
 * send-notification-bot-check.test.ts; bad requests and fuzz: send-notification-requests.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { config } from '../../functions/send-notification';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { SITE } from '@/config/site';
import { CONTACT, NEWSLETTER, outbox, post, realFetch, shop, siteverifyCalls, stored, tempDir, useSendNotification } from '../helpers/send-notification';

useSendNotification();

describe('send-notification: the function', () => {
  it('is mounted at /api/send-notification for POST with a rate limit of 10 a minute per ip and domain', () => {
    expect(config).toEqual({ path: '/api/send-notification', method: ['POST'], rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] } });
  });
});

describe('send-notification without a bot-check (embedded mode)', () => {
  it('a newsletter sign-up stores a pending request with no consent, and emails the address one confirmation link (the publisher nothing)', async () => {
    const response = await post({ ...NEWSLETTER, data: { ...NEWSLETTER.data, page: '/blog' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const [row, ...others] = await stored('newsletter_subscriptions');
    expect(others).toEqual([]);
    expect(row).toMatchObject({ email: 'parent@example.com.au', status: 'pending', consent_at: null, consent_source: null, consent_page: null, confirmation_page: '/blog' });
    const [mail, ...rest] = await readOutbox(outbox);
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ provider: 'local-outbox', to: 'parent@example.com.au', subject: 'Please confirm your subscription to the Awesome Catholic Kids newsletter' });
    expect(mail?.text).toMatch(/http:\/\/shop\.example:8888\/newsletter\/confirm#nc\.[\w.-]+/);
    expect(mail?.text).toMatch(/This wasn't me: http:\/\/shop\.example:8888\/newsletter\/confirm\?answer=decline#nc\./);
    // The shop and its postal address.
    expect(mail?.text).toContain(`${SITE.publisher}, Sydney NSW, Australia (local shop: SHOP_POSTAL_ADDRESS is not set)`);
    expect(siteverifyCalls).toEqual([]);
  });

  it('sends a pending address at most one more confirmation a day; a confirmed one is answered as a new one, and told in its inbox', async () => {
    expect((await post(NEWSLETTER)).status).toBe(200);
    // The same sign-up again the same day: the same answer, and no second email.
    expect((await post({ ...NEWSLETTER, data: { email: 'Parent@EXAMPLE.com.au' } })).status).toBe(200);
    expect(await readOutbox(outbox)).toHaveLength(1);
    // A day on, one more.
    await shop.shop.backend!.db.exec(`update public.newsletter_subscriptions set confirmation_sent_at = now() - interval '25 hours'`);
    expect((await post(NEWSLETTER)).status).toBe(200);
    expect(await readOutbox(outbox)).toHaveLength(2);
    const [row] = await stored('newsletter_subscriptions');
    expect((await shop.service().rpc('newsletter_confirm', { p_subscription_id: row!.id, p_source: 'test', p_issued_at: new Date().toISOString() })).data).toBe('confirmed');
    // The confirmed address and a new one get the same answer, status and body.
    const answer = async (email: string) => {
      const response = await post({ ...NEWSLETTER, data: { email } });
      return { status: response.status, body: await response.text() };
    };
    const confirmed = await answer('Parent@EXAMPLE.com.au');
    const newcomer = await answer('newcomer@example.com.au');
    expect(confirmed).toEqual(newcomer);
    expect(confirmed).toEqual({ status: 200, body: JSON.stringify({ ok: true }) });
    expect(await stored('newsletter_subscriptions')).toHaveLength(2);
    // What differs goes to each inbox: the reader is told they are already subscribed, with the way out; the newcomer gets a link.
    const mails = await readOutbox(outbox);
    expect(mails.slice(2).map((m) => [m.to, m.subject])).toEqual([
      ['Parent@EXAMPLE.com.au', "You're already subscribed to the Awesome Catholic Kids newsletter"],
      ['newcomer@example.com.au', 'Please confirm your subscription to the Awesome Catholic Kids newsletter'],
    ]);
    expect(mails[2]?.text).toContain("You're already subscribed, so nothing has changed");
    expect(mails[2]?.text).toMatch(/unsubscribe with one click: http:\/\/shop\.example:8888\/newsletter\/unsubscribe#/);
    // At most one such note a day.
    expect(await answer('parent@example.com.au')).toEqual(newcomer);
    expect(await readOutbox(outbox)).toHaveLength(4);
  });

  it('a stranger cannot undo an unsubscribe: the unsubscribed address only gets a confirmation email, and stays unsubscribed', async () => {
    await shop.service().from('newsletter_subscriptions').insert({ email: NEWSLETTER.data.email, consent_source: 'Website sign-up form', unsubscribed_at: new Date().toISOString() });
    const response = await post(NEWSLETTER);
    expect(response.status).toBe(200);
    const [row] = await stored('newsletter_subscriptions');
    expect(row).toMatchObject({ status: 'unsubscribed', unsubscribed_at: expect.any(String) });
    expect((await readOutbox(outbox)).map((m) => m.subject)).toEqual(['Please confirm your subscription to the Awesome Catholic Kids newsletter']);
  });

  it('stores the message and emails a contact notification with every field to NOTIFY_EMAIL_TO, replies going to the visitor', async () => {
    process.env.NOTIFY_EMAIL_TO = 'publisher@example.com.au';
    const response = await post(CONTACT);
    expect(response.status).toBe(200);
    expect(await stored('contact_submissions')).toEqual([expect.objectContaining(CONTACT.data)]);
    const [mail] = await readOutbox(outbox);
    expect(mail?.to).toBe('publisher@example.com.au');
    expect(mail?.replyTo).toBe('maria@example.com.au');
    expect(mail?.subject).toBe('Contact form: Parish order');
    for (const part of ['Name: Maria Rossi', 'Email: maria@example.com.au', 'Subject: Parish order', 'Could we order 30 copies\nfor our parish school?']) {
      expect(mail?.text).toContain(part);
    }
  });

  it('trims the fields and keeps line breaks and NUL out of what is stored and emailed', async () => {
    const response = await post({ ...CONTACT, data: { ...CONTACT.data, name: '  Maria  ', subject: 'Line one\r\nBcc: someone@evil.example', message: 'Hello\u0000 there\r\nBye' } });
    expect(response.status).toBe(200);
    expect((await stored('contact_submissions'))[0]).toMatchObject({ name: 'Maria', subject: 'Line one Bcc: someone@evil.example', message: 'Hello there\nBye' });
    const [mail] = await readOutbox(outbox);
    expect(mail?.subject).toBe('Contact form: Line one Bcc: someone@evil.example');
    expect(mail?.text).toContain('Name: Maria\n');
  });

  it('falls back to EMAIL_FROM as the recipient when NOTIFY_EMAIL_TO is unset', async () => {
    process.env.EMAIL_FROM = 'shop@example.com.au'; // without RESEND_API_KEY the outbox is still used
    expect((await post(CONTACT)).status).toBe(200);
    expect((await readOutbox(outbox))[0]?.to).toBe('shop@example.com.au');
  });

  it('sends through Resend when RESEND_API_KEY and EMAIL_FROM are set', async () => {
    process.env.RESEND_API_KEY = 're_test_key';
    process.env.EMAIL_FROM = 'Shop <shop@example.com.au>';
    process.env.NOTIFY_EMAIL_TO = 'publisher@example.com.au';
    const sent: Array<{ url: string; body: { from: string; to: string[]; subject: string } }> = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).startsWith('https://api.resend.com/')) return realFetch(input, init); // the database
      sent.push({ url: String(input), body: JSON.parse(String(init?.body)) });
      return Response.json({ id: 'email-1' });
    });
    expect((await post(CONTACT)).status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('https://api.resend.com/emails');
    expect(sent[0]?.body).toMatchObject({ from: 'Shop <shop@example.com.au>', to: ['publisher@example.com.au'], subject: 'Contact form: Parish order' });
    expect(await readOutbox(outbox)).toEqual([]);
  });

  it('answers 200 once a contact message is stored even when the email provider fails; a sign-up whose confirmation cannot be sent is taken back (502)', async () => {
    const notAFolder = join(tempDir, 'plain-file');
    await writeFile(notAFolder, 'x');
    process.env.LOCAL_OUTBOX_FILE = join(notAFolder, 'outbox.jsonl');
    expect((await post(CONTACT)).status).toBe(200);
    expect(await stored('contact_submissions')).toHaveLength(1);
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('could not send the contact notification'), expect.anything());
    const response = await post(NEWSLETTER);
    expect(response.status).toBe(502);
    expect(await stored('newsletter_subscriptions')).toEqual([]);
    // The next try sends at once: nothing waits a day for an email that never went.
    process.env.LOCAL_OUTBOX_FILE = outbox;
    expect((await post(NEWSLETTER)).status).toBe(200);
    expect(await readOutbox(outbox)).toHaveLength(1);
  });

  it('answers 502 with a message, and emails nothing, when the row cannot be stored', async () => {
    process.env.SUPABASE_SERVICE_ROLE_KEY = 'not-a-valid-key';
    try {
      const response = await post(CONTACT);
      expect(response.status).toBe(502);
      expect((await response.json()).error).toBe('Your details could not be saved. Please try again later.');
      expect(await readOutbox(outbox)).toEqual([]);
    } finally {
      process.env.SUPABASE_SERVICE_ROLE_KEY = shop.shop.backend!.serviceRoleKey;
    }
  });
});
