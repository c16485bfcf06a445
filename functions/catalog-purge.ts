/**
 * After the publisher sets stock in /admin: drops the CDN's cached live price and stock so shoppers see the
 * change at once. Staff only (asked of the database with the caller's own token).
 */
import { z } from 'zod';
import { staffEndpoint } from './_lib/back-office';
import { json, problem, type FunctionConfig } from './_lib/http';
import { purgeLiveCatalog } from './_lib/live-catalog';
import { selectCdnCache } from './_lib/providers/select';

/** What changed, for the log: the product whose stock was set. */
const purgeSchema = z.strictObject({ productId: z.string().trim().min(1, 'productId is missing').max(200) });

export default staffEndpoint(purgeSchema, async ({ env, staffEmail, body }) => {
  const purged = await purgeLiveCatalog(selectCdnCache(env), `${staffEmail} set the stock of ${body.productId}`);
  if (!purged) return problem(502, 'The stock is saved, but the shop pages may show the old stock for up to a minute.');
  return json({ message: 'The shop pages show the new stock.' });
});

export const config: FunctionConfig = { path: '/api/catalog-purge', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
