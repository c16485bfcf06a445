/**
 * LOCAL STAND-IN for Stripe Checkout, for `npm start` and the tests: the "payment page" is the test-payment
 * function on this site, where Pay or Cancel stands in for a card. It never runs in a production deploy
 * (selectPaymentProvider refuses, the function answers 404, and the build fails without Stripe keys).
 * Sessions are the orders themselves, found by their checkout_session_id.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { WebhookSignatureError, type PaymentProvider, type PaymentSession } from './types';

export const LOCAL_SESSION_PREFIX = 'cs_local_';
export const TEST_PAYMENT_PATH = '/api/test-payment';

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
      return { id, url: url.href };
    },
    async retrieveSession(id): Promise<PaymentSession> {
      const { data, error } = await db().from('orders').select('id, payment_status').eq('checkout_session_id', id).maybeSingle();
      if (error) throw error;
      if (!data) throw new Error(`No test payment session ${id}`);
      const paid = data.payment_status === 'paid' || data.payment_status === 'refund_due';
      return {
        id,
        status: paid ? 'complete' : data.payment_status === 'expired' ? 'expired' : 'open',
        paymentStatus: paid ? 'paid' : 'unpaid',
        orderId: data.id as string,
      };
    },
    async refundSession(sessionId, { orderId }) {
      // No money moved, so nothing goes back; the log says what a real refund would have done.
      console.log(`[local payments] TEST refund of session ${sessionId} (order ${orderId}): no real money`);
      return { id: `re_local_${randomUUID()}`, status: 'succeeded' };
    },
    async parseWebhook() {
      throw new WebhookSignatureError('Local test payments send no webhooks.');
    },
  };
}
