/**
 * /api/send-notification refuses bad requests with a readable 4xx, takes fields at exactly their limits, and never
 * answers 5xx to random bodies (set-up in tests/helpers/send-notification.ts).
 */
import { describe, expect, it } from 'vitest';
import handler from '../../functions/send-notification';
import { MAX_BODY_BYTES } from '../../functions/_lib/http';
import { readOutbox } from '../../functions/_lib/providers/local-email';
import { LIMITS } from '@/config/constants';
import { CONTACT, FAIL_SECRET, NEWSLETTER, outbox, PASS_SECRET, post, SITE_URL, SPENT_SECRET, stored, useSendNotification } from '../helpers/send-notification';

useSendNotification();

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
