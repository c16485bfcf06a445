/**
 * The subset of Supabase Auth (/auth/v1) this project uses, with a local page standing in for Google:
 * authorize (PKCE only) → local sign-in page → one-time code → token (pkce, refresh_token with rotation),
 * user, logout. Sessions are signed JWTs that the REST layer verifies like Supabase's.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { escapeHtml } from '../../src/lib/html';
import { testPage } from '../../functions/_lib/test-page';
import { z } from 'zod';
import type { Database } from './database';
import { authError } from './errors';
import { JwtError, signToken, verifyToken } from './keys';

export interface AuthOptions {
  /** Access-token lifetime; short values let tests exercise refresh. */
  jwtExpirySeconds: number;
}

const CODE_LIFETIME_MS = 10 * 60 * 1000;

interface UserRow {
  id: string;
  email: string;
  raw_user_meta_data: Record<string, unknown>;
  raw_app_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  last_sign_in_at: Date | null;
  email_confirmed_at: Date | null;
  is_anonymous: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  email: string | null;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
}

const signInForm = z.object({
  email: z
    .email('Enter a valid email address.')
    .max(254)
    .transform((e) => e.toLowerCase()),
  name: z.string().trim().max(100).default(''),
  redirect_to: z.string().min(1),
  code_challenge: z.string().min(43).max(128),
  code_challenge_method: z.enum(['s256', 'S256', 'plain']).default('s256'),
});

const base64url = (buffer: Buffer) => buffer.toString('base64url');

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** An identity as Supabase's user object lists it. */
function identityJson(identity: IdentityRow) {
  return {
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    email: identity.email,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
  };
}

function userJson(user: UserRow, identities: IdentityRow[]) {
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: '',
    confirmed_at: iso(user.email_confirmed_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: user.raw_user_meta_data,
    identities: identities.map(identityJson),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    is_anonymous: user.is_anonymous,
  };
}

/** Only addresses on the site's own origin may receive a sign-in code. */
function sameOriginRedirect(redirectTo: string | null, origin: string): URL | undefined {
  if (!redirectTo) return new URL('/', origin);
  try {
    const url = new URL(redirectTo, origin);
    return url.origin === origin ? url : undefined;
  } catch {
    return undefined;
  }
}

const CSS =
  'body{font-family:system-ui,sans-serif;background:#fff8ee;color:#1e293b;display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;border-radius:16px;padding:32px;max-width:420px;width:calc(100% - 32px);box-shadow:0 4px 24px #0001}h1{color:#1e3a5f;margin-top:0}.note{background:#fef3c7;border:1px solid #b45309;border-radius:8px;padding:12px;font-size:14px}label{display:block;font-weight:600;margin:16px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #64748b;border-radius:8px;font-size:16px}.actions{display:flex;gap:12px;margin-top:24px}button{flex:1;padding:12px;border-radius:999px;font-weight:700;font-size:16px;cursor:pointer;border:2px solid #1e3a5f}button[value=continue]{background:#1e3a5f;color:#fff}button[value=cancel]{background:#fff;color:#1e3a5f}:focus-visible{outline:3px solid #8a5d00;outline-offset:2px}';

const page = (title: string, body: string, status = 200) => testPage(title, CSS, body, status);

