/**
 * Checkout's *Apply*: whether a promotion code applies to this cart, and what it takes off. The cart is priced
 * here from the database (quantity prices included); the answer says only what the shopper needs (the discount,
 * or why the code cannot apply), never anything about other codes: one that has ended answers as one that never
 * existed. A body's other fields (the checkout's email, which older pages send) are ignored.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { codeRefusal } from '../src/features/checkout/promotion-code';
import { CheckoutRejection, cartInput, priceCart } from './_lib/checkout';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { checkPromotionCode, promotionCodeInput } from './_lib/promotion-codes';
import { serviceClient } from './_lib/supabase-admin';

const body = z.object({
  code: promotionCodeInput,
  cartItems: cartInput,
});

export default handleJson(body, async ({ code, cartItems }) => {
  if (!code) return problem(400, 'Please enter a code.');
  const db = serviceClient(readServerEnv());
  try {
    const { subtotal } = await priceCart(db, cartItems);
    const answer = await checkPromotionCode(db, code, subtotal);
    return json({ ...answer, subtotal, message: codeRefusal(answer) });
  } catch (error) {
    if (error instanceof CheckoutRejection) return json(error.body, error.status);
    throw error;
  }
});

// A low limit per client address: codes are short, and guessing them one request at a time should be slow. Netlify
// counts it in a sliding window (the local server too): never a 31st answer in any minute.
export const config: FunctionConfig = { path: '/api/promotion-code', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
