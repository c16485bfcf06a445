/**
 * /order-confirmation: verifies the stored payment session. Paid: the cart is cleared and the stored id
 * removed. Anything else reads 'Payment Pending'; a payment whose copies sold out first (refund due) says
 * so. No session at all: back to the store.
 */
import { type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import { SHIPPING, STORAGE_KEYS } from '@/config/constants';
import { formatPrice } from '@/lib/format';
import { preorderedLine } from '@/features/catalog/preorder-text';
import { quantityLine } from '@/features/tax-invoice/tax-invoice';
import { clearCart } from '@/features/cart/store';
import { toast } from '@/features/toast/store';
import { verifyPayment, type VerifiedPayment } from './api';
import { clearDraft } from './draft';
import GiftMessageBox from '@/features/checkout/GiftMessageBox';
import { forgetAppliedCode } from './applied-code';
import { announcePayment } from './payment-tabs';
import { Section } from '@/components/Section';

type State = { status: 'verifying' } | { status: 'paid'; payment: VerifiedPayment } | { status: 'pending'; refundDue?: boolean; codeUsedUp?: boolean; duplicate?: boolean };

function storedSessionId(): string | null {
  return new URLSearchParams(window.location.search).get('session_id') ?? localStorage.getItem(STORAGE_KEYS.checkoutSessionId);
}

/** One line of the order's sums: what it is on the left, its amount on the right. */
function Line({ label, amount, className = '', ...value }: { label: string; amount: string; className?: string } & HTMLAttributes<HTMLElement>) {
  return (
    <li className={`flex justify-between gap-4 py-2 ${className}`}>
      <span className="min-w-0 break-words">{label}</span>
      <span className="shrink-0" {...value}>
        {amount}
      </span>
    </li>
  );
}

/** One fact of the order: its name on the left, its value on the right. */
function Fact({ term, children, className = 'font-semibold', ...value }: { term: string; children: ReactNode } & HTMLAttributes<HTMLElement>) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-600">{term}</dt>
      <dd className={className} {...value}>
        {children}
      </dd>
    </div>
  );
}

/**
 * An email address that breaks, when the line is too short for it, only before its @ (never mid-word, as
 * "godmot her@…" did on a phone); a part longer than the line still wraps rather than overflow.
 */
function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  return (
    <strong className="break-words">
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </strong>
  );
}

