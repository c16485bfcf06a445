/**
 * The connection to Xero: the refresh token sealed with AES-256-GCM (node:crypto; the key XERO_TOKEN_KEY, 32 bytes
 * in base64) before it reaches the database, where only the service role reads it; the OAuth state of a Connect
 * press; and a fresh access token for each run, whose rotated refresh token is sealed and stored at once.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import type { ServerEnv } from '../../src/config/env';
import { ConfigurationError, localStandInsAllowed } from './runtime';
import { type AccountingProvider, AccountingConnectionLapsed } from './providers/accounting';

/** Xero's refresh token lapses 60 days after its last use. */
const REFRESH_TOKEN_DAYS = 60;
/** The publisher has ten minutes on Xero's consent screen. */
const STATE_MINUTES = 10;
/** Locally only: the stand-in's tokens are sealed with a fixed key, as the other local secrets are. */
const LOCAL_TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');

export function tokenKey(env: ServerEnv): Buffer {
  const configured = env.XERO_TOKEN_KEY;
  if (!configured) {
    if (localStandInsAllowed(env)) return Buffer.from(LOCAL_TOKEN_KEY, 'base64');
    const missing = 'XERO_TOKEN_KEY is not set for the functions: the Xero connection cannot be kept (openssl rand -base64 32, see docs/deploy.md).';
    throw new ConfigurationError(missing, missing);
  }
  const key = Buffer.from(configured, 'base64');
  if (key.length !== 32) {
    const wrong = 'XERO_TOKEN_KEY must be 32 bytes in base64 (openssl rand -base64 32): the Xero connection cannot be kept.';
    throw new ConfigurationError(wrong, wrong);
  }
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function sealToken(token: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function openToken(sealed: string, key: Buffer): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('The stored Xero token is not one this shop sealed.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

/** Where Xero sends the publisher back: registered in the Xero app exactly so. */
export const xeroRedirectUri = (origin: string) => `${origin}/api/xero-callback`;

/** A Connect press: a state kept (hashed) for ten minutes, and Xero's consent page to send the publisher to. */
export async function beginConnect(db: SupabaseClient, accounting: AccountingProvider, origin: string, staffEmail: string): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  const { error } = await db
    .from('xero_connection')
    .update({ pending_state_hash: hashOf(state), pending_state_expires_at: new Date(Date.now() + STATE_MINUTES * 60_000).toISOString(), pending_by: staffEmail })
    .eq('id', true);
  if (error) throw new Error(`The Xero connection could not be started: ${error.message}`);
  return accounting.authorizeUrl(state, xeroRedirectUri(origin));
}

const connectionRow = z.object({
  tenant_id: z.string().nullable(),
  tenant_name: z.string().nullable(),
  refresh_token_sealed: z.string().nullable(),
  start_on: z.string().nullable(),
  pending_state_hash: z.string().nullable(),
  pending_state_expires_at: z.string().nullable(),
  pending_by: z.string().nullable(),
});

async function readConnection(db: SupabaseClient) {
  const { data, error } = await db.from('xero_connection').select('*').eq('id', true).maybeSingle();
  if (error) throw new Error(`The Xero connection could not be read: ${error.message}`);
  return data ? connectionRow.parse(data) : null;
}

const sydneyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());

/**
 * Xero's answer to a Connect press: the state checked, the code exchanged, the organisation just chosen (the newest
 * connection) kept with the sealed refresh token. Answers the organisation's name, or throws a sentence to show.
 */
export async function finishConnect(db: SupabaseClient, env: ServerEnv, accounting: AccountingProvider, origin: string, code: string, state: string): Promise<string> {
  const row = await readConnection(db);
  if (!row?.pending_state_hash || row.pending_state_hash !== hashOf(state) || !row.pending_state_expires_at || Date.parse(row.pending_state_expires_at) < Date.now()) {
    throw new Error('This answer from Xero is not for a Connect press of this shop, or it came after ten minutes. Press Connect to Xero again.');
  }
  const tokens = await accounting.exchangeCode(code, xeroRedirectUri(origin));
  const tenants = await accounting.tenants(tokens.accessToken);
  const chosen = tenants.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  if (!chosen) throw new Error('Xero gave access to no organisation. Press Connect to Xero again and choose the organisation.');
  // The same organisation again keeps its first day; another starts from XERO_START_DATE, else today.
  const startOn = row.tenant_id === chosen.tenantId && row.start_on ? row.start_on : (env.XERO_START_DATE ?? sydneyToday());
  const { error } = await db
    .from('xero_connection')
    .update({
      tenant_id: chosen.tenantId,
      tenant_name: chosen.tenantName,
      refresh_token_sealed: sealToken(tokens.refreshToken, tokenKey(env)),
      refresh_expires_at: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86_400_000).toISOString(),
      start_on: startOn,
      connected_at: new Date().toISOString(),
      connected_by: row.pending_by,
      renewal_reason: null,
      pending_state_hash: null,
      pending_state_expires_at: null,
      pending_by: null,
    })
    .eq('id', true);
  if (error) throw new Error(`The Xero connection could not be kept: ${error.message}`);
  return chosen.tenantName;
}

export interface OpenConnection {
  tenantId: string;
  tenantName: string;
  accessToken: string;
  /** The first Sydney day posted (yyyy-mm-dd): Stripe's payouts are listed from it. */
  startOn: string;
}

/**
 * A fresh access token for the connected organisation, or null when none is connected. The rotated refresh token is
 * stored before anything else happens; a refused one marks the connection as needing renewal, with Xero's reason.
 */
export async function openConnection(db: SupabaseClient, env: ServerEnv, accounting: AccountingProvider): Promise<OpenConnection | { lapsed: string } | null> {
  const row = await readConnection(db);
  if (!row?.tenant_id || !row.refresh_token_sealed) return null;
  const key = tokenKey(env);
  try {
    const tokens = await accounting.refresh(openToken(row.refresh_token_sealed, key));
    const { error } = await db
      .from('xero_connection')
      .update({ refresh_token_sealed: sealToken(tokens.refreshToken, key), refresh_expires_at: new Date(Date.now() + REFRESH_TOKEN_DAYS * 86_400_000).toISOString(), renewal_reason: null })
      .eq('id', true);
    if (error) throw new Error(`The new Xero refresh token could not be kept: ${error.message}`);
    return {
      tenantId: row.tenant_id,
      tenantName: row.tenant_name ?? row.tenant_id,
      accessToken: tokens.accessToken, // The embedded backend answers a date as a timestamp at UTC midnight: its day is the first ten characters.
      startOn: (row.start_on ?? sydneyToday()).slice(0, 10),
    };
  } catch (error) {
    if (!(error instanceof AccountingConnectionLapsed)) throw error;
    await db
      .from('xero_connection')
      .update({ renewal_reason: error.message.slice(0, 500) })
      .eq('id', true);
    return { lapsed: error.message };
  }
}
