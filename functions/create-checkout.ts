/**
 * Checkout: prices the cart from the database and the delivery option from a server-side quote, writes the
 * pending order with its items in one transaction, opens the payment session and links it to the order.
 * The browser's prices are never read. The payment provider is chosen before anything is written, so a
 * deploy without payments configured answers 503 and leaves no order behind.
 */
import { z } from 'zod';
import { readServerEnv } from '../src/config/env';
import { subtractDollars, sumDollars, toCents } from '../src/lib/money';
import { codeRefusal } from '../src/features/checkout/promotion-code';
import { CART_ID_PATTERN, CHECKOUT_MESSAGES } from '../src/features/checkout/contract';
import { email, giftRecipientNamed, giftSchema, reminderConsentSchema, shippingDetailsSchema } from '../src/features/checkout/order-fields';
import { excludedPaymentMethods } from '../src/features/checkout/payment-methods';
import { CheckoutRejection, cartInput, deliveryDays, lineName, priceCart, quotesFor } from './_lib/checkout';
import { checkPromotionCode, PromotionCodeRefused, promotionCodeInput } from './_lib/promotion-codes';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { CartCheckoutOpen, createOrder, recordCheckoutChoices } from './_lib/orders';
import { linkCheckoutSession, openCheckoutsOfCart } from './_lib/order-checkouts';
import { preorderTitles } from './_lib/live-catalog';
import { cartKey, closeOtherPages, reusablePage } from './_lib/cart-checkout';
import { selectPaymentProvider, selectShippingRates } from './_lib/providers/select';
import { serviceClient, userIdFromRequest } from './_lib/supabase-admin';
import { siteOrigin } from './_lib/runtime';

const body = z
  .object({
    cartItems: cartInput,
    shippingDetails: shippingDetailsSchema,
    customerEmail: email,
    /** One promotion code; the server checks it and prices it, whatever the page showed. */
    promotionCode: promotionCodeInput,
    successUrl: z.url().max(500).optional(),
    cancelUrl: z.url().max(500).optional(),
    gift: giftSchema,
    reminderConsent: reminderConsentSchema,
    /** The browser's id of its cart: one cart, one payment page open. */
    cartId: z.string().regex(CART_ID_PATTERN, 'cartId must be 8 to 100 letters, digits, - or _.').optional(),
  })
  .superRefine(giftRecipientNamed);

/** Return addresses must be on this site: a checkout can't be made to send a buyer elsewhere. */
function sameOrigin(url: string | undefined, origin: string, fallback: string): string | null {
  if (!url) return fallback;
  return new URL(url).origin === origin ? url : null;
}

