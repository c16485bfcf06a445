/** What the publisher does to an order by pressing a button: the shipping platform's panel and the order's actions. */
import { ActionButton } from '@/features/forms/fields';
import { useQuestion } from '@/features/forms/use-question';
import { formatDateTime, formatPrice } from '@/lib/format';
import type { Act } from './OrderForms';
import { type OrderDetail as Order, printLabels, undoDelivered } from './orders-api';
import { ORDER_CHANGES, useAction } from './queries';
import { Section } from '@/components/Section';

/** What each state of the order at the shipping platform means, for the publisher. */
const SHIPMENT_STATES: Record<NonNullable<Order['shipment']>['state'], string> = {
  pending: 'Being sent to the shipping platform',
  sent: 'At the shipping platform: ready for its label',
  labelled: 'Label printed: waiting for the carrier to scan it',
  shipped: 'With the carrier',
  delivered: 'Delivered',
  failed: 'Not at the shipping platform: sending failed, it will be tried again',
  cancelled: 'Cancelled: taken off the shipping platform',
};

/**
 * The order at the shipping platform (Starshipit): where it is, Print label (the tracking number then arrives on
 * the order with nothing typed, and the customer is emailed it), and sending it again when it did not get there.
 */
export function PlatformPanel({ order, act, busy }: { order: Order; act: Act; busy: boolean }) {
  // A printed label ships the order.
  const { act: print, busy: printing } = useAction(() => printLabels({ orderIds: [order.id] }), ORDER_CHANGES, 'The label could not be printed.');
  const shipment = order.shipment ?? null;
  // A parcel shipped another way (a number typed for another carrier) has no label here to print again.
  const labelled = shipment !== null && ['labelled', 'shipped'].includes(shipment.state);
  const printable = shippable(order) && (order.status === 'processing' || (order.status === 'shipped' && labelled));
  const resendable = shippable(order) && order.status !== 'cancelled' && (!shipment || shipment.state === 'failed' || shipment.state === 'pending');
  return (
    <Section id="platform-heading" title="Shipping platform" className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <p className="mt-1" data-testid="shipment-state">
        {shipment ? SHIPMENT_STATES[shipment.state] : 'Not sent to a shipping platform.'}
        {shipment?.platform === 'local-test' && <span className="ml-2 rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white">TEST</span>}
      </p>
      {shipment?.last_error && shipment.state === 'failed' && <p className="mt-1 break-words text-sm text-red-800">Last error: {shipment.last_error}</p>}
      {order.tracking_status && (
        <p className="mt-1 text-sm text-slate-700">
          Latest tracking: {order.tracking_status}
          {order.tracking_status_at && ` — ${formatDateTime(order.tracking_status_at)}`}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {printable && (
          <ActionButton className="btn-primary" busy={printing} onClick={() => void print(undefined)}>
            {printing ? 'Printing label...' : order.status === 'shipped' ? 'Print label again' : 'Print label'}
          </ActionButton>
        )}
        {resendable && (
          <ActionButton className="btn-secondary" busy={busy} onClick={() => act({ action: 'send_to_platform', orderId: order.id })}>
            Send to the platform again
          </ActionButton>
        )}
      </div>
    </Section>
  );
}

/** Paid, or an invoice's order the publisher chose to ship before the school pays (the server allows both). */
export function shippable(order: Order): boolean {
  return order.payment_status === 'paid' || (order.kind === 'invoice' && order.ship_before_payment === true && order.status !== 'pending');
}

/** `busy` while one of the order's actions runs: the buttons that start one ignore a press meanwhile. */
export function Actions({ order, act, busy }: { order: Order; act: Act; busy: boolean }) {
  const cancelling = useQuestion();
  const delivering = useQuestion();
  const { act: undo } = useAction(() => undoDelivered(order.id).then(() => 'Order back to shipped.'), ORDER_CHANGES);
  const paid = order.payment_status === 'paid';
  const onAccount = order.kind === 'invoice';
  // The server never cancels an invoice's order: its money goes back on the invoice.
  // A pre-order waiting for its title is cancelled the same way, until it is packed.
  const cancellable = paid && !onAccount && (order.status === 'processing' || order.status === 'preorder');
  return (
    <div className="flex flex-wrap gap-2">
      <a href={`/admin/packing-slip?order=${order.id}`} className="btn-secondary">
        Print packing slip
      </a>
      {order.status === 'shipped' && !delivering.asking && (
        <button ref={delivering.button} type="button" className="btn-secondary" onClick={() => delivering.ask(true)}>
          Mark as delivered
        </button>
      )}
      {order.status === 'shipped' && delivering.asking && (
        <span className="flex flex-wrap items-center gap-2 rounded-xl bg-sky p-2">
          <span className="text-sm">Has the customer received the parcel?</span>
          <button
            ref={delivering.question}
            type="button"
            className="btn-primary"
            onClick={() => {
              delivering.close();
              void act({ action: 'deliver', orderId: order.id });
            }}
          >
            Confirm delivered
          </button>
          <button type="button" className="btn-secondary" onClick={delivering.close}>
            Not yet
          </button>
        </span>
      )}
      {order.status === 'completed' && order.delivered_at && (
        <button type="button" className="btn-secondary" onClick={() => void undo(undefined)}>
          Undo delivered
        </button>
      )}
      {paid && order.status !== 'cancelled' && (
        <ActionButton className="btn-secondary" busy={busy} onClick={() => act({ action: 'resend_confirmation', orderId: order.id })}>
          Resend confirmation
        </ActionButton>
      )}
      {order.payment_status === 'refund_due' && !order.refunded_at && (
        <ActionButton className="btn-primary" busy={busy} onClick={() => act({ action: 'retry_refund', orderId: order.id })}>
          Retry refund
        </ActionButton>
      )}
      {cancellable && !cancelling.asking && (
        <button ref={cancelling.button} type="button" className="btn-secondary" onClick={() => cancelling.ask(true)}>
          Cancel and refund
        </button>
      )}
      {onAccount && order.status !== 'cancelled' && (
        <p className="self-center text-sm">
          {order.invoice_id ? (
            <a className="text-navy underline" href={`#invoice/${order.invoice_id}`}>
              Void the invoice, or give money back with a credit note
            </a>
          ) : (
            'Void the invoice, or give money back with a credit note'
          )}
        </p>
      )}
      {cancellable && cancelling.asking && (
        <span className="flex flex-wrap items-center gap-2 rounded-xl bg-red-50 p-2">
          <span className="text-sm text-red-900">Refund {formatPrice(order.total_amount)} in full and put the stock back?</span>
          <ActionButton ref={cancelling.question} className="btn bg-red-700 text-white hover:bg-red-800" busy={busy} onClick={() => act({ action: 'cancel', orderId: order.id })}>
            Confirm cancel and refund
          </ActionButton>
          <button type="button" className="btn-secondary" onClick={cancelling.close}>
            Keep the order
          </button>
        </span>
      )}
    </div>
  );
}
