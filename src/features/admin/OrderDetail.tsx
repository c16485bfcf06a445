/** One order: everything the publisher needs to pack, ship, refund or answer a question about it, and its history. */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { StatusBadge } from '@/features/account/StatusBadge';
import GiftMessageBox from '@/features/checkout/GiftMessageBox';
import { formatDateTime, formatPrice, orderNumber } from '@/lib/format';
import { mailtoHref } from '@/lib/mailto';
import { postalAddressLines } from '@/lib/postal-address';
import { BlockLines, Fact as RecordFact } from './Facts';
import { Actions, PlatformPanel, shippable } from './OrderActions';
import { AddressForm, NoteForm, ShipForm } from './OrderForms';
import { orderTimeline } from './order-timeline';
import { getOrder, getOrderRefunds, type OrderDetail as Order, runOrderAction } from './orders-api';
import { keys, LoadState, loaded, ORDER_CHANGES, useAction } from './queries';
import { RefundList, RefundPartForm } from './RefundPart';
import { Section } from '@/components/Section';

/** A gift: whom it goes to, the message the slip prints, and whether the parcel leaves prices out. */
function GiftDetails({ order }: { order: Order }) {
  return (
    <Section id="gift-heading" title={<>Gift for {order.customer_name}</>} className="space-y-2 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      {order.gift_message ? <GiftMessageBox message={order.gift_message} /> : <p className="text-slate-700">No gift message.</p>}
      <p className="font-semibold">{order.gift_hide_prices ? 'Leave prices out of the parcel: pack the gift slip only.' : 'The buyer asked for the prices on the gift slip.'}</p>
      {order.gift_hide_sender && <p>The buyer asked for their name to be left off the gift slip.</p>}
    </Section>
  );
}

const Fact = ({ term, children }: { term: string; children: ReactNode }) => (
  <RecordFact label={term} className="break-words">
    {children}
  </RecordFact>
);

/** An invoice's order: the school, its PO number and the invoice, where its money is voided or credited. */
function InvoiceFacts({ order }: { order: Order }) {
  return (
    <Section id="invoice-order-heading" title="Bought on account" className="space-y-1 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      {order.organisation && <p>{order.organisation}</p>}
      <p>PO number: {order.po_number ?? 'none given'}</p>
      {order.invoice_id && (
        <p>
          <a className="font-semibold text-navy underline" href={`#invoice/${order.invoice_id}`}>
            Invoice {order.invoice_number ?? ''}
          </a>
        </p>
      )}
    </Section>
  );
}
export function OrderDetail({ orderId }: { orderId: string }) {
  const state = loaded(useQuery({ queryKey: [...keys.orders, 'detail', orderId], queryFn: () => Promise.all([getOrder(orderId), getOrderRefunds(orderId)]) }));
  const { act, busy } = useAction(runOrderAction, ORDER_CHANGES, 'The action failed.');

  if (state.status !== 'ready') return <LoadState state={state} what="the order" />;
  const [order, refunds] = state.data;
  const paymentLabel = order.refunded_at ? 'refunded' : refunds.refunded > 0 ? 'partly refunded' : order.payment_status.replace('_', ' ');
  const method = order.shipping_method;
  return (
    <article aria-labelledby="order-heading" aria-busy={busy} className="space-y-6">
      <header className="space-y-6">
        <a href="#orders" className="font-semibold text-navy underline">
          ← All orders
        </a>
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="order-heading" className="text-2xl font-bold">
            Order <span className="font-mono">{orderNumber(order.number)}</span>
          </h2>
          <StatusBadge status={order.status} />
          <span className="text-sm text-slate-700">payment: {paymentLabel}</span>
        </div>
        <Actions order={order} act={act} busy={busy} />
      </header>
      {order.kind === 'invoice' && <InvoiceFacts order={order} />}
      {/* A pre-order waiting for its title reaches the platform at its release, not before. */}
      {shippable(order) && order.status !== 'cancelled' && order.status !== 'preorder' && <PlatformPanel order={order} act={act} busy={busy} />}
      {shippable(order) && (order.status === 'processing' || order.status === 'shipped') && <ShipForm order={order} act={act} busy={busy} />}
      {refunds.refundable && <RefundPartForm order={order} refunds={refunds} />}
      <NoteForm order={order} />
      {shippable(order) && (order.status === 'processing' || order.status === 'preorder') && !order.shipped_at && (
        <AddressForm key={`address-${JSON.stringify(order.shipping_address)}`} order={order} />
      )}
      <dl className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3">
        {order.is_gift && <Fact term="Recipient">{order.customer_name}</Fact>}
        <Fact term={order.is_gift ? 'Buyer' : 'Customer'}>
          {order.is_gift ? (order.bought_by ?? 'Name not given') : order.customer_name}
          {!order.is_gift && order.bought_by && order.bought_by !== order.customer_name && <span className="block text-sm text-slate-700">Paid by {order.bought_by}</span>}
          <br />
          <a className="text-navy underline" href={mailtoHref(order.customer_email)}>
            {order.customer_email}
          </a>
        </Fact>
        <Fact term="Ship to">
          <BlockLines lines={postalAddressLines(order.shipping_address)} />
          {order.shipping_address.phone && <span className="block">Phone: {order.shipping_address.phone}</span>}
        </Fact>
        <Fact term="Delivery">
          {method.name ?? 'Standard delivery'} — {formatPrice(order.shipping_amount)}
        </Fact>
        <Fact term="Placed">{formatDateTime(order.created_at)}</Fact>
        <Fact term="Totals">
          Items {formatPrice(order.subtotal_amount)} ·{' '}
          {order.promotion_code && (
            <>
              Code {order.promotion_code} −{formatPrice(order.discount_amount)} ·{' '}
            </>
          )}
          Shipping {formatPrice(order.shipping_amount)} · <strong>Total {formatPrice(order.total_amount)}</strong>
        </Fact>
        <Fact term="Payment reference">
          <span className="font-mono text-sm">{order.checkout_session_id ?? '—'}</span>
        </Fact>
        <Fact term="Refund reference">
          <span className="font-mono text-sm">{order.refund_id ?? '—'}</span>
        </Fact>
        <Fact term="Tracking">{order.tracking_number ? `${order.tracking_carrier}: ${order.tracking_number}` : 'Not shipped yet'}</Fact>
        <Fact term="Reminder if unpaid">
          {order.reminder_consent_at ? `Agreed ${formatDateTime(order.reminder_consent_at)}` : 'Not asked for'}
          {order.reminder_sent_at && <span className="block">Sent {formatDateTime(order.reminder_sent_at)}</span>}
        </Fact>
      </dl>
      {order.is_gift && <GiftDetails order={order} />}
      <Section id="items-heading" title="Items">
        <ul className="mt-2 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
          {order.items.map((item) => (
            <li key={item.product_id} className="flex justify-between gap-3 px-4 py-2">
              <span>
                {item.title} × {item.quantity}
              </span>
              <span>{formatPrice(item.price_at_time * item.quantity)}</span>
            </li>
          ))}
        </ul>
      </Section>
      <RefundList refunds={refunds} />
      <Section id="history-heading" title="History">
        <ol className="mt-2 space-y-1 text-sm">
          {orderTimeline(order).map((event, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is drawn whole from the order each time.
            <li key={index}>
              {formatDateTime(event.at)} — {event.actor ? <strong>{event.what}</strong> : event.what}
              {event.detail && ` (${event.detail})`}
              {event.actor && ` by ${event.actor}`}
            </li>
          ))}
        </ol>
      </Section>
    </article>
  );
}
