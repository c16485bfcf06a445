/** /order-status#<token>: a shopper's order, reached from their emails without an account. */
import { postJson } from '@/lib/post-json';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import * as z from '@/lib/zod-mini';
import { ORDER_STAGE_TEXT, orderStage } from '@/features/account/order-stage';
import TaxInvoice from '@/features/tax-invoice/TaxInvoice';
import { quantityLine, taxInvoicePath, taxInvoiceSchema } from '@/features/tax-invoice/tax-invoice';
import { formatDateTime, formatLongDate } from '@/lib/format';
import GiftMessageBox from '@/features/checkout/GiftMessageBox';
import CancelPreorder from './CancelPreorder';
import { Section } from '@/components/Section';

const answer = z.object({
  orderNumber: z.string(),
  status: z.string(),
  paymentStatus: z.string(),
  refunded: z.boolean(),
  deliveryMethod: z.string(),
  items: z.array(z.object({ title: z.string(), quantity: z.number() })),
  tracking: z.nullable(z.object({ number: z.string(), carrier: z.string(), url: z.nullable(z.string()) })),
  latestTracking: z.optional(z.nullable(z.object({ status: z.string(), at: z.string() }))),
  preorders: z._default(z.array(z.object({ title: z.string(), releaseDate: z.string() })), []),
  gift: z.optional(z.nullable(z.object({ recipient: z.string(), message: z.string(), hidePrices: z.boolean() }))),
  invoice: z._default(z.nullable(taxInvoiceSchema), null),
  accountInvoice: z._default(z.nullable(z.object({ number: z.string(), poNumber: z.nullable(z.string()), organisation: z.string(), url: z.nullable(z.string()), total: z.string() })), null),
});
export type OrderStatus = z.infer<typeof answer>;

type State = { status: 'loading' } | { status: 'ready'; order: OrderStatus } | { status: 'error'; message: string };

/** The order behind a status token, with its tax invoice once paid; throws the server's message. */
export async function fetchOrderStatus(token: string): Promise<OrderStatus> {
  const { ok, body } = await postJson('/api/order-status', { token });
  if (!ok) throw new Error(z.catch(z.object({ error: z.string() }), { error: 'We could not load your order just now.' }).parse(body).error);
  return answer.parse(body);
}

export default function OrderStatusPage() {
  const [state, setState] = useState<State>({ status: 'loading' });
  // What the buyer's own change did (their pre-order cancelled), said over the order read again after it.
  const [notice, setNotice] = useState<string | null>(null);
  const latest = useRef(0);
  /** Reads the order; `quiet` keeps the order shown while it is read again. */
  const load = (quiet = false) => {
    const request = ++latest.current;
    if (!quiet) setState({ status: 'loading' });
    fetchOrderStatus(window.location.hash.replace(/^#/, '')).then(
      (order) => request === latest.current && setState({ status: 'ready', order }),
      (error: Error) => request === latest.current && setState({ status: 'error', message: error.message }),
    );
  };
  const open = useEffectEvent(() => {
    setNotice(null);
    load();
  });
  useEffect(() => {
    open();
    // Another order's link opened in the same tab changes only the fragment.
    const opened = () => open();
    window.addEventListener('hashchange', opened);
    return () => window.removeEventListener('hashchange', opened);
  }, []);
  // The question's button is gone with the answer: focus goes to the sentence saying what happened.
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (notice) said.current?.focus();
  }, [notice]);

  if (state.status === 'loading')
    return (
      <p role="status" className="text-center text-slate-700">
        Loading your order...
      </p>
    );
  if (state.status === 'error') {
    return (
      <div className="text-center">
        <h1 className="text-3xl font-extrabold">Order status</h1>
        <p role="alert" className="mt-4 text-slate-700">
          {state.message}
        </p>
      </div>
    );
  }
  const { order } = state;
  const stage = ORDER_STAGE_TEXT[orderStage(order)];
  return (
    <article aria-labelledby="status-heading" className="mx-auto max-w-2xl rounded-3xl bg-white p-6 ring-1 ring-slate-200 md:p-8">
      <h1 id="status-heading" className="text-3xl font-extrabold">
        Order <span className="font-mono">{order.orderNumber}</span>
      </h1>
      <h2 className="mt-4 text-xl font-bold" data-testid="order-stage">
        {stage.label}
      </h2>
      <p className="mt-1 text-slate-700">{stage.text}</p>
      {notice && (
        <p ref={said} role="status" tabIndex={-1} className="mt-3 font-semibold">
          {notice}
        </p>
      )}
      {order.status === 'preorder' && (
        <>
          <ul className="mt-2" data-testid="preorder-dates">
            {order.preorders.map((title) => (
              <li key={title.title}>
                Ships when {title.title} is out, {formatLongDate(title.releaseDate)}.
              </li>
            ))}
          </ul>
          <CancelPreorder
            token={window.location.hash.replace(/^#/, '')}
            onChanged={(message) => {
              setNotice(message);
              load(true);
            }}
          />
        </>
      )}
      <h2 className="mt-6 text-lg font-bold">Items</h2>
      <ul className="mt-2 list-inside list-disc">
        {order.items.map((item) => (
          <li key={item.title}>{quantityLine(item.title, item.quantity)}</li>
        ))}
      </ul>
      {order.gift && (
        <Section id="gift-heading" title={<>A gift for {order.gift.recipient}</>} level={2} headingClassName="mt-6 text-lg font-bold">
          {order.gift.message && <GiftMessageBox message={order.gift.message} className="mt-2" />}
          <p className="mt-2">{order.gift.hidePrices ? 'Prices are left out of the parcel.' : 'The gift slip shows the prices, as you asked.'}</p>
        </Section>
      )}
      <h2 className="mt-6 text-lg font-bold">Delivery</h2>
      <p className="mt-2">{order.deliveryMethod}</p>
      {order.tracking && (
        <p className="mt-2">
          Tracking number ({order.tracking.carrier}): <strong className="font-mono">{order.tracking.number}</strong>
          {order.tracking.url && (
            <>
              {' '}
              ·{' '}
              <a href={order.tracking.url} className="font-semibold text-navy underline" rel="noopener" target="_blank">
                Track your parcel
              </a>
            </>
          )}
        </p>
      )}
      {order.latestTracking && (
        <p className="mt-2" data-testid="latest-tracking">
          Latest from the carrier: <strong>{order.latestTracking.status}</strong> — {formatDateTime(order.latestTracking.at)}
        </p>
      )}
      {order.accountInvoice && (
        <Section id="account-invoice-heading" title={<>Invoice {order.accountInvoice.number}</>} level={2} headingClassName="mt-6 text-lg font-bold" data-testid="account-invoice">
          <p className="mt-2">
            Bought on account by {order.accountInvoice.organisation}
            {order.accountInvoice.poNumber && <>, PO number: {order.accountInvoice.poNumber}</>}.
          </p>
          <p className="mt-2 font-semibold" data-testid="account-payment">
            {order.accountInvoice.total}
          </p>
          {order.accountInvoice.url && (
            <p className="mt-4">
              <a href={order.accountInvoice.url} className="btn-secondary" rel="noopener" target="_blank">
                View invoice {order.accountInvoice.number}
              </a>
            </p>
          )}
        </Section>
      )}
      {order.invoice && (
        <>
          <TaxInvoice invoice={order.invoice} />
          <p className="mt-4">
            <a href={taxInvoicePath(window.location.hash.replace(/^#/, ''))} className="btn-secondary">
              Print tax invoice
            </a>
          </p>
        </>
      )}
    </article>
  );
}
