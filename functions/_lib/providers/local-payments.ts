/**
 * LOCAL STAND-IN for Stripe Checkout, for `npm start` and the tests: the "payment page" is the test-payment
 * function on this site, where Pay or Cancel stands in for a card. It never runs in a production deploy
 * (selectPaymentProvider refuses it without the local server's signal, and the function answers 404).
 * Sessions are the orders themselves, found by their checkout_session_id.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { toCents } from '../../../src/lib/money';
import { cancelUnpaid, findOrderBySession, type Order } from '../orders';
import { WebhookSignatureError } from './errors';
import { localPaidPayouts, localPayoutTransactions } from './local-payouts';
import { PAGE_OPEN_SECONDS, PAGE_WITH_CODE_OPEN_SECONDS, type PaymentProvider, type PaymentRefund, type PaymentSession } from './payments';

/** The part refunds this stand-in made while it runs, by the shop's id: as Stripe keeps them on the payment. */
const partRefundsMade = new Map<string, PaymentRefund>();

export const LOCAL_SESSION_PREFIX = 'cs_local_';
const TEST_PAYMENT_PATH = '/api/test-payment';

/**
 * True when the TEST payment page of this order can take no payment: it was closed (expired, as a newer checkout
 * of the same cart closes it), or it is unpaid past its expiry, as Stripe's closes then.
 */
export const pageClosed = (order: Pick<Order, 'paymentStatus' | 'checkoutExpiresAt'>, now = Date.now()) =>
  order.paymentStatus === 'expired' || (order.paymentStatus === 'unpaid' && order.checkoutExpiresAt !== null && Date.parse(order.checkoutExpiresAt) <= now);

export function createLocalTestPayments(db: () => SupabaseClient): PaymentProvider {
  return {
    name: 'local-test',
    async createCheckoutSession(input) {
      const id = `${LOCAL_SESSION_PREFIX}${randomUUID()}`;
      const origin = new URL(input.successUrl).origin;
      const url = new URL(TEST_PAYMENT_PATH, origin);
      url.searchParams.set('session', id);
      url.searchParams.set('success', input.successUrl);
      url.searchParams.set('cancel', input.cancelUrl);
      // Open as long as Stripe's would be: the TEST page refuses to take a payment after this.
      const seconds = input.discount ? PAGE_WITH_CODE_OPEN_SECONDS : PAGE_OPEN_SECONDS;
      return { id, url: url.href, expiresAt: new Date(Date.now() + seconds * 1000).toISOString() };
    },
    async retrieveSession(id): Promise<PaymentSession> {
      const order = await findOrderBySession(db(), id);
      if (!order) throw new Error(`No test payment session ${id}`);
      const paid = order.paymentStatus === 'paid' || order.paymentStatus === 'refund_due';
      return {
        id,
        status: paid ? 'complete' : order.paymentStatus === 'expired' || pageClosed(order) ? 'expired' : 'open',
        paymentStatus: paid ? 'paid' : 'unpaid',
        // The TEST page charges exactly the order's total.
        amountTotalCents: toCents(order.total),
        currency: order.currency,
        // The TEST page writes the name it was given to the order itself.
        payerName: null,
      };
    },
    async expireSession(id) {
      const order = await findOrderBySession(db(), id);
      if (!order) throw new Error(`No test payment session ${id}`);
      // The session is the order: closing the page cancels the unpaid order (a paid one is left as it is).
      await cancelUnpaid(db(), order.id);
      return this.retrieveSession(id);
    },
    async refundSession(sessionId, { orderId, amountCents, partRefundId }) {
      // No money moved, so nothing goes back; the log says what a real refund would have done.
      const what = amountCents === undefined ? 'in full' : `of ${amountCents} cents`;
      console.log(`[local payments] TEST refund ${what} of session ${sessionId} (order ${orderId}): no real money`);
      const refund = { id: `re_local_${randomUUID()}`, status: 'succeeded' } as const;
      if (partRefundId) partRefundsMade.set(partRefundId, refund);
      return refund;
    },
    async findPartRefund(_sessionId, partRefundId) {
      return partRefundsMade.get(partRefundId) ?? null;
    },
    paidPayouts: (since) => localPaidPayouts(db(), since),
    payoutTransactions: (id) => localPayoutTransactions(db(), id),
    async parseWebhook() {
      throw new WebhookSignatureError('Local test payments send no webhooks.');
    },
  };
}
