/**
 * Stripe Checkout through the official `stripe` package: create and read Checkout Sessions, refund a session's
 * payment, list the payouts and their balance transactions (for the books in Xero), and verify webhooks.
 * Only the Stripe adapters import the SDK (through stripe-client.ts); everything else sees PaymentSession and PaymentEvent.
 */
import type Stripe from 'stripe';
import { z } from 'zod';
import { ProviderError } from './errors';
import { PAGE_WITH_CODE_OPEN_SECONDS } from './payments';
import { askStripe, createStripeClient, invalid, NAME, type StripeOptions, verifiedStripeEvent } from './stripe-client';
import { STRIPE_INVOICE_WEBHOOK_EVENTS } from './stripe-invoicing';
import { shopDay } from '../../../src/lib/format';
import { DEFERRED_PAYMENT_METHODS } from '../../../src/features/checkout/payment-methods';
import type { CheckoutSessionInput, CreatedSession, PaymentEvent, PaymentProvider, PaymentRefund, PaymentSession, Payout, PayoutTransaction, RefundInput } from './payments';

const checkoutInputSchema = z.object({
  orderId: z.string().min(1).max(200),
  customerEmail: z.string().min(3),
  lineItems: z.array(z.object({ name: z.string().min(1), unitAmountCents: z.number().int().nonnegative(), quantity: z.number().int().positive() })).min(1),
  discount: z
    .object({ name: z.string().min(1).max(40), amountOffCents: z.number().int().positive() })
    .nullable()
    .optional(),
  shipping: z.object({
    name: z.string().min(1),
    amountCents: z.number().int().nonnegative(),
    deliveryDays: z
      .object({ min: z.number().int().positive(), max: z.number().int().positive() })
      .refine((d) => d.min <= d.max, 'shipping.deliveryDays.min must not exceed max')
      .nullable(),
  }),
  successUrl: z.url().refine((url) => url.includes('{CHECKOUT_SESSION_ID}'), 'successUrl must contain {CHECKOUT_SESSION_ID}'),
  cancelUrl: z.url(),
  idempotencyKey: z.string().min(1).max(255),
  excludedPaymentMethods: z.array(z.enum(DEFERRED_PAYMENT_METHODS)).optional(),
});

/** Stripe answers when the page closes (Unix seconds): what the order's hold on a code lasts. */
const createdSchema = z.object({ id: z.string().min(1), url: z.url(), expires_at: z.number().int().positive().nullable().optional() });
const couponSchema = z.object({ id: z.string().min(1) });

/** The fields of a Checkout Session we act on; Stripe's `status` can be null on old sessions, which are still open. */
const sessionSchema = z
  .object({
    object: z.literal('checkout.session').optional(),
    id: z.string().min(1),
    status: z.enum(['open', 'complete', 'expired']).nullable(),
    payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
    amount_total: z.number().int().nullable().optional(),
    currency: z.string().nullable().optional(),
    customer_details: z.object({ name: z.string().nullable().optional() }).nullable().optional(),
  })
  .transform(
    (s): PaymentSession => ({
      id: s.id,
      status: s.status ?? 'open',
      paymentStatus: s.payment_status,
      amountTotalCents: s.amount_total ?? null,
      currency: s.currency ?? null,
      payerName: s.customer_details?.name?.trim() || null,
    }),
  );

/**
 * Stripe's Checkout events as what the shop does about them. A completed session whose payment is still
 * on its way (bank debits) waits for async_payment_succeeded; an expired session or a failed delayed
 * payment cancels the unpaid order. Every other event is ignored.
 */
function actionFor(type: string, session: PaymentSession): 'fulfil' | 'cancel' | 'ignore' {
  switch (type) {
    case 'checkout.session.completed':
      return session.paymentStatus === 'unpaid' ? 'ignore' : 'fulfil';
    case 'checkout.session.async_payment_succeeded':
      return 'fulfil';
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      return 'cancel';
    default:
      return 'ignore';
  }
}

/** The Checkout events the shop acts on. */
const CHECKOUT_WEBHOOK_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired'] as const;

/** Every webhook event the shop acts on, Checkout's and Invoicing's: the Stripe webhook endpoint must send these. */
export const STRIPE_WEBHOOK_EVENTS = [...CHECKOUT_WEBHOOK_EVENTS, ...STRIPE_INVOICE_WEBHOOK_EVENTS] as const;

/** The payment behind a session: an id, or the expanded object when a caller asked for it. */
const sessionPaymentSchema = z.object({
  payment_intent: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).transform((pi) => pi.id)]).nullable(),
});

const refundSchema = z.object({ id: z.string().min(1), status: z.enum(['pending', 'succeeded', 'failed', 'requires_action', 'canceled']) });
const refundListSchema = z.object({
  data: z.array(refundSchema.extend({ metadata: z.record(z.string(), z.string()).nullable().optional() })),
});