export default handleJson(body, async (input, request) => {
  const { cartItems, shippingDetails, customerEmail, gift, reminderConsent, promotionCode, cartId } = input;
  // The page's own origin is where it may return to (a deploy preview's too); a missing address is made from the
  // shop's configured origin, never from the request's.
  const origin = new URL(request.url).origin;
  const env = readServerEnv();
  const home = siteOrigin(env, request);
  const successUrl = sameOrigin(input.successUrl, origin, `${home}/order-confirmation?session_id={CHECKOUT_SESSION_ID}`);
  const cancelUrl = sameOrigin(input.cancelUrl, origin, `${home}/cart`);
  if (!successUrl || !cancelUrl) return problem(400, 'successUrl and cancelUrl must be addresses on this site.');
  const success = successUrl.includes('{CHECKOUT_SESSION_ID}') ? successUrl : `${successUrl}${successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;

  const payments = selectPaymentProvider(env);
  const db = serviceClient(env);
  try {
    const { lines, subtotal } = await priceCart(db, cartItems);
    const code = promotionCode ? await checkPromotionCode(db, promotionCode, subtotal) : null;
    if (code && code.status !== 'ok') return json({ error: codeRefusal(code), promotionCode: code }, 409);
    const discount = code?.discount ?? 0;
    // Free shipping is judged on the goods after the code.
    const goods = subtractDollars(subtotal, discount);
    const shipping = await quotesFor(selectShippingRates(env), lines, goods, shippingDetails);
    const method = shipping.quotes.find((q) => q.id === shippingDetails.shippingMethod.id);
    // The carrier's options changed since the page asked (a live quote then, the fallback now, or the reverse):
    // the current ones go back so the page can offer them again.
    if (!method) return json({ error: CHECKOUT_MESSAGES.optionsChanged, quotes: shipping.quotes, ...(shipping.fallback && { message: shipping.message }) }, 409);

    const { fullName, email: _ignored, shippingMethod: _chosen, ...address } = shippingDetails;
    const key = cartKey({ lines, email: customerEmail, address, fullName, method, promotionCode: code?.code ?? null, discount, gift, reminderConsent });
    if (cartId) {
      // One cart, one payment page: the same cart, address and delivery get the page already open; anything
      // changed closes the older page (at the provider) and cancels its order before a new one is made.
      const open = await openCheckoutsOfCart(db, cartId);
      const same = reusablePage(open, key);
      await closeOtherPages(db, payments, open, same?.id ?? null);
      if (same) return json({ url: same.url, sessionId: same.sessionId, orderId: same.id, reused: true });
    }
    const orderId = await createOrder(db, {
      cartId: cartId ?? null,
      cartKey: key,
      userId: await userIdFromRequest(db, request),
      customerEmail,
      customerName: fullName,
      subtotal,
      promotionCode: code?.code ?? null,
      discount,
      shippingAmount: method.price,
      total: sumDollars(goods, method.price),
      shippingAddress: address,
      shippingMethod: { id: method.id, name: method.plan_name, carrier: method.carrier, price: method.price, estimatedDelivery: method.eta.days_range },
      paymentProvider: payments.name,
      items: lines.map((l) => ({ productId: l.productId, title: l.title, quantity: l.quantity, unitPrice: l.unitPrice })),
    });
    // Before the payment page exists: an order whose gift details could not be kept is never paid for.
    await recordCheckoutChoices(db, orderId, { gift, reminderConsent });

    const session = await payments.createCheckoutSession({
      orderId,
      customerEmail,
      lineItems: lines.map((l) => ({ name: lineName(l), unitAmountCents: toCents(l.unitPrice), quantity: l.quantity })),
      discount: code?.code && discount > 0 ? { name: `Code ${code.code}`, amountOffCents: toCents(discount) } : null,
      shipping: { name: method.plan_name, amountCents: toCents(method.price), deliveryDays: deliveryDays(method) },
      successUrl: success,
      cancelUrl,
      idempotencyKey: `checkout-${orderId}`,
      // Charged in full today: a pre-order is never offered a pay-later method.
      excludedPaymentMethods: excludedPaymentMethods(
        (
          await preorderTitles(
            db,
            lines.map((l) => l.productId),
          )
        ).length > 0,
      ),
    });
    if (!(await linkCheckoutSession(db, orderId, session))) {
      // Another tab's checkout of this cart replaced the order while its page was being made: that page closes
      // too, so only the other tab's can take a payment.
      await payments.expireSession(session.id).catch((error) => console.error(`[checkout] could not close payment page ${session.id} of replaced order ${orderId}`, error));
      return problem(409, CHECKOUT_MESSAGES.cartCheckoutOpen);
    }
    return json({ url: session.url, sessionId: session.id, orderId });
  } catch (error) {
    if (error instanceof CheckoutRejection) return json(error.body, error.status);
    if (error instanceof CartCheckoutOpen) return problem(409, CHECKOUT_MESSAGES.cartCheckoutOpen);
    // The code ended or its last use was paid for meanwhile: nothing was written, and the shopper is told why.
    if (error instanceof PromotionCodeRefused) return json({ error: codeRefusal(error.answer), promotionCode: error.answer }, 409);
    throw error;
  }
});

export const config: FunctionConfig = { path: '/api/create-checkout', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
