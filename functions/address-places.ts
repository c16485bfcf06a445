/** Address autocomplete for the checkout: suggestions as the shopper types, then one normalised address. */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { country } from './_lib/checkout';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { selectAddressLookup } from './_lib/providers/select';
import { ProviderError } from './_lib/providers/errors';

const sessionToken = z
  .string()
  .trim()
  .max(100)
  .regex(/^[A-Za-z0-9-]*$/)
  .optional()
  .default('');
const body = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('suggest'), input: z.string().trim().max(200), country, sessionToken }),
    z.object({ action: z.literal('details'), place_id: z.string().trim().min(1, 'place_id is required').max(300), sessionToken }),
  ],
  { error: 'action must be "suggest" or "details".' },
);

export default handle(async (request) => {
  const parsed = await readJsonBody(request, body);
  if ('response' in parsed) return parsed.response;
  const lookup = selectAddressLookup(readServerEnv());
  const input = parsed.data;
  try {
    if (input.action === 'suggest') {
      // Fewer than 3 characters: no suggestions (manual entry always works).
      if (input.input.length < 3) return json({ predictions: [] });
      return json({ predictions: await lookup.suggest(input.input, input.country, input.sessionToken) });
    }
    return json({ ok: true, address: await lookup.details(input.place_id, input.sessionToken) });
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'unsupported') return problem(404, 'Address lookup is not available; please type the address.');
    if (error instanceof ProviderError) return problem(502, 'Address lookup is unavailable right now; please type the address.');
    throw error;
  }
});

export const config: FunctionConfig = { path: '/api/address-places', method: ['POST'], rateLimit: { windowLimit: 300, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
