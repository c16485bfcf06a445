/** Starts the shop with an in-memory embedded backend for a test, and gives supabase-js clients for each role. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { getOrderNumber } from '../../functions/_lib/orders';
import { type ShopOptions, startShop, type Shop } from '../../local/shop';
import type { DataLocation } from '../../local/backend/database';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../local/backend/keys';
import { embeddedCopy } from './embedded-image';
import { useStarted } from './use-started';

export interface TestShop {
  shop: Shop;
  url: string;
  anon: () => SupabaseClient;
  service: () => SupabaseClient;
  /** Signs in through the local sign-in page with the PKCE flow, as a browser would. */
  signIn: (email: string, name?: string) => Promise<SupabaseClient>;
  /** The number the database gave an order, as it is written ("1001"). */
  orderNumber: (orderId: string) => Promise<string>;
  /** POSTs `body` as JSON to `/api/<fn>`, signed in as `as` when given: the status and the JSON answer (null when none). */
  post: (fn: string, body: unknown, as?: SupabaseClient | null) => Promise<{ status: number; body: Record<string, unknown> }>;
  close: () => Promise<void>;
}

/** Sets the variables for as long as a shop runs: what `restore` puts back is what was there before. */
function setEnv(env: Record<string, string>): { restore: () => void } {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  return {
    restore: () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
}

/**
 * `data`: a copy of the prepared database unless the test needs one built from its own book files ('memory');
 * `env`: variables the shop's functions read (an outbox file, a provider's key), set until it closes.
 */
export async function startTestShop(options: { jwtExpirySeconds?: number; data?: DataLocation; env?: Record<string, string> } & Pick<ShopOptions, 'distDir' | 'siteBuild'> = {}): Promise<TestShop> {
  const env = setEnv(options.env ?? {});
  const shop = await startShop({
    projectRoot: process.cwd(),
    port: 0,
    data: options.data ?? embeddedCopy(),
    jwtExpirySeconds: options.jwtExpirySeconds,
    distDir: options.distDir,
    siteBuild: options.siteBuild,
  });
  const url = shop.server.url;
  const make = (key: string, autoRefreshToken = false) =>
    createClient(url, key, { auth: { flowType: 'pkce', persistSession: true, autoRefreshToken, detectSessionInUrl: false, storage: memoryStorage() } });

  async function signIn(email: string, name = 'Test Shopper'): Promise<SupabaseClient> {
    const client = make(LOCAL_ANON_KEY);
    const { data, error } = await client.auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: `${url}/auth/callback`, skipBrowserRedirect: true },
    });
    if (error || !data.url) throw error ?? new Error('no authorize URL');
    const page = new URL(data.url);
    const form = new URLSearchParams({
      email,
      name,
      action: 'continue',
      redirect_to: page.searchParams.get('redirect_to') ?? '',
      code_challenge: page.searchParams.get('code_challenge') ?? '',
      code_challenge_method: page.searchParams.get('code_challenge_method') ?? 's256',
    });
    const answer = await fetch(`${url}/auth/v1/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    const code = new URL(answer.headers.get('location') ?? '', url).searchParams.get('code');
    if (!code) throw new Error(`sign-in gave no code (status ${answer.status})`);
    const exchanged = await client.auth.exchangeCodeForSession(code);
    if (exchanged.error) throw exchanged.error;
    return client;
  }

  async function post(fn: string, body: unknown, as?: SupabaseClient | null) {
    const token = as ? (await as.auth.getSession()).data.session?.access_token : undefined;
    const response = await fetch(`${url}/api/${fn}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  }

  const service = () => make(LOCAL_SERVICE_ROLE_KEY);
  const orderNumber = (orderId: string) => getOrderNumber(service(), orderId);
  const close = async () => {
    await shop.close();
    env.restore();
  };
  return { shop, url, anon: () => make(LOCAL_ANON_KEY), service, signIn, orderNumber, post, close };
}

/** The shop as a back-office test needs it: a staff member and a shopper signed in, and an outbox of its own. */
export interface BackOfficeShop extends TestShop {
  staff: SupabaseClient;
  shopper: SupabaseClient;
  /** The local email outbox this shop writes to (LOCAL_OUTBOX_FILE, given back on close). */
  outbox: string;
}

/**
 * Starts the shop with `staff` made staff and signed in (as `staffSignsInAs` when given, say in other case)
 * and `shopper` signed in; its emails go to an outbox file of its own, named after `name`.
 */
export async function startBackOfficeShop(name: string, people: { staff: string; shopper: string; staffSignsInAs?: string }): Promise<BackOfficeShop> {
  const outbox = join(mkdtempSync(join(tmpdir(), `${name}-`)), 'outbox.jsonl');
  const t = await startTestShop({ env: { LOCAL_OUTBOX_FILE: outbox } });
  const added = await t.service().from('staff_members').insert({ email: people.staff });
  if (added.error) throw added.error;
  const staff = await t.signIn(people.staffSignsInAs ?? people.staff);
  const shopper = await t.signIn(people.shopper);
  return { ...t, staff, shopper, outbox };
}

/** `startBackOfficeShop` for the test file (or describe block): started before its tests, closed after them. */
export function useBackOfficeShop(name: string, people: { staff: string; shopper: string; staffSignsInAs?: string }): BackOfficeShop {
  return useStarted(() => startBackOfficeShop(name, people));
}

/** `startTestShop` for the test file (or describe block): started before its tests, closed after them. */
export function useTestShop(options: Parameters<typeof startTestShop>[0] = {}): TestShop {
  return useStarted(() => startTestShop(options));
}
