/** /order-status/invoice#<token>: the order's tax invoice on its own, ready to print on A4 or save as a PDF. */
import { orderStatusPath } from '@/lib/paths';
import { useEffect, useState } from 'react';
import { fetchOrderStatus, type OrderStatus } from '@/features/order-status/OrderStatusPage';
import TaxInvoice from './TaxInvoice';

type State = { status: 'loading' } | { status: 'ready'; order: OrderStatus } | { status: 'error'; message: string };

export default function TaxInvoicePage() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [token, setToken] = useState('');
  useEffect(() => {
    const hash = window.location.hash.replace(/^#/, '');
    setToken(hash);
    fetchOrderStatus(hash).then(
      (order) => setState({ status: 'ready', order }),
      (error: Error) => setState({ status: 'error', message: error.message }),
    );
  }, []);

  if (state.status === 'loading')
    return (
      <p role="status" className="text-center text-slate-700">
        Loading your tax invoice...
      </p>
    );
  const onAccount = state.status === 'ready' ? state.order.accountInvoice : null;
  if (onAccount) {
    // Bought on account: the invoice the school holds is the tax invoice; the shop draws no second one.
    return (
      <div className="text-center">
        <h1 className="text-3xl font-extrabold">Tax invoice</h1>
        <p role="alert" className="mt-4 text-slate-700">
          This order was bought on account: its tax invoice is invoice {onAccount.number}
          {onAccount.poNumber && <> (PO number: {onAccount.poNumber})</>}.
        </p>
        {onAccount.url && (
          <p className="mt-4">
            <a href={onAccount.url} className="btn-secondary" rel="noopener" target="_blank">
              View invoice {onAccount.number}
            </a>
          </p>
        )}
      </div>
    );
  }
  if (state.status === 'error' || !state.order.invoice) {
    return (
      <div className="text-center">
        <h1 className="text-3xl font-extrabold">Tax invoice</h1>
        <p role="alert" className="mt-4 text-slate-700">
          {state.status === 'error' ? state.message : 'This order has no tax invoice yet: it is issued once the order is paid.'}
        </p>
      </div>
    );
  }
  return (
    <article className="invoice mx-auto max-w-2xl rounded-3xl bg-white p-6 ring-1 ring-slate-200 md:p-8 print:max-w-none print:rounded-none print:p-0 print:ring-0">
      <div className="mb-4 flex flex-wrap gap-3 print:hidden">
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          Print
        </button>
        <a href={orderStatusPath(token)} className="btn-secondary">
          Back to the order
        </a>
      </div>
      <TaxInvoice invoice={state.order.invoice} headingLevel={1} />
    </article>
  );
}
