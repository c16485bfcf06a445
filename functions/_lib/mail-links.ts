/**
 * The signed links in the shop's marketing email: confirming a sign-up (or saying "this wasn't me"), and
 * unsubscribing. A link's token names what it is for and whom, when it was made, and an HMAC-SHA256 of those with
 * NEWSLETTER_SIGNING_SECRET, so nobody can make a link for someone else's address. A confirmation link lasts
 * CONSENT.confirmationValidDays; an unsubscribe link never expires (it must work from an old email).
 *
 * Token: `<kind>.<subject>.<made, base 36 seconds>.<signature>`; the subject is a row id, or for the address-wide
 * opt-outs the address itself (base64url), since those rows may be gone when the link is used.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
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

const subjectOf = (link: MailLink) => ('email' in link ? Buffer.from(link.email.toLowerCase()).toString('base64url') : 'subscriptionId' in link ? link.subscriptionId : link.requestId);
const sign = (secret: string, body: string) => createHmac('sha256', secret).update(`mail-link:${body}`).digest('base64url');

/**
 * An unsubscribe link is made the same every time (time 0): a batch sent again under its idempotency key must be
 * the same emails, and the link needs no age.
 */
export function signMailLink(secret: string, link: MailLink, now = Date.now()): string {
  const made = isConfirmation(link) ? Math.floor(now / 1000) : 0;
  const body = `${CODES[link.kind]}.${subjectOf(link)}.${made.toString(36)}`;
  return `${body}.${sign(secret, body)}`;
}

/** `madeAt`: when the link was made (a confirmation answers only the newest email's link). */
export type ReadLink = { status: 'ok'; link: MailLink; madeAt: Date } | { status: 'expired' } | { status: 'invalid' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^([a-z]{2})\.([A-Za-z0-9_-]{1,400})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

/** What a token from one of the shop's emails is for; 'invalid' when the shop did not sign it. */
export function readMailLink(secret: string, token: string, now = Date.now()): ReadLink {
  const match = TOKEN.exec(token.trim());
  if (!match) return { status: 'invalid' };
  const [, code, subject, made, given] = match as unknown as [string, string, string, string, string];
  const kind = KINDS[code];
  const expected = Buffer.from(sign(secret, `${code}.${subject}.${made}`));
  if (!kind || !timingSafeEqual(Buffer.from(given), expected)) return { status: 'invalid' };
  let link: MailLink;
  if (kind === 'availability-unsubscribe' || kind === 'reminder-unsubscribe') {
    link = { kind, email: Buffer.from(subject, 'base64url').toString('utf8') };
  } else {
    if (!UUID.test(subject)) return { status: 'invalid' };
    link = kind === 'availability-confirm' ? { kind, requestId: subject } : { kind, subscriptionId: subject };
  }
  const madeSeconds = Number.parseInt(made, 36);
  if (isConfirmation(link) && (now / 1000 - madeSeconds) / 86_400 > CONSENT.confirmationValidDays) return { status: 'expired' };
  return { status: 'ok', link, madeAt: new Date(madeSeconds * 1000) };
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