/** GET /v1/payouts and /v1/balance_transactions answer pages of up to 100, `has_more` when there are more. */
const payoutListSchema = z.object({
  has_more: z.boolean(),
  data: z.array(z.object({ id: z.string().min(1), amount: z.number().int(), arrival_date: z.number().int(), status: z.string() })),
});
const balanceListSchema = z.object({
  has_more: z.boolean(),
  data: z.array(z.object({ id: z.string().min(1), type: z.string(), amount: z.number().int(), fee: z.number().int() })),
});

/** Every page of a Stripe list, following `starting_after` while Stripe says there is more. */
async function allPages<T extends { id: string }>(page: (startingAfter: string | undefined) => Promise<{ has_more: boolean; data: T[] }>): Promise<T[]> {
  const all: T[] = [];
  for (;;) {
    const { has_more: more, data } = await page(all.at(-1)?.id);
    all.push(...data);
    if (!more || data.length === 0) return all;
  }
}

export function createStripePayments(options: StripeOptions): PaymentProvider {
  // Made once per module load, not per request: connections and settings are reused across invocations.
  const stripe = createStripeClient(options);

  /** The payment intent behind a paid checkout session (what refunds are made against). */
  async function paymentOf(sessionId: string, action: string): Promise<string> {
    const { payment_intent: paymentIntent } = await askStripe(action, sessionPaymentSchema, 'a checkout session', () => stripe.checkout.sessions.retrieve(sessionId));
    if (!paymentIntent) throw new ProviderError(NAME, 409, `Checkout session ${sessionId} has no payment to refund.`, { code: 'rejected' });
    return paymentIntent;
  }

  return {
    name: 'stripe',

    async createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedSession> {
      const checked = checkoutInputSchema.safeParse(input);
      if (!checked.success) throw new TypeError(`Invalid checkout session input: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      const { orderId, customerEmail, lineItems, shipping, successUrl, cancelUrl, idempotencyKey, discount, excludedPaymentMethods } = checked.data;
      const goodsCents = lineItems.reduce((sum, item) => sum + item.unitAmountCents * item.quantity, 0);
      if (discount && discount.amountOffCents > goodsCents) throw new TypeError('Invalid checkout session input: discount.amountOffCents is more than the goods');
      // A promotion code's discount is a coupon of this order's own, for exactly the amount the shop priced: Stripe
      // takes a coupon off the line items' subtotal, never the shipping, so the session's amount_total is the
      // order's total and the webhook's amount check holds. One redemption, for this session only.
      const coupon = discount
        ? await askStripe('create the discount for the checkout session', couponSchema, 'a coupon', () =>
            stripe.coupons.create(
              { amount_off: discount.amountOffCents, currency: 'aud', duration: 'once', max_redemptions: 1, name: discount.name, metadata: { order_id: orderId } },
              { idempotencyKey: `${idempotencyKey}-coupon` },
            ),
          )
        : null;

      // An unpaid order holds one use of its code: the payment page closes after PAGE_WITH_CODE_OPEN_SECONDS, and
      // the use goes back then (at once, when the expired webhook cancels the order).
      const expiresAt = coupon ? Math.floor(Date.now() / 1000) + PAGE_WITH_CODE_OPEN_SECONDS : undefined;
      const created = await askStripe('create the checkout session', createdSchema, 'a checkout session without a payment page URL', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            currency: 'aud',
            customer_email: customerEmail,
            client_reference_id: orderId,
            line_items: lineItems.map((item) => ({
              quantity: item.quantity,
              price_data: { currency: 'aud', unit_amount: item.unitAmountCents, product_data: { name: item.name } },
            })),
            shipping_options: [
              {
                shipping_rate_data: {
                  type: 'fixed_amount',
                  fixed_amount: { amount: shipping.amountCents, currency: 'aud' },
                  display_name: shipping.name,
                  // No estimate is better than an invented one (international parcels are confirmed by the seller).
                  ...(shipping.deliveryDays && {
                    delivery_estimate: {
                      minimum: { unit: 'business_day', value: shipping.deliveryDays.min },
                      maximum: { unit: 'business_day', value: shipping.deliveryDays.max },
                    },
                  }),
                },
              },
            ],
            ...(coupon && { discounts: [{ coupon: coupon.id }], expires_at: expiresAt }),
            // Methods the dashboard turns on but this order must not offer (pay-later, for a pre-order).
            ...(excludedPaymentMethods?.length && { excluded_payment_method_types: excludedPaymentMethods }),
            success_url: successUrl,
            cancel_url: cancelUrl,
            // The order id rides on the session and on the payment, so either can be traced back to the order.
            metadata: { order_id: orderId },
            payment_intent_data: { metadata: { order_id: orderId } },
          },
          { idempotencyKey },
        ),
      );
      const closes = created.expires_at ?? expiresAt;
      return { id: created.id, url: created.url, expiresAt: closes ? new Date(closes * 1000).toISOString() : null };
    },

    async retrieveSession(id: string): Promise<PaymentSession> {
      return askStripe('read the checkout session', sessionSchema, 'a checkout session', () => stripe.checkout.sessions.retrieve(id));
    },

    async expireSession(id: string): Promise<PaymentSession> {
      try {
        // POST /v1/checkout/sessions/{id}/expire: only an open session can be expired; the answer is the expired session.
        return await askStripe('close the checkout session', sessionSchema, 'a checkout session', () => stripe.checkout.sessions.expire(id));
      } catch (error) {
        // Stripe refuses (400) a session that is no longer open: completed (paid) or expired already. What it is now decides.
        if (error instanceof ProviderError && error.status === 400) return askStripe('read the checkout session', sessionSchema, 'a checkout session', () => stripe.checkout.sessions.retrieve(id));
        throw error;
      }
    },

    async refundSession(sessionId: string, { orderId, idempotencyKey, amountCents, reason, partRefundId }: RefundInput): Promise<PaymentRefund> {
      if (amountCents !== undefined && (!Number.isInteger(amountCents) || amountCents < 1)) throw new TypeError('A part refund is a whole number of cents, at least 1.');
      const paymentIntent = await paymentOf(sessionId, 'read the checkout session to refund');
      // Without an amount Stripe refunds what is left of the payment (all of it, when nothing was refunded in part).
      const params: Stripe.RefundCreateParams =
        amountCents === undefined
          ? { payment_intent: paymentIntent, metadata: { order_id: orderId, reason: 'sold_out_at_fulfilment' } }
          : {
              payment_intent: paymentIntent,
              amount: amountCents,
              metadata: { order_id: orderId, reason: 'part_refund', note: (reason ?? '').slice(0, 500), ...(partRefundId && { part_refund_id: partRefundId }) },
            };
      return askStripe('refund the payment', refundSchema, 'a refund', () => stripe.refunds.create(params, { idempotencyKey }));
    },

    async findPartRefund(sessionId: string, partRefundId: string): Promise<PaymentRefund | null> {
      const paymentIntent = await paymentOf(sessionId, 'read the checkout session of a part refund');
      // A payment has a handful of refunds at most: one page of 100 holds them all.
      const { data } = await askStripe('list the payment’s refunds', refundListSchema, 'a list of refunds', () => stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 }));
      const made = data.find((refund) => refund.metadata?.part_refund_id === partRefundId);
      return made ? { id: made.id, status: made.status } : null;
    },

    async paidPayouts(since: Date): Promise<Payout[]> {
      // GET /v1/payouts?status=paid&created[gte]=…: newest first, as Stripe lists; answered oldest first.
      const payouts = await allPages((startingAfter) =>
        askStripe('list the payouts', payoutListSchema, 'a list of payouts', () =>
          stripe.payouts.list({ status: 'paid', created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100, ...(startingAfter && { starting_after: startingAfter }) }),
        ),
      );
      return payouts
        .filter((p) => p.status === 'paid' && p.amount > 0)
        .map((p) => ({ id: p.id, amountCents: p.amount, arrivalOn: shopDay(new Date(p.arrival_date * 1000)) }))
        .reverse();
    },

    async payoutTransactions(payoutId: string): Promise<PayoutTransaction[]> {
      // GET /v1/balance_transactions?payout=po_…: what the payout paid out, each charge with Stripe's fee on it.
      const transactions = await allPages((startingAfter) =>
        askStripe('list the payout’s balance transactions', balanceListSchema, 'a list of balance transactions', () =>
          stripe.balanceTransactions.list({ payout: payoutId, limit: 100, ...(startingAfter && { starting_after: startingAfter }) }),
        ),
      );
      return transactions.map((t) => ({ id: t.id, type: t.type, amountCents: t.amount, feeCents: t.fee }));
    },

    async parseWebhook(rawBody: string, signature: string | null): Promise<PaymentEvent> {
      const { id, type, data } = await verifiedStripeEvent(stripe, options.webhookSecret, rawBody, signature);
      // Invoice events are read by the invoicing adapter (stripe-invoicing.ts); here they are no session's.
      if (!(CHECKOUT_WEBHOOK_EVENTS as readonly string[]).includes(type)) return { id, type, action: 'ignore', session: null };
      const session = sessionSchema.safeParse(data.object);
      if (!session.success) throw invalid(`a ${type} event`, session.error);
      const action = actionFor(type, session.data);
      return action === 'ignore' ? { id, type, action, session: null } : { id, type, action, session: session.data };
    },
  };
}
