/**
 * The signed links in the shop's marketing email: confirming a sign-up (or saying "this wasn't me"), and
 * unsubscribing. A link's token is a JWT (HS256, `jose`) signed with a key derived from NEWSLETTER_SIGNING_SECRET,
 * naming what the link is for and whom, so nobody can make a link for someone else's address. A confirmation link
 * carries when it was made and expires CONSENT.confirmationValidDays later; an unsubscribe link has neither (it
 * must work from an old email, and be the same every time it is made).
 *
 * Token: `<kind code>.<JWT>`. The code in front only lets the confirmation page ask the right question before the
 * server reads the link; the signed claims decide, and a code that is not theirs makes the token invalid. The
 * subject is a row id, or for the address-wide opt-outs the address itself, since those rows may be gone when the
 * link is used.
 */
import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { CONSENT, NEWSLETTER } from '../../src/config/constants';
import type { ServerEnv } from '../../src/config/env';
import { ConfigurationError, localStandInsAllowed } from './runtime';

export type MailLink =
  | { kind: 'newsletter-confirm'; subscriptionId: string }
  | { kind: 'availability-confirm'; requestId: string }
  | { kind: 'newsletter-unsubscribe'; subscriptionId: string }
  | { kind: 'availability-unsubscribe'; email: string }
  | { kind: 'reminder-unsubscribe'; email: string };

const CODES = {
  'newsletter-confirm': 'nc',
  'availability-confirm': 'ac',
  'newsletter-unsubscribe': 'nu',
  'availability-unsubscribe': 'au',
  'reminder-unsubscribe': 'ru',
} as const satisfies Record<MailLink['kind'], string>;
const KINDS = Object.fromEntries(Object.entries(CODES).map(([kind, code]) => [code, kind])) as Record<string, MailLink['kind']>;

const CONFIRMATIONS: ReadonlySet<MailLink['kind']> = new Set(['newsletter-confirm', 'availability-confirm']);
export const isConfirmation = (link: MailLink): link is Extract<MailLink, { kind: 'newsletter-confirm' | 'availability-confirm' }> => CONFIRMATIONS.has(link.kind);

/** The key the local shop signs with when no secret is set (never in a deploy: see signingSecret). */
const LOCAL_SIGNING_KEY = 'local-shop-newsletter-signing-key (not for a deploy)';

/** The signing secret; a deploy without NEWSLETTER_SIGNING_SECRET sends no marketing email and takes no link. */
export function signingSecret(env: ServerEnv): string {
  if (env.NEWSLETTER_SIGNING_SECRET) return env.NEWSLETTER_SIGNING_SECRET;
  if (localStandInsAllowed(env)) return LOCAL_SIGNING_KEY;
  throw new ConfigurationError('NEWSLETTER_SIGNING_SECRET is not set for the functions: marketing email cannot be sent, confirmed or unsubscribed from.');
}

/** Printed at the foot of every marketing email: who sends it and where they can be written to. */
export function postalAddress(env: ServerEnv): string {
  if (env.SHOP_POSTAL_ADDRESS) return env.SHOP_POSTAL_ADDRESS;
  if (localStandInsAllowed(env)) return CONSENT.localPostalAddress;
  throw new ConfigurationError('SHOP_POSTAL_ADDRESS is not set for the functions: marketing email must carry the postal address of the sender.');
}

/** What every marketing email needs from the deploy. */
export interface MarketingIdentity {
  secret: string;
  postalAddress: string;
  siteOrigin: string;
}

export const marketingIdentity = (env: ServerEnv, siteOrigin: string): MarketingIdentity => ({ secret: signingSecret(env), postalAddress: postalAddress(env), siteOrigin });

const AUDIENCE = 'mail-link';
/** Its own key, so a mail link can never pass for a look-up session or the other way round. */
const keyOf = (secret: string) => new Uint8Array(createHmac('sha256', secret).update('mail-link').digest());
const subjectOf = (link: MailLink) => ('email' in link ? link.email.toLowerCase() : 'subscriptionId' in link ? link.subscriptionId : link.requestId);

/**
 * An unsubscribe link is made the same every time (no time in it): a batch sent again under its idempotency key
 * must be the same emails, and the link needs no age.
 */
export async function signMailLink(secret: string, link: MailLink, now = Date.now()): Promise<string> {
  const jwt = new SignJWT({ kind: CODES[link.kind] }).setProtectedHeader({ alg: 'HS256' }).setAudience(AUDIENCE).setSubject(subjectOf(link));
  if (isConfirmation(link)) {
    const made = Math.floor(now / 1000);
    jwt.setIssuedAt(made).setExpirationTime(made + CONSENT.confirmationValidDays * 86_400);
  }
  return `${CODES[link.kind]}.${await jwt.sign(keyOf(secret))}`;
}

/** `madeAt`: when the link was made (a confirmation answers only the newest email's link). */
export type ReadLink = { status: 'ok'; link: MailLink; madeAt: Date } | { status: 'expired' } | { status: 'invalid' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^([a-z]{2})\.([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;
const claimsSchema = z.object({ kind: z.string(), sub: z.string().min(1).max(400), iat: z.number().int().optional(), exp: z.number().int().optional() });

/** What a token from one of the shop's emails is for; 'invalid' when the shop did not sign it. */
export async function readMailLink(secret: string, token: string, now = Date.now()): Promise<ReadLink> {
  const match = TOKEN.exec(token.trim());
  if (!match) return { status: 'invalid' };
  const [, code, jwt] = match as unknown as [string, string, string];
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(jwt, keyOf(secret), { audience: AUDIENCE, algorithms: ['HS256'], currentDate: new Date(now) }));
  } catch (error) {
    return { status: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
  const claims = claimsSchema.safeParse(payload);
  const kind = KINDS[code];
  if (!claims.success || !kind || claims.data.kind !== code) return { status: 'invalid' };
  const { sub, iat, exp } = claims.data;
  let link: MailLink;
  if (kind === 'availability-unsubscribe' || kind === 'reminder-unsubscribe') {
    link = { kind, email: sub };
  } else {
    if (!UUID.test(sub)) return { status: 'invalid' };
    link = kind === 'availability-confirm' ? { kind, requestId: sub } : { kind, subscriptionId: sub };
  }
  // A confirmation always carries its age and its end; one without them was not made by signMailLink.
  if (isConfirmation(link) && (iat === undefined || exp === undefined)) return { status: 'invalid' };
  return { status: 'ok', link, madeAt: new Date((iat ?? 0) * 1000) };
}

/** The page a link in an email opens (the token in the fragment, so it never reaches a server log). */
export const confirmPageUrl = (origin: string, token: string, answer: 'confirm' | 'decline' = 'confirm') =>
  `${origin}${CONSENT.confirmPagePath}${answer === 'decline' ? '?answer=decline' : ''}#${token}`;
export const unsubscribePageUrl = (origin: string, token: string) => `${origin}${NEWSLETTER.unsubscribePagePath}#${token}`;
/** What mail programs POST to for one-click unsubscribe (RFC 8058). */
const oneClickUnsubscribeUrl = (origin: string, token: string) => `${origin}${NEWSLETTER.unsubscribeApiPath}?token=${encodeURIComponent(token)}`;

/** The headers that give mail programs their own one-click Unsubscribe button. */
export const listUnsubscribeHeaders = (origin: string, token: string) => ({
  'List-Unsubscribe': `<${oneClickUnsubscribeUrl(origin, token)}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
