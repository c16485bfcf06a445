/**
 * The Turnstile adapter against a local server answering like challenges.cloudflare.com siteverify,
 * including Cloudflare's documented dummy secrets (1x… passes, 2x… fails, 3x… "token already spent").
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createTurnstileCheck } from '../../../functions/_lib/providers/turnstile';
import { HUMAN_CHECK_ACTIONS } from '../../../src/config/constants';
import { sendJson, useFakeProvider } from '../../helpers/fake-provider';

const SECRET = '0x4AAAAAAAtestSecretForOurSite';
const HOST = 'shop.example.com.au';
const DUMMY = { passes: '1x0000000000000000000000000000000AA', fails: '2x0000000000000000000000000000000AA', spent: '3x0000000000000000000000000000000AA' };
const NEWSLETTER = { action: HUMAN_CHECK_ACTIONS.newsletter, hostname: HOST };

const fake = useFakeProvider({ parseBody: (raw) => new URLSearchParams(raw) });
let override: ((response: ServerResponse) => void) | undefined;

const failure = (...codes: string[]) => ({ success: false, 'error-codes': codes });
const passed = (action: string, hostname: string) => ({ success: true, challenge_ts: '2026-11-22T02:30:00.000Z', hostname, 'error-codes': [], action, cdata: '', metadata: { interactive: false } });

/** Answers the way siteverify does: by secret first, then by token. */
function siteverify(form: URLSearchParams): unknown {
  const secret = form.get('secret');
  const token = form.get('response');
  if (!secret) return failure('missing-input-secret');
  if (secret === DUMMY.passes) return passed('', 'example.com');
  if (secret === DUMMY.fails) return failure('invalid-input-response');
  if (secret === DUMMY.spent) return failure('timeout-or-duplicate');
  if (secret !== SECRET) return failure('invalid-input-secret');
  if (!token) return failure('missing-input-response');
  if (token === 'token-newsletter') return passed(HUMAN_CHECK_ACTIONS.newsletter, HOST);
  if (token === 'token-contact') return passed(HUMAN_CHECK_ACTIONS.contact, HOST);
  if (token === 'token-other-site') return passed(HUMAN_CHECK_ACTIONS.newsletter, 'copycat.example.net');
  if (token === 'token-used') return failure('timeout-or-duplicate');
  return failure('invalid-input-response');
}

async function fakeCloudflare(): Promise<string> {
  const { url } = await fake.start(({ method, path, body: form }, response) => {
    expect(method).toBe('POST');
    expect(path).toBe('/turnstile/v0/siteverify');
    if (override) return override(response);
    sendJson(response, 200, siteverify(form));
  });
  return url;
}

afterEach(() => {
  override = undefined;
});

