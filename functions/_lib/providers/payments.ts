/**
 * Taking payments: the shape the shop needs from a card payment provider. The real adapter is Stripe
 * Checkout (stripe.ts); locally, the TEST payment page (local-payments.ts).
 */
import type { DeferredPaymentMethod } from '../../../src/features/checkout/payment-methods';

export interface CheckoutSessionInput {
  orderId: string;
  customerEmail: string;
  /** Prices come from the database, never from the browser. */
  lineItems: Array<{ name: string; unitAmountCents: number; quantity: number }>;
  /** A promotion code's discount off the goods (never the shipping), or null: the session charges the goods less it. */
  discount?: { name: string; amountOffCents: number } | null;
  /** The delivery estimate in business days, or null when none is known (the payment page then shows none). */
  shipping: { name: string; amountCents: number; deliveryDays: { min: number; max: number } | null };
  /** Must contain the literal `{CHECKOUT_SESSION_ID}`, which the payment page fills in. */
  successUrl: string;
  cancelUrl: string;
  /** Same key, same session: a retried create never charges twice. */
  idempotencyKey: string;
  /** Ways to pay this page must not offer (the pay-later ones for an order holding a pre-order). */
  excludedPaymentMethods?: readonly DeferredPaymentMethod[];
}

/**
 * How long a payment page with a promotion code's discount stays open: Stripe's shortest (30 minutes) and a minute
 * to spare. Its unpaid order holds one use of the code only this long. A page without a code stays open a day,
 * Stripe's default.
 */
export const PAGE_WITH_CODE_OPEN_SECONDS = 31 * 60;
export const PAGE_OPEN_SECONDS = 24 * 60 * 60;

/** A payment page made: its session id, its address, and when it closes (ISO time; null when the provider does not say). */
export interface CreatedSession {
  id: string;
  url: string;
  expiresAt: string | null;
}

export interface PaymentSession {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  /** What the session charged, in cents, and in which currency (ISO code); null when the provider does not say. */
  amountTotalCents: number | null;
  currency: string | null;
  /** The name the payer gave the payment page (the cardholder's), when the provider collects one. */
  payerName: string | null;
}

/**
 * A provider's webhook event, as what the shop should do about it: fulfil the session's order, cancel it
 * (the session expired or its payment failed), or ignore the event. The shop finds the order by the session
 * id it stored, never by ids carried in the event.
 */
export type PaymentEvent = { id: string; type: string; action: 'fulfil' | 'cancel'; session: PaymentSession } | { id: string; type: string; action: 'ignore'; session: null };

export interface PaymentProvider {
  name: 'stripe' | 'local-test';
  createCheckoutSession(input: CheckoutSessionInput): Promise<CreatedSession>;
  retrieveSession(id: string): Promise<PaymentSession>;
  /**
   * Closes an open payment page so it can no longer take a payment; answers the session as it stands after. A
   * session that was not open (paid meanwhile, or expired already) is answered as it is, not refused.
   */
  expireSession(id: string): Promise<PaymentSession>;
  /** Verifies the signature on the raw body; throws WebhookSignatureError when it does not match. */
  parseWebhook(rawBody: string, signature: string | null): Promise<PaymentEvent>;
  /**
   * Refunds a paid session: in full (what is left of it), or `amountCents` of it with the publisher's `reason`.
   * The same `idempotencyKey` never refunds twice.
   */
  refundSession(sessionId: string, input: RefundInput): Promise<PaymentRefund>;
  /** The refund made for the shop's part refund `partRefundId` on this session, if the provider made one. */
  findPartRefund(sessionId: string, partRefundId: string): Promise<PaymentRefund | null>;
  /** The payouts paid into the publisher's bank account since `since`, oldest first. */
  paidPayouts(since: Date): Promise<Payout[]>;
  /** What a payout paid out: its balance transactions (charges, refunds, the payout itself), each with its fee. */
  payoutTransactions(payoutId: string): Promise<PayoutTransaction[]>;
}

/** A payout to the bank: Stripe's balance, less its fees and the refunds, since the last one. */
export interface Payout {
  id: string;
  amountCents: number;
  /** yyyy-mm-dd (Sydney) the money reaches the bank. */
  arrivalOn: string;
}

export interface PayoutTransaction {
  id: string;
  type: string;
  amountCents: number;
  /** Stripe's fee on it, GST included (Stripe charges GST on its fees in Australia). */
  feeCents: number;
}

/** The fees Stripe kept out of a payout: the sum of its transactions' fees. */
export const payoutFeesCents = (transactions: PayoutTransaction[]) => transactions.reduce((sum, t) => sum + t.feeCents, 0);

export interface RefundInput {
  orderId: string;
  idempotencyKey: string;
  /** A part of the payment, in cents; absent: all that is left of it. */
  amountCents?: number;
  /** Why, for a part refund (kept with the refund at the provider). */
  reason?: string;
  /** The shop's id of a part refund, kept with the refund at the provider so it can be found again. */
  partRefundId?: string;
}

export interface PaymentRefund {
  id: string;
  /** Stripe's refund status: pending and succeeded both mean the money is on its way back. */
  status: 'pending' | 'succeeded' | 'failed' | 'requires_action' | 'canceled';
}
