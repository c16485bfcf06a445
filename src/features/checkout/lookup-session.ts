/**
 * The checkout page's look-up session (functions/_lib/lookup-session.ts): asked for once, when the first address
 * suggestion or delivery quote needs it, and shared by both. A details call answers the next one (Google's session
 * ends with it). A look-up refused for its session (expired, or the visitor cookie gone) asks for a new session
 * once and tries again; anything else is the caller's to handle, as before.
 */
import { LOOKUP_SESSION } from './contract';
import { postJson } from '@/lib/post-json';

let current: Promise<string> | undefined;

async function ask(): Promise<string> {
  const { ok, status, body } = await postJson(LOOKUP_SESSION.path, {});
  if (!ok || typeof body.session !== 'string' || !body.session) throw new Error((typeof body.error === 'string' && body.error) || `Request failed (${status})`);
  return body.session;
}

function session(): Promise<string> {
  current ??= ask().catch((error: unknown) => {
    current = undefined;
    throw error;
  });
  return current;
}

/** The session a details call answered: the next address's look-ups use it. */
export function nextLookupSession(token: string): void {
  current = Promise.resolve(token);
}

const refusedForSession = (error: unknown) => (error as { body?: { code?: unknown } } | null)?.body?.code === LOOKUP_SESSION.sessionRefused;

/** Runs a look-up with the page's session; once more with a new session if the server refused the old one. */
export async function withLookupSession<T>(lookup: (session: string) => Promise<T>): Promise<T> {
  const first = await session();
  try {
    return await lookup(first);
  } catch (error) {
    if (!refusedForSession(error)) throw error;
    if (current && (await current) === first) current = undefined;
    return lookup(await session());
  }
}
