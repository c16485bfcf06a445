/**
 * The payment page this checkout opened in another tab, followed from here: paid shows the confirmation in this
 * tab too; cancelled gives the form back; and when the order on screen changes while the page is open, that page
 * is closed at once, so it cannot take a payment for an order that is no longer the one on screen.
 */
import { useEffect, useState } from 'react';
import { closeChangedPaymentPage } from './api';
import { clearDraft } from './draft';
import { onPaymentNews } from './payment-tabs';

/**
 * The payment page: open (made for the order as `made` describes it), closed because the order on screen changed
 * since (`problem` when that could not be done), or cancelled in its tab.
 */
export type Payment = { status: 'idle' } | { status: 'open'; url: string; made: string } | { status: 'changed'; problem?: string } | { status: 'cancelled' };

/** `ordered`: what a payment page is made for (the lines, the form, the delivery option and the code), as one string. */
export function usePaymentPage(ordered: string) {
  const [payment, setPayment] = useState<Payment>({ status: 'idle' });

  useEffect(
    () =>
      onPaymentNews((news) => {
        if (news.type === 'paid') {
          clearDraft();
          window.location.assign(`/order-confirmation?session_id=${encodeURIComponent(news.sessionId)}`);
        } else setPayment({ status: 'cancelled' });
      }),
    [],
  );

  useEffect(() => {
    if (payment.status !== 'open' || payment.made === ordered) return;
    setPayment({ status: 'changed' });
    closeChangedPaymentPage().catch((error: unknown) => setPayment({ status: 'changed', problem: error instanceof Error ? error.message : String(error) }));
  }, [ordered, payment]);

  return {
    payment,
    /** The page for the order as `made` describes it is open in the tab at `url`. */
    opened: (url: string, made: string) => setPayment({ status: 'open', url, made }),
  };
}
