/**
 * Delivery options for the checkout: the cart's parcel from database weights and sizes, quoted by the
 * carrier when one is configured, else the flat table; free shipping in Australia from the threshold.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { country } from '../src/features/checkout/order-fields';
import { CheckoutRejection, cartInput, priceCart, quotesFor } from './_lib/checkout';
import { type FunctionConfig, handleJson, json } from './_lib/http';
import { admitLookup, lookupSessionInput } from './_lib/lookup-session';
import { selectShippingRates } from './_lib/providers/select';
import { goodsAfterCode, promotionCodeInput } from './_lib/promotion-codes';
import { serviceClient } from './_lib/supabase-admin';

const text = (max: number) => z.string().trim().max(max).optional().default('');
const body = z
  .object({
    pickupPostcode: text(10),
    // Abroad the parcel is priced by the country and its weight; an Australian quote needs the postcode.
    deliveryPostcode: text(20),
    deliverySuburb: text(100),
    deliveryState: text(100),
    deliveryAddressLine1: text(200),
    deliveryAddressLine2: text(200),
    deliveryCountry: country,
    cart: cartInput,
    /** The code the shopper applied: free shipping is judged on the goods after it. */
    promotionCode: promotionCodeInput,
    /** The checkout page's look-up session (functions/_lib/lookup-session.ts). */
    lookupSession: lookupSessionInput,
  })
  .refine((request) => request.deliveryCountry !== 'AU' || request.deliveryPostcode.length > 0, { message: 'deliveryPostcode is required', path: ['deliveryPostcode'] });

export default handleJson(body, async ({ deliveryPostcode, deliverySuburb, deliveryState, deliveryCountry, cart, promotionCode, lookupSession }, request) => {
  const env = readServerEnv();
  const db = serviceClient(env);
  const admitted = await admitLookup(env, db, request, lookupSession, 'rates');
  if ('response' in admitted) return admitted.response;
  try {
    const { lines, subtotal } = await priceCart(db, cart);
    const goods = await goodsAfterCode(db, promotionCode, subtotal);
    const result = await quotesFor(selectShippingRates(env), lines, goods, { postalCode: deliveryPostcode, city: deliverySuburb, state: deliveryState, country: deliveryCountry });
    return json(result);
  } catch (error) {
    if (error instanceof CheckoutRejection) return json(error.body, error.status);
    throw error;
  }
});

export const config: FunctionConfig = { path: '/api/courier-rates', method: ['POST'], rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
