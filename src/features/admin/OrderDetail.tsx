/** One order: everything the publisher needs to pack, ship, refund or answer a question about it, and its history. */
import { useCallback, useState, type SubmitEvent, type ReactNode } from 'react';
import { orderTimeline } from './order-timeline';
import { countryName, formatDateTime, formatPrice, orderNumber } from '@/lib/format';
import { mailtoHref } from '@/lib/mailto';
import { postalAddressLines } from '@/lib/postal-address';
import { toast } from '@/features/toast/store';
import { StatusBadge } from '@/features/account/StatusBadge';
import {
  type AddressInput,
  changeAddress,
  getOrder,
  getOrderRefunds,
  printLabels,
  runOrderAction,
  setOrderNote,
  undoDelivered,
  type OrderActionRequest,
  type OrderDetail as Order,
  type OrderRefunds,
} from './api';
import { BlockLines, Fact as RecordFact } from './Facts';
import GiftMessageBox from './GiftMessageBox';
import { TextField } from '@/features/forms/fields';
import { parseRefundAmount } from './refund';
import { useCarrier } from './CarrierFields';
import { checkShipment } from './shipment';
import { changeAndReload, LoadState, toastOutcome, useLoad } from './use-load';

/** A gift: whom it goes to, the message the slip prints, and whether the parcel leaves prices out. */
function GiftDetails({ order }: { order: Order }) {
  return (
    <section aria-labelledby="gift-heading" className="space-y-2 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id="gift-heading" className="text-lg font-bold">
        Gift for {order.customer_name}
      </h3>
      {order.gift_message ? <GiftMessageBox message={order.gift_message} /> : <p className="text-slate-700">No gift message.</p>}
      <p className="font-semibold">{order.gift_hide_prices ? 'Leave prices out of the parcel: pack the gift slip only.' : 'The buyer asked for the prices on the gift slip.'}</p>
      {order.gift_hide_sender && <p>The buyer asked for their name to be left off the gift slip.</p>}
    </section>
  );
}

const Fact = ({ term, children }: { term: string; children: ReactNode }) => (
  <RecordFact label={term} className="break-words">
    {children}
  </RecordFact>
);

function ShipForm({ order, act }: { order: Order; act: (request: OrderActionRequest) => Promise<void> }) {
  const carrier = useCarrier('ship-carrier');
  const [trackingNumber, setTrackingNumber] = useState(order.tracking_number ?? '');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const shipment = carrier.shipment(trackingNumber);
    const checked = checkShipment(shipment);
    if ('error' in checked) return setError(checked.error);
    setError(null);
    await act({ action: 'ship', orderId: order.id, shipment });
  }

  return (
    <form onSubmit={submit} noValidate className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-labelledby="ship-heading">
      <h3 id="ship-heading" className="text-lg font-bold">
        {order.status === 'shipped' ? 'Correct the tracking number' : 'Mark as shipped'}
      </h3>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {carrier.fields}
        <div>
          <label htmlFor="ship-tracking" className="label">
            Tracking number
          </label>
          <input
            id="ship-tracking"
            className="field font-mono"
            value={trackingNumber}
            onChange={(e) => setTrackingNumber(e.target.value)}
            maxLength={64}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'ship-error' : undefined}
          />
        </div>
      </div>
      {error && (
        <p id="ship-error" role="alert" className="mt-2 text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary mt-3">
        Confirm shipment
      </button>
    </form>
  );
}

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
function PlatformPanel({ order, act, reload }: { order: Order; act: (request: OrderActionRequest) => Promise<void>; reload: () => void }) {
  const [printing, setPrinting] = useState(false);
  const shipment = order.shipment ?? null;
  // A parcel shipped another way (a number typed for another carrier) has no label here to print again.
  const labelled = shipment !== null && ['labelled', 'shipped'].includes(shipment.state);
  const printable = shippable(order) && (order.status === 'processing' || (order.status === 'shipped' && labelled));
  const resendable = shippable(order) && order.status !== 'cancelled' && (!shipment || shipment.state === 'failed' || shipment.state === 'pending');
  async function print() {
    setPrinting(true);
    await toastOutcome(() => printLabels({ orderIds: [order.id] }), 'The label could not be printed.');
    setPrinting(false);
    reload();
  }
  return (
    <section aria-labelledby="platform-heading" className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id="platform-heading" className="text-lg font-bold">
        Shipping platform
      </h3>
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
          <button type="button" className="btn-primary" aria-disabled={printing || undefined} onClick={() => !printing && void print()}>
            {printing ? 'Printing label...' : order.status === 'shipped' ? 'Print label again' : 'Print label'}
          </button>
        )}
        {resendable && (
          <button type="button" className="btn-secondary" onClick={() => act({ action: 'send_to_platform', orderId: order.id })}>
            Send to the platform again
          </button>
        )}
      </div>
    </section>
  );
}

