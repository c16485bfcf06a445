/**
 * The checkout page's look-up session: what the address suggestions and the delivery options must carry
 * (functions/_lib/lookup-session.ts). Sets the visitor cookie the session is bound to when there is none.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { handle, json, readJsonBody, type FunctionConfig } from './_lib/http';
import { issueLookupSession, SESSION_MINUTES } from './_lib/lookup-session';

export default handle(async (request) => {
  // Nothing to say but the (empty) body, read within the shop's body limit like every other.
  const parsed = await readJsonBody(request, z.object({}));
  if ('response' in parsed) return parsed.response;
  const { token, setCookie } = await issueLookupSession(readServerEnv(), request);
  return json({ session: token, expiresInSeconds: SESSION_MINUTES * 60 }, 200, setCookie ? { 'set-cookie': setCookie } : {});
});

// A session a page load (and one more per expiry): a few a minute is every real shopper of one address.
export const config: FunctionConfig = { path: '/api/lookup-session', method: ['POST'], rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
