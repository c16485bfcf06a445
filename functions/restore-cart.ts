/**
 * The cart behind a checkout reminder's link: the books of the unpaid order whose recovery token this is,
 * as they are now (today's price, what can be bought, quantities no larger than the copies in stock or left to
 * pre-order). Books no longer for sale or sold out are left out and counted, so the page can say so. Prices here are only what the cart
 * shows: checkout prices the order from the database again.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { RESTORE_MESSAGES, RESTORE_TOKEN_PATTERN, type RestoreAnswer } from '../src/features/cart/restore';
import { copiesAvailable, productFromRow } from '../src/features/catalog/product';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { readLiveCatalog } from './_lib/live-catalog';
import { findLinesByRecoveryToken } from './_lib/order-checkouts';
import { serviceClient } from './_lib/supabase-admin';

const body = z.object({ token: z.string().trim().regex(RESTORE_TOKEN_PATTERN, RESTORE_MESSAGES.unknown) });

export default handleJson(body, async (input) => {
  const db = serviceClient(readServerEnv());
  const wanted = await findLinesByRecoveryToken(db, input.token);
  if (!wanted) return problem(404, RESTORE_MESSAGES.unknown);
  const rows = await readLiveCatalog(
    db,
    wanted.map((line) => line.productId),
  );
  const products = new Map(rows.map((row) => productFromRow(row)).map((product) => [product.id, product]));
  const lines: RestoreAnswer['lines'] = [];
  for (const line of wanted) {
    const product = products.get(line.productId);
    // In stock, or left to pre-order for a title on pre-order: the copies checkout will accept.
    const available = product ? copiesAvailable(product) : 0;
    if (!product || available <= 0) continue;
    const { id, title, price, imageUrl, stock, weight, dimensions } = product;
    lines.push({ product: { id, title, price, imageUrl, stock, weight, dimensions }, quantity: Math.min(line.quantity, available) });
  }
  const answer: RestoreAnswer = { lines, missing: wanted.length - lines.length };
  return json(answer);
});

export const config: FunctionConfig = { path: '/api/restore-cart', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