describe('Turnstile siteverify', () => {
  it('passes a token minted for this form on this site, sending secret, token, IP and an idempotency key', async () => {
    const baseUrl = await fakeCloudflare();
    const check = createTurnstileCheck({ secretKey: SECRET, baseUrl });
    expect(await check.verify('token-newsletter', { ...NEWSLETTER, remoteIp: '203.0.113.7' })).toEqual({ ok: true });

    const form = fake.seen[0]!.body;
    expect(form.get('secret')).toBe(SECRET);
    expect(form.get('response')).toBe('token-newsletter');
    expect(form.get('remoteip')).toBe('203.0.113.7');
    expect(form.get('idempotency_key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a token minted for another form (action) or on another site (hostname)', async () => {
    const baseUrl = await fakeCloudflare();
    const check = createTurnstileCheck({ secretKey: SECRET, baseUrl });
    expect(await check.verify('token-contact', NEWSLETTER)).toEqual({ ok: false, reason: 'action-mismatch' });
    expect(await check.verify('token-other-site', NEWSLETTER)).toEqual({ ok: false, reason: 'hostname-mismatch' });
    expect(await check.verify('token-newsletter', { ...NEWSLETTER, hostname: 'SHOP.example.com.au' })).toEqual({ ok: true });
  });

  it("passes Cloudflare's error codes through as the reason", async () => {
    const baseUrl = await fakeCloudflare();
    expect(await createTurnstileCheck({ secretKey: SECRET, baseUrl }).verify('token-used', NEWSLETTER)).toEqual({ ok: false, reason: 'timeout-or-duplicate' });
    expect(await createTurnstileCheck({ secretKey: SECRET, baseUrl }).verify('forged', NEWSLETTER)).toEqual({ ok: false, reason: 'invalid-input-response' });
    expect(await createTurnstileCheck({ secretKey: '0x4AAAAAAAwrongSecret', baseUrl }).verify('token-newsletter', NEWSLETTER)).toEqual({ ok: false, reason: 'invalid-input-secret' });
  });

  it('an empty token is refused as missing-input-response without calling Cloudflare; an oversized one as invalid', async () => {
    const baseUrl = await fakeCloudflare();
    const check = createTurnstileCheck({ secretKey: SECRET, baseUrl });
    expect(await check.verify('', NEWSLETTER)).toEqual({ ok: false, reason: 'missing-input-response' });
    expect(await check.verify('   ', NEWSLETTER)).toEqual({ ok: false, reason: 'missing-input-response' });
    expect(await check.verify('x'.repeat(2049), NEWSLETTER)).toEqual({ ok: false, reason: 'invalid-input-response' });
    expect(fake.seen).toHaveLength(0);
  });

  it('the documented dummy secrets: 1x always passes, 2x always fails, 3x yields timeout-or-duplicate', async () => {
    const baseUrl = await fakeCloudflare();
    expect(await createTurnstileCheck({ secretKey: DUMMY.passes, baseUrl }).verify('XXXX.DUMMY.TOKEN.XXXX', NEWSLETTER)).toEqual({ ok: true });
    expect(await createTurnstileCheck({ secretKey: DUMMY.fails, baseUrl }).verify('XXXX.DUMMY.TOKEN.XXXX', NEWSLETTER)).toEqual({ ok: false, reason: 'invalid-input-response' });
    expect(await createTurnstileCheck({ secretKey: DUMMY.spent, baseUrl }).verify('XXXX.DUMMY.TOKEN.XXXX', NEWSLETTER)).toEqual({ ok: false, reason: 'timeout-or-duplicate' });
  });

  it('a 5xx, an HTML error page or a malformed answer is verification-unavailable, never a pass or a crash', async () => {
    const baseUrl = await fakeCloudflare();
    const check = createTurnstileCheck({ secretKey: SECRET, baseUrl });
    override = (res) => sendJson(res, 500, failure('internal-error'));
    expect(await check.verify('token-newsletter', NEWSLETTER)).toEqual({ ok: false, reason: 'verification-unavailable', unavailable: true });
    override = (res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
    expect(await check.verify('token-newsletter', NEWSLETTER)).toEqual({ ok: false, reason: 'verification-unavailable', unavailable: true });
    override = (res) => sendJson(res, 200, { success: 'yes' });
    expect(await check.verify('token-newsletter', NEWSLETTER)).toEqual({ ok: false, reason: 'verification-unavailable', unavailable: true });
  });

  it('a 400 with siteverify error codes keeps the code', async () => {
    const baseUrl = await fakeCloudflare();
    override = (res) => sendJson(res, 400, failure('bad-request'));
    expect(await createTurnstileCheck({ secretKey: SECRET, baseUrl }).verify('token-newsletter', NEWSLETTER)).toEqual({ ok: false, reason: 'bad-request' });
  });

  it('a timeout or an unreachable host is verification-unavailable', async () => {
    const baseUrl = await fakeCloudflare();
    override = () => undefined; // never answers
    expect(await createTurnstileCheck({ secretKey: SECRET, baseUrl, timeoutMs: 150 }).verify('token-newsletter', NEWSLETTER)).toEqual({
      ok: false,
      reason: 'verification-unavailable',
      unavailable: true,
    });
    await fake.close();
    expect(await createTurnstileCheck({ secretKey: SECRET, baseUrl }).verify('token-newsletter', NEWSLETTER)).toEqual({ ok: false, reason: 'verification-unavailable', unavailable: true });
  });
});
