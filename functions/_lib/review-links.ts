/**
 * The link in a review request: a JWT (HS256) naming the order, lasting REVIEWS.linkValidDays, signed with a key
 * derived from the shop's signing secret, so nobody can make one for an order they did not buy and no other signed
 * link (a mail link, a look-up session) passes for it. The link is the only key to the order's review form.
 */
import { createHmac } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { ServerEnv } from '../../src/config/env';
import { REVIEWS } from '../../src/features/reviews/contract';
import { signingSecret } from './mail-links';

const AUDIENCE = 'review-form';
const keyOf = (env: ServerEnv) => new Uint8Array(createHmac('sha256', signingSecret(env)).update('review-form-link').digest());

export async function signReviewLink(env: ServerEnv, orderId: string, now = Date.now()): Promise<string> {
  const issued = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setSubject(orderId)
    .setIssuedAt(issued)
    .setExpirationTime(issued + REVIEWS.linkValidDays * 86_400)
    .sign(keyOf(env));
}

export type ReadReviewLink = { status: 'ok'; orderId: string } | { status: 'expired' } | { status: 'invalid' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Each part as base64url writes it: a last character whose unused bits are set decodes the same, so it is refused. */
const canonical = (part: string) => Buffer.from(part, 'base64url').toString('base64url') === part;

/** The order a review link names; 'invalid' for anything the shop did not sign exactly so. */
export async function readReviewLink(env: ServerEnv, token: string, now = Date.now()): Promise<ReadReviewLink> {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || !parts.every(canonical)) return { status: 'invalid' };
  try {
    const { payload } = await jwtVerify(token.trim(), keyOf(env), { audience: AUDIENCE, algorithms: ['HS256'], currentDate: new Date(now) });
    return typeof payload.sub === 'string' && UUID.test(payload.sub) ? { status: 'ok', orderId: payload.sub } : { status: 'invalid' };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { status: 'expired' };
    return { status: 'invalid' };
  }
}

/** The page a review request's link opens, at one book of the order. */
export const reviewFormUrl = (origin: string, token: string, productId: string) => `${origin}${REVIEWS.formPath}?book=${encodeURIComponent(productId)}#${token}`;
