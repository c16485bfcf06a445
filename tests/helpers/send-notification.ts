/**
 * /api/send-notification, called as a module with real Request objects, storing rows in an embedded
 * backend (read back with the service role), for the send-notification test files: each calls
 * `useSendNotification()` once. The bot-check talks to fake Turnstile siteverify servers on 127.0.0.1 that answer
 * the way Cloudflare's documented dummy secret keys do (1x… passes, 2x… fails, 3x… "timeout-or-duplicate"), plus
 * one that never answers; emails land in the local outbox file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import handler from '../../functions/send-notification';
import { startTestShop, type TestShop } from './shop';

export const PASS_SECRET = '1x0000000000000000000000000000000AA';
export const FAIL_SECRET = '2x0000000000000000000000000000000AA';
export const SPENT_SECRET = '3x0000000000000000000000000000000AA';
/** Not a dummy key: the adapter also checks the action and hostname the fake reports (token "ok:<action>:<hostname>"). */
export const LIVE_SECRET = '0x4AAAAAAAfakeLiveSecretForTests';
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
export const SITE_URL = 'http://shop.example:8888/api/send-notification';

const ENV_KEYS = ['TURNSTILE_SECRET_KEY', 'LOCAL_OUTBOX_FILE', 'RESEND_API_KEY', 'EMAIL_FROM', 'NOTIFY_EMAIL_TO'] as const;
let savedEnv: Record<string, string | undefined> = {};

interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}
export const siteverifyCalls: SiteverifyCall[] = [];

/** Answers like Cloudflare's siteverify for the dummy secrets, and binds action/hostname for LIVE_SECRET. */
const answerSiteverify = (req: IncomingMessage, res: ServerResponse) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    const form = new URLSearchParams(raw);
    const call = { secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') };
    siteverifyCalls.push(call);
    const ts = new Date().toISOString();
    let body: Record<string, unknown>;
    if (req.url !== '/turnstile/v0/siteverify' || req.method !== 'POST') body = { success: false, 'error-codes': ['bad-request'] };
    else if (call.secret === PASS_SECRET) body = { success: true, challenge_ts: ts, hostname: 'example.com', 'error-codes': [], action: 'test', cdata: '' };
    else if (call.secret === FAIL_SECRET) body = { success: false, 'error-codes': ['invalid-input-response'] };
    else if (call.secret === SPENT_SECRET) body = { success: false, 'error-codes': ['timeout-or-duplicate'] };
    else if (call.secret === LIVE_SECRET && call.response?.startsWith('ok:')) {
      const [, action, hostname] = call.response.split(':');
      body = { success: true, challenge_ts: ts, hostname, action, 'error-codes': [] };
    } else body = { success: false, 'error-codes': ['invalid-input-secret'] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
};

let siteverify: Server;
/** Accepts the connection and never answers. */
let silent: Server;

let siteverifyOrigin = '';
let silentOrigin = '';
/** Which fake answers for challenges.cloudflare.com in the current test. */
let turnstileTarget = '';
export let outbox = '';
export let tempDir = '';
export const realFetch = globalThis.fetch;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

export let shop: TestShop;

/** Rows stored in a table, oldest first. */
export async function stored(table: 'newsletter_subscriptions' | 'contact_submissions'): Promise<Array<Record<string, string>>> {
  const { data, error } = await shop.service().from(table).select('*').order('created_at');
  expect(error).toBeNull();
  return data as Array<Record<string, string>>;
}

/** Starts the file's embedded shop and the fake siteverify servers; each test starts with no rows, no mail and the passing fake. */
export function useSendNotification(): void {
  beforeAll(async () => {
    savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
    siteverify = createServer(answerSiteverify);
    silent = createServer(() => {});
    shop = await startTestShop();
    siteverifyOrigin = await listen(siteverify);
    silentOrigin = await listen(silent);
    tempDir = await mkdtemp(join(tmpdir(), 'send-notification-'));
  });

  afterAll(async () => {
    silent.closeAllConnections();
    await Promise.all([new Promise((r) => siteverify.close(r)), new Promise((r) => silent.close(r))]);
    await rm(tempDir, { recursive: true, force: true });
    await shop.close();
    for (const key of ENV_KEYS) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
  });

  let testNumber = 0;
  beforeEach(async () => {
    for (const table of ['newsletter_subscriptions', 'contact_submissions'] as const) {
      const { error } = await shop.service().from(table).delete().neq('id', '00000000-0000-0000-0000-000000000000');
      expect(error).toBeNull();
    }
    for (const key of ENV_KEYS) delete process.env[key];
    outbox = join(tempDir, `outbox-${++testNumber}.jsonl`);
    process.env.LOCAL_OUTBOX_FILE = outbox;
    turnstileTarget = siteverifyOrigin;
    siteverifyCalls.length = 0;
    // The Turnstile adapter calls Cloudflare; send those calls to the fake instead (everything else passes through).
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.origin === TURNSTILE_ORIGIN) return realFetch(`${turnstileTarget}${url.pathname}`, init);
      return realFetch(input, init);
    });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

/** The Turnstile call goes to a server that accepts it and never answers. */
export function turnstileNeverAnswers(): void {
  turnstileTarget = silentOrigin;
}

export function post(body: unknown, options: { raw?: boolean; url?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return handler(
    new Request(options.url ?? SITE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: options.raw ? (body as string) : JSON.stringify(body),
    }),
  );
}

export const NEWSLETTER = { type: 'newsletter', data: { email: 'parent@example.com.au' } } as const;
export const CONTACT = {
  type: 'contact',
  data: { name: 'Maria Rossi', email: 'maria@example.com.au', subject: 'Parish order', message: 'Could we order 30 copies\nfor our parish school?' },
} as const;
