/**
 * Address autocomplete for the checkout: suggestions as the shopper types, then one normalised address. Each
 * look-up needs the checkout page's session and counts against the visitor's limit (functions/_lib/lookup-session.ts);
 * the Places session token is the one the session carries, and the details call answers a new session.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { country } from '../src/features/checkout/order-fields';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { admitLookup, lookupSessionInput, renewLookupSession } from './_lib/lookup-session';
import { selectAddressLookup } from './_lib/providers/select';
import { ProviderError } from './_lib/providers/errors';
import { serviceClient } from './_lib/supabase-admin';

const body = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('suggest'), input: z.string().trim().max(200), country, lookupSession: lookupSessionInput }),
    z.object({ action: z.literal('details'), place_id: z.string().trim().min(1, 'place_id is required').max(300), lookupSession: lookupSessionInput }),
  ],
  { error: 'action must be "suggest" or "details".' },
);

export default handleJson(body, async (input, request) => {
  // Fewer than 3 characters: no suggestions (manual entry always works), and nothing counted.
  if (input.action === 'suggest' && input.input.length < 3) return json({ predictions: [] });
  const env = readServerEnv();
  const admitted = await admitLookup(env, serviceClient(env), request, input.lookupSession, 'places');
  if ('response' in admitted) return admitted.response;
  const { session } = admitted;
  const lookup = selectAddressLookup(env);
  try {
    if (input.action === 'suggest') return json({ predictions: await lookup.suggest(input.input, input.country, session.placesSession) });
    const address = await lookup.details(input.place_id, session.placesSession);
    // The details call ends Google's session: the next address gets a new one.
    return json({ ok: true, address, lookupSession: await renewLookupSession(env, session) });
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'unsupported') return problem(404, 'Address lookup is not available; please type the address.');
    if (error instanceof ProviderError) return problem(502, 'Address lookup is unavailable right now; please type the address.');
    throw error;
  }
});

// The visitor's limit is counted in the database (LOOKUP_SESSION.perMinute); Netlify's per-address limit stays
// above it as a first gate.
export const config: FunctionConfig = { path: '/api/address-places', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
