/**
 * What the checkout says about how payment will be taken, when it is not simply Stripe with its key: asked of the
 * server once the page is live, and shown below the button, so its late arrival moves nothing.
 */
import { useEffect, useState } from 'react';
import { getPaymentConfig, type PaymentConfig } from './api';

export default function PaymentNotice() {
  const [payments, setPayments] = useState<PaymentConfig | null>(null);
  useEffect(() => {
    getPaymentConfig().then(setPayments, (e: Error) => setPayments({ mode: 'unavailable', message: e.message }));
  }, []);
  if (payments?.mode === 'stripe' && !payments.publishableKey) {
    return (
      <p role="alert" className="rounded-xl border border-red-700 bg-red-50 p-4 font-semibold text-red-900">
        Payments are not configured: the payment provider's publishable key is missing. Please contact us to complete your order.
      </p>
    );
  }
  if (payments?.mode === 'unavailable') {
    return (
      <p role="alert" className="rounded-xl border border-red-700 bg-red-50 p-4 font-semibold text-red-900">
        {payments.message}
      </p>
    );
  }
  if (payments?.mode === 'local-test') {
    return (
      <p className="rounded-xl border border-amber-700 bg-amber-50 p-4 text-sm text-amber-950">
        <strong>Test mode.</strong> This shop is running locally: payment opens a TEST page and no real money moves.
      </p>
    );
  }
  return null;
}