/** The publisher's own note on the order: never shown to the customer. */
function NoteForm({ order, reload }: { order: Order; reload: () => void }) {
  const [note, setNote] = useState(order.internal_note ?? '');
  return (
    <form
      className="rounded-2xl bg-white p-4 ring-1 ring-slate-200"
      onSubmit={(event) => {
        event.preventDefault();
        void changeAndReload(() => setOrderNote(order.id, note), 'Note saved.', reload);
      }}
    >
      <label htmlFor="order-note" className="label">
        Internal note (the customer never sees it)
      </label>
      <textarea id="order-note" className="field min-h-20" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <button type="submit" className="btn-secondary mt-2" disabled={note.trim() === (order.internal_note ?? '')}>
        Save note
      </button>
    </form>
  );
}

const ADDRESS_FIELDS: ReadonlyArray<{ key: keyof AddressInput; label: string }> = [
  { key: 'addressLine1', label: 'Address line 1' },
  { key: 'addressLine2', label: 'Address line 2' },
  { key: 'city', label: 'City / suburb' },
  { key: 'state', label: 'State / region' },
  { key: 'postalCode', label: 'Postcode' },
  { key: 'phone', label: 'Phone' },
];

/** Corrects the delivery address until the parcel ships; the country stays, the old address goes into the history. */
function AddressForm({ order, reload }: { order: Order; reload: () => void }) {
  const a = order.shipping_address;
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState<AddressInput>({
    addressLine1: a.addressLine1 ?? a.line1 ?? '',
    addressLine2: a.addressLine2 ?? a.line2 ?? '',
    city: a.city ?? '',
    state: a.state ?? '',
    postalCode: a.postalCode ?? a.postal_code ?? '',
    phone: a.phone ?? '',
  });
  if (!open) {
    return (
      <button type="button" className="btn-secondary" onClick={() => setOpen(true)}>
        Edit delivery address
      </button>
    );
  }
  async function save(event: SubmitEvent) {
    event.preventDefault();
    // The server's sentence: it says too when the shipping platform still has, or printed, the old address.
    try {
      const message = await changeAddress(order.id, address);
      toast({ title: message, ...(message.includes('old address') && { variant: 'error' as const }) });
    } catch (error) {
      toast({ title: error instanceof Error ? error.message : 'The change failed.', variant: 'error' });
    }
    reload();
  }
  return (
    <form onSubmit={save} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-labelledby="address-heading">
      <h3 id="address-heading" className="text-lg font-bold">
        Edit delivery address
      </h3>
      <p className="text-sm text-slate-700">Country: {countryName(a.country)} (it set the shipping price, so it stays).</p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {ADDRESS_FIELDS.map((field) => (
          <TextField
            key={field.key}
            id={`address-${field.key}`}
            label={field.label}
            value={address[field.key]}
            maxLength={200}
            onChange={(e) => setAddress({ ...address, [field.key]: e.target.value })}
          />
        ))}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" className="btn-primary">
          Save address
        </button>
        <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Refunds part of the payment: an amount and a reason (the customer reads it in their email), never more than
 * what is left; the database holds to that too, whoever else is refunding at the same moment.
 */
function RefundPartForm({ order, refunds, reload }: { order: Order; refunds: OrderRefunds; reload: () => void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ field: 'amount' | 'reason' | 'form'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // A checked amount waits here for the publisher's "yes": money sent back cannot be taken back.
  const [confirming, setConfirming] = useState<{ cents: number } | null>(null);
  const left = refunds.remaining - refunds.pending;

  function submit(event: SubmitEvent) {
    event.preventDefault();
    const parsed = parseRefundAmount(amount);
    if ('error' in parsed) return setError({ field: 'amount', message: parsed.error });
    if (parsed.cents > Math.round(left * 100)) {
      return setError({ field: 'amount', message: `You can refund at most ${formatPrice(left)} on this order: that is what is left of its payment.` });
    }
    if (reason.trim() === '') return setError({ field: 'reason', message: 'Give a reason for the refund.' });
    setError(null);
    setConfirming({ cents: parsed.cents });
  }

  async function refund(cents: number) {
    setConfirming(null);
    setBusy(true);
    try {
      toast({ title: await runOrderAction({ action: 'refund_part', orderId: order.id, amountCents: cents, reason }) });
      setAmount('');
      setReason('');
    } catch (failure) {
      setError({ field: 'form', message: failure instanceof Error ? failure.message : 'The refund failed.' });
    } finally {
      setBusy(false);
      reload();
    }
  }

  const describedBy = (field: 'amount' | 'reason') => (error?.field === field ? 'refund-error' : undefined);
  return (
    <form onSubmit={submit} noValidate className="rounded-2xl bg-white p-4 ring-1 ring-slate-200" aria-labelledby="refund-heading" aria-busy={busy}>
      <h3 id="refund-heading" className="text-lg font-bold">
        Refund part
      </h3>
      <p className="mt-1 text-sm text-slate-700" data-testid="refund-summary">
        Paid {formatPrice(refunds.total)} · Refunded {formatPrice(refunds.refunded)} · <strong>Left to refund {formatPrice(left)}</strong>
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr]">
        <div>
          <label htmlFor="refund-amount" className="label">
            Amount (AUD)
          </label>
          <input
            id="refund-amount"
            className="field"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            maxLength={12}
            onChange={(e) => {
              setAmount(e.target.value);
              setConfirming(null);
            }}
            aria-invalid={error?.field === 'amount' ? true : undefined}
            aria-describedby={[describedBy('amount'), 'refund-amount-hint'].filter(Boolean).join(' ')}
          />
          {/* A hint, not a placeholder: a greyed 12.50 in the box reads as an amount already there. */}
          <p id="refund-amount-hint" className="mt-1 text-sm text-slate-600">
            Dollars and cents, such as 12.50
          </p>
        </div>
        <div>
          <label htmlFor="refund-reason" className="label">
            Reason (the customer reads it in their email)
          </label>
          <input
            id="refund-reason"
            className="field"
            value={reason}
            maxLength={500}
            onChange={(e) => {
              setReason(e.target.value);
              setConfirming(null);
            }}
            aria-invalid={error?.field === 'reason' ? true : undefined}
            aria-describedby={describedBy('reason')}
          />
        </div>
      </div>
      {error && (
        <p id="refund-error" role="alert" className="mt-2 text-sm font-semibold text-red-800">
          {error.message}
        </p>
      )}
      {confirming ? (
        <span className="mt-3 flex flex-wrap items-center gap-2 rounded-xl bg-red-50 p-2">
          <span className="text-sm text-red-900" role="status">
            Refund {formatPrice(confirming.cents / 100)} to the customer’s card? It cannot be undone.
          </span>
          <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => void refund(confirming.cents)}>
            Confirm refund of {formatPrice(confirming.cents / 100)}
          </button>
          <button type="button" className="btn-secondary" onClick={() => setConfirming(null)}>
            Don’t refund
          </button>
        </span>
      ) : (
        <button type="submit" className="btn-primary mt-3" aria-disabled={busy || undefined}>
          {busy ? 'Refunding...' : 'Refund part'}
        </button>
      )}
    </form>
  );
}

/** The part refunds so far, with their reasons. */
function RefundList({ refunds }: { refunds: OrderRefunds }) {
  if (refunds.parts.length === 0) return null;
  return (
    <section aria-labelledby="refunds-heading">
      <h3 id="refunds-heading" className="text-lg font-bold">
        Part refunds
      </h3>
      <ul className="mt-2 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
        {refunds.parts.map((part) => (
          <li key={part.created_at} className="flex flex-wrap justify-between gap-x-3 px-4 py-2">
            <span className="min-w-0 break-words">
              <strong>{formatPrice(part.amount)}</strong> — {part.reason}
              {part.status !== 'succeeded' && <span className="text-sm text-red-800"> ({part.status === 'pending' ? 'in progress' : 'did not go through'})</span>}
            </span>
            <span className="text-sm text-slate-700">
              {formatDateTime(part.created_at)} by {part.actor}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Paid, or an invoice's order the publisher chose to ship before the school pays (the server allows both). */
function shippable(order: Order): boolean {
  return order.payment_status === 'paid' || (order.kind === 'invoice' && order.ship_before_payment === true && order.status !== 'pending');
}

/** An invoice's order: the school, its PO number and the invoice, where its money is voided or credited. */
function InvoiceFacts({ order }: { order: Order }) {
  return (
    <section aria-labelledby="invoice-order-heading" className="space-y-1 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <h3 id="invoice-order-heading" className="text-lg font-bold">
        Bought on account
      </h3>
      {order.organisation && <p>{order.organisation}</p>}
      <p>PO number: {order.po_number ?? 'none given'}</p>
      {order.invoice_id && (
        <p>
          <a className="font-semibold text-navy underline" href={`#invoice/${order.invoice_id}`}>
            Invoice {order.invoice_number ?? ''}
          </a>
        </p>
      )}
    </section>
  );
}

function Actions({ order, act, reload }: { order: Order; act: (request: OrderActionRequest) => Promise<void>; reload: () => void }) {
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [confirmingDelivered, setConfirmingDelivered] = useState(false);
  const paid = order.payment_status === 'paid';
  const onAccount = order.kind === 'invoice';
  // The server never cancels an invoice's order: its money goes back on the invoice.
  const cancellable = paid && !onAccount && order.status === 'processing';
  return (
    <div className="flex flex-wrap gap-2">
      <a href={`/admin/packing-slip?order=${order.id}`} className="btn-secondary">
        Print packing slip
      </a>
      {order.status === 'shipped' && !confirmingDelivered && (
        <button type="button" className="btn-secondary" onClick={() => setConfirmingDelivered(true)}>
          Mark as delivered
        </button>
      )}
      {order.status === 'shipped' && confirmingDelivered && (
        <span className="flex flex-wrap items-center gap-2 rounded-xl bg-sky p-2">
          <span className="text-sm">Has the customer received the parcel?</span>
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              setConfirmingDelivered(false);
              void act({ action: 'deliver', orderId: order.id });
            }}
          >
            Confirm delivered
          </button>
          <button type="button" className="btn-secondary" onClick={() => setConfirmingDelivered(false)}>
            Not yet
          </button>
        </span>
      )}
      {order.status === 'completed' && order.delivered_at && (
        <button type="button" className="btn-secondary" onClick={() => changeAndReload(() => undoDelivered(order.id), 'Order back to shipped.', reload)}>
          Undo delivered
        </button>
      )}
      {paid && order.status !== 'cancelled' && (
        <button type="button" className="btn-secondary" onClick={() => act({ action: 'resend_confirmation', orderId: order.id })}>
          Resend confirmation
        </button>
      )}
      {order.payment_status === 'refund_due' && !order.refunded_at && (
        <button type="button" className="btn-primary" onClick={() => act({ action: 'retry_refund', orderId: order.id })}>
          Retry refund
        </button>
      )}
      {cancellable && !confirmingCancel && (
        <button type="button" className="btn-secondary" onClick={() => setConfirmingCancel(true)}>
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
      {cancellable && confirmingCancel && (
        <span className="flex flex-wrap items-center gap-2 rounded-xl bg-red-50 p-2">
          <span className="text-sm text-red-900">Refund {formatPrice(order.total_amount)} in full and put the stock back?</span>
          <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => act({ action: 'cancel', orderId: order.id })}>
            Confirm cancel and refund
          </button>
          <button type="button" className="btn-secondary" onClick={() => setConfirmingCancel(false)}>
            Keep the order
          </button>
        </span>
      )}
    </div>
  );
}

export function OrderDetail({ orderId }: { orderId: string }) {
  const { state, reload } = useLoad(useCallback(() => Promise.all([getOrder(orderId), getOrderRefunds(orderId)]), [orderId]));
  const [busy, setBusy] = useState(false);

  async function act(request: OrderActionRequest) {
    setBusy(true);
    await toastOutcome(() => runOrderAction(request), 'The action failed.');
    setBusy(false);
    reload();
  }

  if (state.status !== 'ready') return <LoadState state={state} what="the order" />;
  const [order, refunds] = state.data;
  const paymentLabel = order.refunded_at ? 'refunded' : refunds.refunded > 0 ? 'partly refunded' : order.payment_status.replace('_', ' ');
  const method = order.shipping_method;
  return (
    <article aria-labelledby="order-heading" aria-busy={busy} className="space-y-6">
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
      <Actions order={order} act={act} reload={reload} />
      {order.kind === 'invoice' && <InvoiceFacts order={order} />}
      {shippable(order) && order.status !== 'cancelled' && <PlatformPanel order={order} act={act} reload={reload} />}
      {shippable(order) && (order.status === 'processing' || order.status === 'shipped') && <ShipForm key={order.tracking_number ?? ''} order={order} act={act} />}
      {refunds.refundable && <RefundPartForm order={order} refunds={refunds} reload={reload} />}
      <NoteForm key={`note-${order.internal_note ?? ''}`} order={order} reload={reload} />
      {shippable(order) && order.status === 'processing' && !order.shipped_at && <AddressForm key={`address-${JSON.stringify(order.shipping_address)}`} order={order} reload={reload} />}
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
      <section aria-labelledby="items-heading">
        <h3 id="items-heading" className="text-lg font-bold">
          Items
        </h3>
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
      </section>
      <RefundList refunds={refunds} />
      <section aria-labelledby="history-heading">
        <h3 id="history-heading" className="text-lg font-bold">
          History
        </h3>
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
      </section>
    </article>
  );
}