/** What was bought, where it goes, where the email went and where to follow it. */
function OrderDetails({ order }: { order: NonNullable<VerifiedPayment['order']> }) {
  return (
    <div className="mt-6 space-y-5 text-left">
      <Section id="confirmed-items" title="Your order" level={2}>
        <ul className="mt-2 divide-y divide-slate-100">
          {order.items.map((item) => (
            <Line key={item.title} label={quantityLine(item.title, item.quantity)} amount={formatPrice(item.amount)} />
          ))}
          {order.discount > 0 && <Line label="Discount" amount={`−${formatPrice(order.discount)}`} />}
          <Line label="Shipping" amount={formatPrice(order.shipping)} />
          <Line label="Total" amount={`${formatPrice(order.total)} AUD`} className="font-bold" data-testid="confirmed-total" />
        </ul>
      </Section>
      <Section id="confirmed-delivery" title="Delivering to" level={2}>
        <address className="mt-1 not-italic text-slate-800">
          {order.deliverTo.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </address>
      </Section>
      {order.gift && (
        <Section id="confirmed-gift" title={<>A gift for {order.gift.recipient}</>} level={2}>
          {order.gift.message ? (
            <>
              <p className="mt-1 text-slate-700">Your message, printed on the gift slip:</p>
              <GiftMessageBox message={order.gift.message} className="mt-2" />
            </>
          ) : (
            <p className="mt-1 text-slate-700">The parcel carries a gift slip, with no message.</p>
          )}
          <p className="mt-2 text-slate-700">{order.gift.hidePrices ? 'Prices are left out of the parcel.' : 'The gift slip shows the prices, as you asked.'}</p>
        </Section>
      )}
      <p className="text-slate-700">
        The confirmation went to <EmailAddress address={order.email} />.{' '}
        <a href={order.statusPath} className="font-semibold text-navy underline">
          Follow your order
        </a>
      </p>
    </div>
  );
}

export default function OrderConfirmation() {
  const [state, setState] = useState<State>({ status: 'verifying' });

  useEffect(() => {
    const sessionId = storedSessionId();
    if (!sessionId) return void window.location.replace('/store');
    verifyPayment(sessionId).then(
      (payment) => {
        if (payment.paymentStatus !== 'paid')
          return setState({
            status: 'pending',
            refundDue: payment.paymentStatus === 'refund_due',
            codeUsedUp: payment.paymentStatus === 'code_used_up',
            duplicate: payment.paymentStatus === 'duplicate',
          });
        clearCart();
        clearDraft();
        forgetAppliedCode();
        localStorage.removeItem(STORAGE_KEYS.checkoutSessionId);
        // The checkout tab this payment was opened from shows the confirmation too.
        announcePayment({ type: 'paid', sessionId });
        setState({ status: 'paid', payment });
      },
      (error) => {
        console.error(error);
        toast({ title: 'Failed to verify payment status.', variant: 'error' });
        setState({ status: 'pending' });
      },
    );
  }, []);

  if (state.status === 'verifying') {
    return (
      <p className="py-16 text-center text-lg text-slate-700" role="status">
        Verifying your order...
      </p>
    );
  }
  if (state.status === 'pending') {
    return (
      <div className="mx-auto max-w-xl py-12 text-center">
        <h1 className="text-3xl font-extrabold">Payment Pending</h1>
        <p className="mt-3 text-slate-700">
          {state.duplicate
            ? 'This cart was already paid for on another payment page: that order stands, and this second payment is being refunded in full. You will receive an email with the details.'
            : state.codeUsedUp
              ? "We received your payment, but the code's last use went to another order moments before it arrived, so we could not fill your order at that price. Your payment is being refunded in full, and you will receive an email with the details."
              : state.refundDue
                ? 'We received your payment, but the last copies sold out moments before it arrived, so we could not fill your order. Your payment is being refunded in full, and you will receive an email with the details.'
                : 'Your payment is still being processed. We will email you as soon as it is confirmed.'}
        </p>
        <a href="/store" className="btn-primary mt-6">
          Return to Store
        </a>
      </div>
    );
  }
  const { shippingMethod } = state.payment.shippingDetails;
  return (
    <div className="mx-auto max-w-xl rounded-3xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-3xl font-extrabold">Order Confirmed!</h1>
      <p className="mt-3 text-slate-700">Thank you for your order. A confirmation is on its way to your inbox.</p>
      {state.payment.order?.preorder && (
        <p className="mt-4 rounded-xl bg-sky/60 p-3 font-semibold text-navy" data-testid="preorder-confirmed">
          {preorderedLine(state.payment.order.preorder.title, state.payment.order.preorder.releaseDate)}
        </p>
      )}
      <dl className="mt-6 space-y-3 text-left">
        <Fact term="Order number" className="font-mono text-lg font-bold" data-testid="order-number">
          {state.payment.orderNumber}
        </Fact>
        <Fact term="Shipping method">{shippingMethod.name}</Fact>
        {/* A pre-order's delivery time runs from its release (the line above), not from today. */}
        <Fact term="Estimated delivery">{state.payment.order?.preorder ? `${shippingMethod.estimatedDelivery} once it ships` : shippingMethod.estimatedDelivery}</Fact>
        <Fact term="Carrier">{shippingMethod.carrier || SHIPPING.defaultCarrier}</Fact>
      </dl>
      {state.payment.order && <OrderDetails order={state.payment.order} />}
      <p className="mt-6 text-sm text-slate-600">Your tracking number will arrive by email once your order ships.</p>
      <a href="/store" className="btn-primary mt-6">
        Continue Shopping
      </a>
    </div>
  );
}