export function createAuthHandler(db: Database, options: AuthOptions) {
  async function issueSession(user: UserRow, sessionId: string, origin: string, parent: string | null) {
    const expiresIn = options.jwtExpirySeconds;
    const accessToken = await signToken(
      {
        role: 'authenticated',
        aud: 'authenticated',
        iss: `${origin}/auth/v1`,
        sub: user.id,
        email: user.email,
        phone: '',
        app_metadata: user.raw_app_meta_data,
        user_metadata: user.raw_user_meta_data,
        aal: 'aal1',
        amr: [{ method: 'oauth', timestamp: Math.floor(Date.now() / 1000) }],
        session_id: sessionId,
        is_anonymous: user.is_anonymous,
      },
      expiresIn,
    );
    const refreshToken = base64url(randomBytes(24));
    await db.query('insert into auth.refresh_tokens (token, session_id, user_id, parent) values ($1, $2, $3, $4)', [refreshToken, sessionId, user.id, parent]);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: expiresIn,
      expires_at: Math.floor(Date.now() / 1000) + expiresIn,
      refresh_token: refreshToken,
      user: userJson(user, await findIdentities(user.id)),
    };
  }

  async function findUser(id: string): Promise<UserRow | undefined> {
    return (await db.query<UserRow>('select * from auth.users where id = $1', [id])).rows[0];
  }

  async function findIdentities(userId: string): Promise<IdentityRow[]> {
    return (await db.query<IdentityRow>('select * from auth.identities where user_id = $1 order by created_at', [userId])).rows;
  }

  async function signInPage(url: URL): Promise<Response> {
    const redirectTo = url.searchParams.get('redirect_to');
    if (url.searchParams.get('provider') !== 'google') return authError(400, 'validation_failed', 'Unsupported provider: only google is set up.');
    if (!sameOriginRedirect(redirectTo, url.origin)) return authError(400, 'validation_failed', 'redirect_to must be an address on this site.');
    const challenge = url.searchParams.get('code_challenge');
    if (!challenge) return authError(400, 'validation_failed', 'The embedded backend supports the PKCE flow only (code_challenge is missing).');
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    return page(
      'Sign in (local stand-in for Google)',
      `<h1>Sign in</h1>
<p class="note"><strong>Local sign-in.</strong> This page stands in for Google while the shop runs on your machine. Enter any email address to sign in as that person; no password is needed and nothing leaves this computer.</p>
<form method="post" action="/auth/v1/authorize">
${hidden('redirect_to', redirectTo ?? `${url.origin}/`)}${hidden('code_challenge', challenge)}${hidden('code_challenge_method', url.searchParams.get('code_challenge_method') ?? 's256')}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254">
<label for="name">Name</label><input id="name" name="name" type="text" autocomplete="name" maxlength="100">
<div class="actions"><button type="submit" name="action" value="cancel" formnovalidate>Cancel</button><button type="submit" name="action" value="continue">Continue</button></div>
</form>`,
    );
  }

  async function completeSignIn(request: Request, origin: string): Promise<Response> {
    const form = Object.fromEntries(await request.formData());
    const target = sameOriginRedirect(typeof form.redirect_to === 'string' ? form.redirect_to : null, origin);
    if (!target) return authError(400, 'validation_failed', 'redirect_to must be an address on this site.');
    if (form.action === 'cancel') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The sign-in was cancelled.');
      return Response.redirect(target, 303);
    }
    const parsed = signInForm.safeParse(form);
    if (!parsed.success)
      return page('Sign in', `<h1>Sign in</h1><p role="alert">${escapeHtml(parsed.error.issues[0]?.message ?? 'Invalid details.')}</p><p><a href="javascript:history.back()">Go back</a></p>`, 400);
    const { email, name, code_challenge, code_challenge_method } = parsed.data;
    const metadata = {
      email,
      full_name: name || email.split('@')[0],
      name: name || email.split('@')[0],
      email_verified: true,
      provider_id: createHash('sha256').update(email).digest('hex').slice(0, 21),
    };
    const user = (
      await db.query<UserRow>(
        `insert into auth.users (email, raw_user_meta_data, last_sign_in_at, email_confirmed_at) values ($1, $2, now(), now())
         on conflict (email) do update set last_sign_in_at = now(), raw_user_meta_data = auth.users.raw_user_meta_data || excluded.raw_user_meta_data, updated_at = now(),
           email_confirmed_at = coalesce(auth.users.email_confirmed_at, now())
         returning *`,
        [email, JSON.stringify(metadata)],
      )
    ).rows[0]!;
    // The Google identity the sign-in came through, as Supabase keeps one per provider account.
    await db.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at) values ($1, $2, $3, 'google', now())
       on conflict (provider_id, provider) do update set identity_data = excluded.identity_data, last_sign_in_at = now(), updated_at = now()`,
      [metadata.provider_id, user.id, JSON.stringify({ ...metadata, sub: metadata.provider_id })],
    );
    const code = randomUUID();
    await db.query('insert into auth.flow_state (auth_code, code_challenge, code_challenge_method, user_id) values ($1, $2, $3, $4)', [
      code,
      code_challenge,
      code_challenge_method.toLowerCase(),
      user.id,
    ]);
    target.searchParams.set('code', code);
    return Response.redirect(target, 303);
  }

  async function exchangeCode(body: Record<string, unknown>, origin: string): Promise<Response> {
    const code = typeof body.auth_code === 'string' ? body.auth_code : '';
    const verifier = typeof body.code_verifier === 'string' ? body.code_verifier : '';
    if (!code || !verifier) return authError(400, 'validation_failed', 'PKCE flow requires auth_code and code_verifier.');
    // A code is good for one exchange: it is deleted whether or not the verifier matches.
    const flow = (await db.query<{ code_challenge: string; code_challenge_method: string; user_id: string; created_at: Date }>('delete from auth.flow_state where auth_code = $1 returning *', [code]))
      .rows[0];
    if (!flow || Date.now() - new Date(flow.created_at).getTime() > CODE_LIFETIME_MS) {
      return authError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    const expected = flow.code_challenge_method === 'plain' ? verifier : base64url(createHash('sha256').update(verifier).digest());
    if (expected !== flow.code_challenge) return authError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
    const user = await findUser(flow.user_id);
    if (!user) return authError(404, 'user_not_found', 'User not found');
    const session = (await db.query<{ id: string }>('insert into auth.sessions (user_id) values ($1) returning id', [user.id])).rows[0]!;
    return Response.json(await issueSession(user, session.id, origin, null));
  }

  async function refresh(body: Record<string, unknown>, origin: string): Promise<Response> {
    const token = typeof body.refresh_token === 'string' ? body.refresh_token : '';
    if (!token) return authError(400, 'validation_failed', 'refresh_token is required');
    // Rotation: the presented token is revoked in the same statement that checks it, so it works once.
    const used = (await db.query<{ session_id: string; user_id: string }>('update auth.refresh_tokens set revoked = true where token = $1 and not revoked returning session_id, user_id', [token]))
      .rows[0];
    if (!used) {
      // A used token presented again means it was copied: end its session (every access and refresh token
      // of it), as Supabase does with rotation on, so a stolen token cannot outlive the real sign-in.
      const reused = (await db.query<{ session_id: string }>('select session_id from auth.refresh_tokens where token = $1', [token])).rows[0];
      if (!reused) return authError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      await db.query('delete from auth.sessions where id = $1', [reused.session_id]);
      return authError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    const user = await findUser(used.user_id);
    if (!user) return authError(404, 'user_not_found', 'User not found');
    return Response.json(await issueSession(user, used.session_id, origin, token));
  }

  async function currentSession(request: Request) {
    const token = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (!token) return { error: authError(401, 'no_authorization', 'This endpoint requires a Bearer token') };
    try {
      const claims = await verifyToken(token);
      if (claims.role !== 'authenticated' || !claims.sub || !claims.session_id) return { error: authError(403, 'bad_jwt', 'invalid claim: missing sub claim') };
      const live = (await db.query('select 1 from auth.sessions where id = $1', [claims.session_id])).rows.length > 0;
      if (!live) return { error: authError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist') };
      return { claims };
    } catch (error) {
      return { error: authError(403, 'bad_jwt', error instanceof JwtError && error.expired ? 'invalid JWT: token is expired' : 'invalid JWT: unable to parse or verify signature') };
    }
  }

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/auth\/v1/, '');
    try {
      if (path === '/authorize' && request.method === 'GET') return await signInPage(url);
      if (path === '/authorize' && request.method === 'POST') return await completeSignIn(request, url.origin);
      if (path === '/token' && request.method === 'POST') {
        let body: Record<string, unknown>;
        try {
          body = (await request.json()) as Record<string, unknown>;
        } catch {
          return authError(400, 'validation_failed', 'The request body must be JSON.');
        }
        const grant = url.searchParams.get('grant_type');
        if (grant === 'pkce') return await exchangeCode(body, url.origin);
        if (grant === 'refresh_token') return await refresh(body, url.origin);
        return authError(400, 'unsupported_grant_type', `grant_type=${grant ?? ''} is not supported by the embedded backend (pkce and refresh_token are).`);
      }
      if (path === '/user' && request.method === 'GET') {
        const session = await currentSession(request);
        if ('error' in session) return session.error!;
        const user = await findUser(session.claims.sub!);
        return user ? Response.json(userJson(user, await findIdentities(user.id))) : authError(404, 'user_not_found', 'User from sub claim in JWT does not exist');
      }
      if (path === '/logout' && request.method === 'POST') {
        const session = await currentSession(request);
        if ('error' in session) return session.error!;
        const scope = url.searchParams.get('scope') ?? 'global';
        const { sub, session_id } = session.claims;
        if (scope === 'local') await db.query('delete from auth.sessions where id = $1', [session_id]);
        else if (scope === 'others') await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [sub, session_id]);
        else await db.query('delete from auth.sessions where user_id = $1', [sub]);
        return new Response(null, { status: 204 });
      }
      return authError(404, 'not_supported', `${request.method} /auth/v1${path} is not supported by the embedded backend (authorize, token, user and logout are).`);
    } catch (error) {
      console.error('[embedded auth]', error);
      return authError(500, 'unexpected_failure', 'The embedded auth service failed to answer.');
    }
  };
}
