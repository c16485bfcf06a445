import { describe, expect, it } from 'vitest';
import { readMailLink, signMailLink } from '../../functions/_lib/mail-links';
import { CONSENT } from '../../src/config/constants';

const SECRET = 'test-secret';
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const DAY = 86_400_000;

describe('signed links in marketing email', () => {
  it('each kind reads back as what it was made for', () => {
    for (const link of [
      { kind: 'newsletter-confirm', subscriptionId: ID },
      { kind: 'availability-confirm', requestId: ID },
      { kind: 'newsletter-unsubscribe', subscriptionId: ID },
      { kind: 'availability-unsubscribe', email: 'ann@example.com' },
      { kind: 'reminder-unsubscribe', email: 'ann@example.com' },
    ] as const) {
      expect(readMailLink(SECRET, signMailLink(SECRET, link))).toMatchObject({ status: 'ok', link });
    }
  });

  it('a confirmation lasts its days; an unsubscribe link never expires and is the same every time', () => {
    const now = Date.now();
    const confirm = signMailLink(SECRET, { kind: 'newsletter-confirm', subscriptionId: ID }, now - (CONSENT.confirmationValidDays * DAY - 60_000));
    expect(readMailLink(SECRET, confirm, now).status).toBe('ok');
    expect(readMailLink(SECRET, confirm, now + 120_000)).toEqual({ status: 'expired' });
    const unsubscribe = signMailLink(SECRET, { kind: 'reminder-unsubscribe', email: 'Ann@Example.com' }, now - 400 * DAY);
    expect(unsubscribe).toBe(signMailLink(SECRET, { kind: 'reminder-unsubscribe', email: 'ann@example.com' }, now));
    expect(readMailLink(SECRET, unsubscribe, now)).toMatchObject({ status: 'ok', link: { kind: 'reminder-unsubscribe', email: 'ann@example.com' } });
  });

  it('a link made with another secret, or changed in any part, is not the shop’s', () => {
    const token = signMailLink(SECRET, { kind: 'availability-unsubscribe', email: 'ann@example.com' });
    const [code, subject, made, signature] = token.split('.') as [string, string, string, string];
    const otherAddress = Buffer.from('bo@example.com').toString('base64url');
    for (const bad of [
      signMailLink('another-secret', { kind: 'availability-unsubscribe', email: 'ann@example.com' }),
      [code, otherAddress, made, signature].join('.'),
      ['ru', subject, made, signature].join('.'),
      [code, subject, '1', signature].join('.'),
      `${token}x`,
      '',
      ID,
    ]) {
      expect(readMailLink(SECRET, bad)).toEqual({ status: 'invalid' });
    }
  });
});
