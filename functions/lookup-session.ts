/**
 * The checkout page's look-up session: what the address suggestions and the delivery options must carry
 * (functions/_lib/lookup-session.ts). Sets the visitor cookie the session is bound to when there is none.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { type FunctionConfig, handleJson, json } from './_lib/http';
import { issueLookupSession, SESSION_MINUTES } from './_lib/lookup-session';

// Nothing to say but the (empty) body, read within the shop's body limit like every other.
export default handleJson(z.object({}), async (_body, request) => {
  const { token, setCookie } = await issueLookupSession(readServerEnv(), request);
  return json({ session: token, expiresInSeconds: SESSION_MINUTES * 60 }, 200, setCookie ? { 'set-cookie': setCookie } : {});
});

// A session a checkout page load (and one more per expiry). Many shoppers can share one address (a school's network,
// a phone carrier's), so the cap is generous: what a look-up costs is held by each visitor's own limit and by the
// look-up functions' own limits per address.
export const config: FunctionConfig = { path: '/api/lookup-session', method: ['POST'], rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
