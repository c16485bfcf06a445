/**
 * GET /api/xero-callback — where Xero's consent screen sends the publisher back (the redirect URI registered in the
 * Xero app): the state checked against the Connect press, the code exchanged, the chosen organisation kept with its
 * refresh token sealed. Then back to /admin#accounts, with what happened in the address for the section to show.
 */
import { readServerEnv } from '../src/config/env';
import { handle, type FunctionConfig } from './_lib/http';
import { ACCOUNTING_NOT_SET_UP, selectAccounting } from './_lib/providers/select';
import { siteOrigin } from './_lib/runtime';
import { serviceClient } from './_lib/supabase-admin';
import { finishConnect } from './_lib/xero-connection';

const back = (origin: string, params: Record<string, string>) => Response.redirect(`${origin}/admin#accounts?${new URLSearchParams(params)}`, 303);

export default handle(async (request) => {
  const env = readServerEnv();
  const origin = siteOrigin(env, request);
  const url = new URL(request.url);
  const accounting = selectAccounting(env);
  if (!accounting) return back(origin, { problem: ACCOUNTING_NOT_SET_UP });
  // The publisher pressed Cancel on Xero's consent screen, or Xero refused the app.
  const refused = url.searchParams.get('error');
  if (refused) return back(origin, { problem: `Xero did not connect the shop (${refused.slice(0, 100)}). Press Connect to Xero to try again.` });
  const code = url.searchParams.get('code');
  const state = url.searchParams.get('state');
  if (!code || !state || code.length > 2000 || state.length > 200) return back(origin, { problem: 'Xero sent the publisher back without its answer. Press Connect to Xero again.' });
  try {
    const organisation = await finishConnect(serviceClient(env), env, accounting, origin, code, state);
    return back(origin, { connected: organisation });
  } catch (error) {
    return back(origin, { problem: error instanceof Error ? error.message.slice(0, 300) : 'Xero did not connect the shop. Press Connect to Xero again.' });
  }
});

export const config: FunctionConfig = { path: '/api/xero-callback', method: ['GET'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
