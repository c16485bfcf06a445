/**
 * After the publisher sets stock in /admin: drops the CDN's cached live price and stock so shoppers see the
 * change at once. Staff only (asked of the database with the caller's own token).
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { checkStaff } from './_lib/back-office';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { purgeLiveCatalog } from './_lib/live-catalog';
import { selectCdnCache } from './_lib/providers/select';

/** What changed, for the log: the product whose stock was set. */
const purgeSchema = z.strictObject({ productId: z.string().trim().min(1, 'productId is missing').max(200) });

export default handle(async (request) => {
  const env = readServerEnv();
  const staff = await checkStaff(env, request);
  if (!staff.ok) return problem(staff.status, staff.message);
  const parsed = await readJsonBody(request, purgeSchema);
  if ('response' in parsed) return parsed.response;
  const purged = await purgeLiveCatalog(selectCdnCache(env), `${staff.email} set the stock of ${parsed.data.productId}`);
  if (!purged) return problem(502, 'The stock is saved, but the shop pages may show the old stock for up to a minute.');
  return json({ message: 'The shop pages show the new stock.' });
});

export const config: FunctionConfig = { path: '/api/catalog-purge', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
