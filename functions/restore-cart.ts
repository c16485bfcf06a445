/**
 * The cart behind a checkout reminder's link: the books of the unpaid order whose recovery token this is,
 * as they are now (today's price, what is in stock, quantities no larger than the stock). Books no longer for
 * sale or sold out are left out and counted, so the page can say so. Prices here are only what the cart
 * shows: checkout prices the order from the database again.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { RESTORE_MESSAGES, RESTORE_TOKEN_PATTERN, type RestoreAnswer } from '../src/features/cart/restore';
import { productFromRow } from '../src/features/catalog/product';
import { handle, json, problem, readJsonBody, type FunctionConfig } from './_lib/http';
import { findLinesByRecoveryToken } from './_lib/order-checkouts';
import { serviceClient } from './_lib/supabase-admin';

const body = z.object({ token: z.string().trim().regex(RESTORE_TOKEN_PATTERN, RESTORE_MESSAGES.unknown) });

export default handle(async (request) => {
  const parsed = await readJsonBody(request, body);
  if ('response' in parsed) return parsed.response;
  const db = serviceClient(readServerEnv());
  const wanted = await findLinesByRecoveryToken(db, parsed.data.token);
  if (!wanted) return problem(404, RESTORE_MESSAGES.unknown);
  const { data, error } = await db
    .from('products')
    .select('id, title, price, stock, weight, dimensions, image_url')
    .in(
      'id',
      wanted.map((line) => line.productId),
    )
    .eq('for_sale', true);
  if (error) throw error;
  const products = new Map(data.map((row) => productFromRow(row)).map((product) => [product.id, product]));
  const lines: RestoreAnswer['lines'] = [];
  for (const line of wanted) {
    const product = products.get(line.productId);
    if (!product || product.stock <= 0) continue;
    const { id, title, price, imageUrl, stock, weight, dimensions } = product;
    lines.push({ product: { id, title, price, imageUrl, stock, weight, dimensions }, quantity: Math.min(line.quantity, stock) });
  }
  const answer: RestoreAnswer = { lines, missing: wanted.length - lines.length };
  return json(answer);
});

export const config: FunctionConfig = { path: '/api/restore-cart', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
