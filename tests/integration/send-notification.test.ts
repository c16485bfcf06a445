/**
 * /api/send-notification, called as a module with real Request objects, storing rows in an embedded
 * backend (read back with the service role). The bot-check talks to fake
 * Turnstile siteverify servers on 127.0.0.1 that answer the way Cloudflare's documented dummy secret keys do
 * (1x… passes, 2x… fails, 3x… "timeout-or-duplicate"), plus one that never answers; emails land in the
 * local outbox file.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import handler, { config } from '../../functions/send-notification';
import { MAX_BODY_BYTES } from '../../functions/_lib/http';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { LIMITS } from '@/config/constants';
import { SITE } from '@/config/site';
import { startTestShop, type TestShop } from '../helpers/shop';

const PASS_SECRET = '1x0000000000000000000000000000000AA';
const FAIL_SECRET = '2x0000000000000000000000000000000AA';
const SPENT_SECRET = '3x0000000000000000000000000000000AA';
/** Not a dummy key: the adapter also checks the action and hostname the fake reports (token "ok:<action>:<hostname>"). */
const LIVE_SECRET = '0x4AAAAAAAfakeLiveSecretForTests';
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
const SITE_URL = 'http://shop.example:8888/api/send-notification';

const ENV_KEYS = ['TURNSTILE_SECRET_KEY', 'LOCAL_OUTBOX_FILE', 'RESEND_API_KEY', 'EMAIL_FROM', 'NOTIFY_EMAIL_TO'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}
const siteverifyCalls: SiteverifyCall[] = [];

/** Answers like Cloudflare's siteverify for the dummy secrets, and binds action/hostname for LIVE_SECRET. */
const siteverify = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const form = new URLSearchParams(raw);
    const call = { secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') };
    siteverifyCalls.push(call);
    const ts = new Date().toISOString();
    let body: Record<string, unknown>;
    if (req.url !== '/turnstile/v0/siteverify' || req.method !== 'POST') body = { success: false, 'error-codes': ['bad-request'] };
    else if (call.secret === PASS_SECRET) body = { success: true, challenge_ts: ts, hostname: 'example.com', 'error-codes': [], action: 'test', cdata: '' };
    else if (call.secret === FAIL_SECRET) body = { success: false, 'error-codes': ['invalid-input-response'] };
    else if (call.secret === SPENT_SECRET) body = { success: false, 'error-codes': ['timeout-or-duplicate'] };
    else if (call.secret === LIVE_SECRET && call.response?.startsWith('ok:')) {
      const [, action, hostname] = call.response.split(':');
      body = { success: true, challenge_ts: ts, hostname, action, 'error-codes': [] };
    } else body = { success: false, 'error-codes': ['invalid-input-secret'] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
});

/** Accepts the connection and never answers. */
const silent = createServer(() => {});

let siteverifyOrigin = '';
let silentOrigin = '';
/** Which fake answers for challenges.cloudflare.com in the current test. */
let turnstileTarget = '';
let outbox = '';
let tempDir = '';
const realFetch = globalThis.fetch;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

let shop: TestShop;

/** Rows stored in a table, oldest first. */
async function stored(table: 'newsletter_subscriptions' | 'contact_submissions'): Promise<Array<Record<string, string>>> {
  const { data, error } = await shop.service().from(table).select('*').order('created_at');
  expect(error).toBeNull();
  return data as Array<Record<string, string>>;
}

beforeAll(async () => {
  shop = await startTestShop();
  siteverifyOrigin = await listen(siteverify);
  silentOrigin = await listen(silent);
  tempDir = await mkdtemp(join(tmpdir(), 'send-notification-'));
});

afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([new Promise((r) => siteverify.close(r)), new Promise((r) => silent.close(r))]);
  await rm(tempDir, { recursive: true, force: true });
  await shop.close();
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

let testNumber = 0;
beforeEach(async () => {
  for (const table of ['newsletter_subscriptions', 'contact_submissions'] as const) {
    const { error } = await shop.service().from(table).delete().neq('id', '00000000-0000-0000-0000-000000000000');
    expect(error).toBeNull();
  }
  for (const key of ENV_KEYS) delete process.env[key];
  outbox = join(tempDir, `outbox-${++testNumber}.jsonl`);
  process.env.LOCAL_OUTBOX_FILE = outbox;
  turnstileTarget = siteverifyOrigin;
  siteverifyCalls.length = 0;
  // The Turnstile adapter calls Cloudflare; send those calls to the fake instead (everything else passes through).
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin === TURNSTILE_ORIGIN) return realFetch(`${turnstileTarget}${url.pathname}`, init);
    return realFetch(input, init);
  });
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function post(body: unknown, options: { raw?: boolean; url?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return handler(
    new Request(options.url ?? SITE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: options.raw ? (body as string) : JSON.stringify(body),
    }),
  );
}

