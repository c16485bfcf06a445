/**
 * The checkout's look-up sessions: what lets the address look-up (Google Places, billed per call) and the courier
 * rates (Australia Post's quota) be used only as a real shopper uses them.
 *
 * - The checkout page asks /api/lookup-session for a session: a JWT (HS256, a key derived from the shop's signing
 *   secret) that lasts SESSION_MINUTES, names the visitor by the hash of an HttpOnly cookie set with it, and
 *   carries the Places session token, so every suggestion and the one details call of an address share Google's
 *   session (billed once). A details call answers a new session, for the next address.
 * - A look-up is accepted only with a session whose signature, expiry and visitor (the request's cookie) hold,
 *   and only while the visitor has made at most LOOKUP_SESSION.perMinute look-ups of that kind in the last minute,
 *   counted in the database (`take_lookup`), so the limit holds across every function instance.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { LOOKUP_SESSION } from '../../src/features/checkout/contract';
import { json } from './http';
import { signingSecret } from './mail-links';
import { rpc } from './supabase-admin';

export const SESSION_MINUTES = 30;
const AUDIENCE = 'checkout-lookup';
export const VISITOR_COOKIE = 'shop_visitor';
const VISITOR_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** What a look-up's body carries: the session the page was given (checked by admitLookup). */
export const lookupSessionInput = z.string().trim().max(2000).optional().default('');

export type LookupKind = 'places' | 'rates';

/** Its own key, so a look-up session can never pass for a mail link or the other way round. */
const keyOf = (env: ServerEnv) => new Uint8Array(createHmac('sha256', signingSecret(env)).update('checkout-lookup-session').digest());

const visitorHash = (cookieValue: string) => createHash('sha256').update(cookieValue).digest('base64url');

function visitorCookie(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === VISITOR_COOKIE && VISITOR_VALUE.test(value.join('='))) return value.join('=');
  }
  return undefined;
}

async function sign(env: ServerEnv, visitor: string, now = Date.now()): Promise<string> {
  const issued = Math.floor(now / 1000);
  return new SignJWT({ vis: visitor, pst: randomUUID() })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(AUDIENCE)
    .setIssuedAt(issued)
    .setExpirationTime(issued + SESSION_MINUTES * 60)
    .sign(keyOf(env));
}

/** A new session for the request's visitor; a visitor without the cookie gets one with it. */
export async function issueLookupSession(env: ServerEnv, request: Request, now = Date.now()): Promise<{ token: string; setCookie?: string }> {
  const existing = visitorCookie(request);
  const cookie = existing ?? randomBytes(32).toString('base64url');
  const token = await sign(env, visitorHash(cookie), now);
  if (existing) return { token };
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return { token, setCookie: `${VISITOR_COOKIE}=${cookie}; Path=/api/; HttpOnly; SameSite=Strict; Max-Age=86400${secure}` };
}

export interface LookupSession {
  visitor: string;
  /** Google's session token for this address's suggestions and its details call. */
  placesSession: string;
}

const claimsSchema = z.object({ vis: z.string().regex(/^[A-Za-z0-9_-]{43}$/), pst: z.uuid() });

/** The session, if the token is one the shop signed, unexpired, for the visitor whose cookie came with it. */
async function readLookupSession(env: ServerEnv, request: Request, token: string): Promise<LookupSession | null> {
  const cookie = visitorCookie(request);
  if (!token || !cookie) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(env), { audience: AUDIENCE, algorithms: ['HS256'] });
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success || claims.data.vis !== visitorHash(cookie)) return null;
    return { visitor: claims.data.vis, placesSession: claims.data.pst };
  } catch {
    return null;
  }
}

/** A new session for the same visitor, with a new Places session (after a details call ended the last one). */
export const renewLookupSession = (env: ServerEnv, session: LookupSession) => sign(env, session.visitor);

/**
 * The session of a look-up that may go ahead (and counts it), or the 4xx that refuses it: 401 without a valid
 * session for this visitor, 429 past the limit.
 */
export async function admitLookup(env: ServerEnv, db: SupabaseClient, request: Request, token: string, kind: LookupKind): Promise<{ session: LookupSession } | { response: Response }> {
  const session = await readLookupSession(env, request, token);
  if (!session) {
    const what = kind === 'places' ? 'Address suggestions' : 'Delivery options';
    return {
      response: json(
        {
          error: `${what} need this checkout page's session, which is missing or has expired. Please reload the page${kind === 'places' ? ', or type the address' : ''}.`,
          code: LOOKUP_SESSION.sessionRefused,
        },
        401,
      ),
    };
  }
  const used = await rpc(db, 'take_lookup', { p_visitor: session.visitor, p_kind: kind }, z.number().int());
  if (used > LOOKUP_SESSION.perMinute) {
    return {
      response: json(
        { error: `Too many look-ups from this checkout (at most ${LOOKUP_SESSION.perMinute} a minute). Please wait a minute and try again${kind === 'places' ? ', or type the address' : ''}.` },
        429,
        { 'retry-after': '60' },
      ),
    };
  }
  return { session };
}
