import { describe, expect, it } from 'vitest';
import { readMailLink, signMailLink } from '../../functions/_lib/mail-links';
import { CONSENT } from '../../src/config/constants';

const SECRET = 'test-secret';
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const DAY = 86_400_000;

/** A JWT's part (0 header, 1 claims) as JSON, and back. */
const partOf = (jwt: string, at: number) => JSON.parse(Buffer.from(jwt.split('.')[at]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const withPart = (jwt: string, at: number, value: Record<string, unknown>) => {
  const parts = jwt.split('.');
  parts[at] = Buffer.from(JSON.stringify(value)).toString('base64url');
  return parts.join('.');
};

describe('signed links in marketing email', () => {
  it('each kind reads back as what it was made for', async () => {
    for (const link of [
      { kind: 'newsletter-confirm', subscriptionId: ID },
      { kind: 'availability-confirm', requestId: ID },
      { kind: 'newsletter-unsubscribe', subscriptionId: ID },
      { kind: 'availability-unsubscribe', email: 'ann@example.com' },
      { kind: 'reminder-unsubscribe', email: 'ann@example.com' },
    ] as const) {
      expect(await readMailLink(SECRET, await signMailLink(SECRET, link))).toMatchObject({ status: 'ok', link });
    }
  });

  it('a confirmation lasts its days and says when it was made; an unsubscribe link never expires and is the same every time', async () => {
    const now = Date.now();
    const made = now - (CONSENT.confirmationValidDays * DAY - 60_000);
    const confirm = await signMailLink(SECRET, { kind: 'newsletter-confirm', subscriptionId: ID }, made);
    expect(await readMailLink(SECRET, confirm, now)).toMatchObject({ status: 'ok', madeAt: new Date(Math.floor(made / 1000) * 1000) });
    expect(await readMailLink(SECRET, confirm, now + 120_000)).toEqual({ status: 'expired' });
    const unsubscribe = await signMailLink(SECRET, { kind: 'reminder-unsubscribe', email: 'Ann@Example.com' }, now - 400 * DAY);
    expect(unsubscribe).toBe(await signMailLink(SECRET, { kind: 'reminder-unsubscribe', email: 'ann@example.com' }, now));
    expect(await readMailLink(SECRET, unsubscribe, now)).toMatchObject({ status: 'ok', link: { kind: 'reminder-unsubscribe', email: 'ann@example.com' } });
  });

  it('a link made with another secret, or changed in any part, is not the shop’s', async () => {
    const token = await signMailLink(SECRET, { kind: 'availability-unsubscribe', email: 'ann@example.com' });
    const [code, ...rest] = token.split('.');
    const jwt = rest.join('.');
    const claims = partOf(jwt, 1);
    const confirm = (await signMailLink(SECRET, { kind: 'newsletter-confirm', subscriptionId: ID })).slice(3);
    const [header, , signature] = jwt.split('.') as [string, string, string];
    for (const bad of [
      await signMailLink('another-secret', { kind: 'availability-unsubscribe', email: 'ann@example.com' }),
      // Another address, or another kind, under the same signature.
      `${code}.${withPart(jwt, 1, { ...claims, sub: 'bo@example.com' })}`,
      `${code}.${withPart(jwt, 1, { ...claims, kind: 'ru' })}`,
      // The code in front is not the signed one.
      `ru.${jwt}`,
      // A confirmation's expiry taken out, or its algorithm changed to none.
      `nc.${withPart(confirm, 1, { ...partOf(confirm, 1), exp: undefined })}`,
      `${code}.${withPart(jwt, 0, { alg: 'none' }).split('.').slice(0, 2).join('.')}.`,
      `${code}.${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}x`,
      `${token}x`,
      '',
      ID,
    ]) {
      expect(await readMailLink(SECRET, bad)).toEqual({ status: 'invalid' });
    }
  });
});