const NEWSLETTER = { type: 'newsletter', data: { email: 'parent@example.com.au' } } as const;
const CONTACT = {
  type: 'contact',
  data: { name: 'Maria Rossi', email: 'maria@example.com.au', subject: 'Parish order', message: 'Could we order 30 copies\nfor our parish school?' },
} as const;

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
    for (const body of [CONTACT, { ...CONTACT, turnstileToken: '' }, { ...CONTACT, turnstileToken: '   ' }]) {
      const response = await post(body);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Verification failed' });
    }
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
    for (const sent of [body, { ...body, turnstileToken: '' }, { ...body, turnstileToken: '   ' }]) {
      const response = await post(sent);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: 'Verification failed' });
    }
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
    turnstileTarget = silentOrigin;
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

describe('send-notification rejects bad requests with a readable 4xx', () => {
  it.each([
    ['not JSON', '{"type": "newsletter",', 'The request body is not valid JSON.'],
    ['an empty body', '', 'type: must be'],
    ['a JSON string', '"subscribe me"', 'The request body must be a JSON object'],
    ['a JSON array', '[1, 2]', 'The request body must be a JSON object'],
    ['null', 'null', 'The request body must be a JSON object'],
    ['an unknown type', JSON.stringify({ type: 'order', data: {} }), "type: must be 'newsletter', 'contact', 'back_in_stock' or 'quote'."],
    ['no data', JSON.stringify({ type: 'newsletter' }), 'data: must be an object with the email address.'],
    ['data as a string', JSON.stringify({ type: 'contact', data: 'hello' }), 'data: must be an object with name, email, subject and message.'],
    ['a missing email', JSON.stringify({ type: 'newsletter', data: {} }), 'data.email: Please enter your email address.'],
    ['an invalid email', JSON.stringify({ type: 'newsletter', data: { email: 'parent@localhost' } }), 'data.email: Please enter a valid email address.'],
    ['an email carrying a query', JSON.stringify({ type: 'newsletter', data: { email: 'a@x.co?bcc=spy%40evil.example' } }), 'data.email: Please enter a valid email address.'],
    ['an email with a doubled dot', JSON.stringify({ ...CONTACT, data: { ...CONTACT.data, email: 'jane@example..com' } }), 'data.email: Please enter a valid email address.'],
    ['a blank name', JSON.stringify({ ...CONTACT, data: { ...CONTACT.data, name: '   ' } }), 'data.name: Please enter your name.'],
    ['a missing message', JSON.stringify({ ...CONTACT, data: { ...CONTACT.data, message: undefined } }), 'data.message: Please enter a message.'],
    ['a numeric subject', JSON.stringify({ ...CONTACT, data: { ...CONTACT.data, subject: 42 } }), 'data.subject: Please enter a subject.'],
    ['a token that is not a string', JSON.stringify({ ...NEWSLETTER, turnstileToken: 7 }), 'turnstileToken: must be a string'],
  ])('%s → 400', async (_name, raw, message) => {
    const response = await post(raw, { raw: true });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain(message);
  });

  it.each([
    ['email', 'newsletter', { email: `${'a'.repeat(LIMITS.emailMaxLength - 11)}@example.com` }, 'data.email: The email address can be at most 254 characters.'],
    ['name', 'contact', { ...CONTACT.data, name: 'n'.repeat(LIMITS.nameMaxLength + 1) }, 'data.name: The name can be at most 100 characters.'],
    ['subject', 'contact', { ...CONTACT.data, subject: 's'.repeat(LIMITS.subjectMaxLength + 1) }, 'data.subject: The subject can be at most 200 characters.'],
    ['message', 'contact', { ...CONTACT.data, message: 'm'.repeat(LIMITS.messageMaxLength + 1) }, 'data.message: The message can be at most 5000 characters.'],
  ])('an oversized %s → 400', async (_field, type, data, message) => {
    const response = await post({ type, data });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(message);
    expect(await readOutbox(outbox)).toEqual([]);
  });

  it('accepts fields at exactly their limits', async () => {
    // The longest address: a 64-character mailbox (the most SMTP allows) at a 189-character domain.
    const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(LIMITS.emailMaxLength - 64 - 1 - 63 - 1 - 63 - 1 - 4)}.com`;
    const data = { name: 'n'.repeat(100), email: `${'a'.repeat(64)}@${domain}`, subject: 's'.repeat(200), message: 'm'.repeat(5000) };
    expect(data.email).toHaveLength(LIMITS.emailMaxLength);
    expect((await post({ type: 'contact', data })).status).toBe(200);
  });

  it('an oversized token → 400; an oversized body → 413', async () => {
    const token = await post({ ...NEWSLETTER, turnstileToken: 't'.repeat(2049) });
    expect(token.status).toBe(400);
    expect((await token.json()).error).toBe('turnstileToken: The verification token is too long.');

    const huge = await post({ ...CONTACT, padding: 'x'.repeat(MAX_BODY_BYTES) });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toMatch(/too large/);
    expect(await readOutbox(outbox)).toEqual([]);
    expect(await stored('contact_submissions')).toEqual([]);
  });

  it('GET → 405', async () => {
    const response = await handler(new Request(SITE_URL));
    expect(response.status).toBe(405);
    expect((await response.json()).error).toBe('Use POST with a JSON body.');
  });
});

describe('send-notification fuzz', () => {
  /** Small seeded generator, so a failure can be replayed. */
  function random(seed: number) {
    let state = seed >>> 0;
    const next = () => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const strings = [
      '',
      ' ',
      'a@b.co',
      'parent@example.com.au',
      'not an email',
      '\u0000\u001f',
      '<script>alert(1)</script>',
      '😀'.repeat(300),
      'x'.repeat(6000),
      '"; drop table x; --',
      '\r\n\r\n',
      'ü@ß.de',
    ];
    const value = (depth: number): unknown => {
      const kind = pick(depth > 2 ? ['string', 'number', 'bool', 'null'] : ['string', 'number', 'bool', 'null', 'array', 'object', 'object']);
      if (kind === 'string') return next() < 0.7 ? pick(strings) : String.fromCharCode(...Array.from({ length: Math.floor(next() * 40) }, () => Math.floor(next() * 0xffff)));
      if (kind === 'number') return pick([0, -1, 1e308, 3.14, Number.MAX_SAFE_INTEGER]);
      if (kind === 'bool') return next() < 0.5;
      if (kind === 'null') return null;
      if (kind === 'array') return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      const keys = ['type', 'data', 'turnstileToken', 'email', 'name', 'subject', 'message', '__proto__', 'constructor', 'extra'];
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(keys), value(depth + 1)]));
    };
    const body = (): unknown => {
      const r = next();
      if (r < 0.3) return value(0);
      if (r < 0.6) {
        // A valid body with one part replaced, removed or added.
        const base = structuredClone(pick([NEWSLETTER, CONTACT])) as { data: Record<string, unknown> } & Record<string, unknown>;
        const target = next() < 0.7 ? base.data : base;
        const key = pick([...Object.keys(target), 'turnstileToken', 'extra']);
        if (next() < 0.2) delete target[key];
        else if (next() < 0.3) target[key] = pick(strings);
        else target[key] = value(2);
        return base;
      }
      const type = pick(['newsletter', 'contact', 'other', 5, null]);
      const data = next() < 0.8 ? { email: value(2), name: value(2), subject: value(2), message: value(2) } : value(1);
      return { type, data, ...(next() < 0.5 && { turnstileToken: value(2) }) };
    };
    return { body, next };
  }

  it('never answers 5xx to any of 200 random JSON bodies (bot-check off, then on)', async () => {
    const generator = random(20261122);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      process.env.TURNSTILE_SECRET_KEY = i % 2 === 0 ? '' : [PASS_SECRET, FAIL_SECRET, SPENT_SECRET][i % 3];
      const body = generator.body();
      const raw = generator.next() < 0.1 ? JSON.stringify(body).slice(0, -1) : (JSON.stringify(body) ?? 'undefined');
      const response = await post(raw, { raw: true });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status, `body #${i}: ${raw.slice(0, 200)}`).toBeLessThan(500);
      if (response.status >= 400) expect(typeof (await response.json()).error).toBe('string');
    }
    // The generator reaches both the rejections and the accepted path.
    expect(statuses.get(400)).toBeGreaterThan(50);
    expect(statuses.get(200)).toBeGreaterThan(0);
    // Valid bodies repeat the same address: every sign-up after the first is answered as the first was.
    expect(statuses.get(409)).toBeUndefined();
    expect(statuses.get(200)).toBeGreaterThan(10);
  });
});
