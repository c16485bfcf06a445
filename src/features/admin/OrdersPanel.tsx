/**
 * Orders: the To pack / Shipped / Refunds due / All views and a search by order number or email. Unpaid
 * checkout attempts are not orders: they show only under All, when asked for.
 */
import { useState } from 'react';
import { formatPrice, formatShortDate, orderNumber } from '@/lib/format';
import { useDebounced } from '@/lib/use-debounced';
import { StatusBadge } from '@/features/account/StatusBadge';
import { listOrders, ORDER_VIEWS, type OrderView } from './api';
import { LoadState, useLoad } from './use-load';

export function OrdersPanel() {
  const [view, setView] = useState<(typeof ORDER_VIEWS)[number]['id']>('to_pack');
  const [unpaidOnly, setUnpaidOnly] = useState(false);
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 250);
  const asked: OrderView = view === 'all' && unpaidOnly ? 'unpaid' : view;
  const { state } = useLoad(() => listOrders(asked, query), [asked, query]);

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading" className="text-2xl font-bold">
        Orders
      </h2>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        {/* biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons, not a form's fieldset. */}
        <div role="group" aria-label="Which orders" className="flex flex-wrap gap-2">
          {ORDER_VIEWS.map((v) => (
            <button key={v.id} type="button" aria-pressed={view === v.id} onClick={() => setView(v.id)} className={view === v.id ? 'btn-primary' : 'btn-secondary'}>
              {v.label}
            </button>
          ))}
        </div>
        <div className="min-w-56 flex-1">
          <label htmlFor="order-search" className="label">
            Search by order number or email
          </label>
          <input id="order-search" type="search" className="field" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        {view === 'all' && (
          <label className="flex items-center gap-2 py-2 text-sm font-semibold text-slate-700">
            <input type="checkbox" className="h-4 w-4" checked={unpaidOnly} onChange={(e) => setUnpaidOnly(e.target.checked)} />
            Unpaid checkout attempts only
          </label>
        )}
        {view === 'to_pack' && (
          <a href="/admin/packing-slip?view=to_pack" className="btn-secondary">
            Print all packing slips
          </a>
        )}
      </div>
      <LoadState state={state} what="orders" />
      {state.status === 'ready' && state.data.length === 0 && <p className="mt-4 text-slate-700">No orders here.</p>}
      {state.status === 'ready' && state.data.length > 0 && (
        <div className="mt-4 overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Order
                </th>
                <th scope="col" className="px-3 py-2">
                  Date
                </th>
                <th scope="col" className="px-3 py-2">
                  Customer
                </th>
                <th scope="col" className="px-3 py-2">
                  Items
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {state.data.map((o) => (
                <tr key={o.id} className="border-b border-slate-100 last:border-0">
                  <td className="px-3 py-2">
                    <a href={`#order/${o.id}`} className="font-mono font-semibold text-navy underline">
                      {orderNumber(o.id)}
                    </a>
                  </td>
                  <td className="px-3 py-2">{formatShortDate(o.created_at)}</td>
                  <td className="px-3 py-2 break-all">{o.customer_email}</td>
                  <td className="px-3 py-2">{o.item_count}</td>
                  <td className="px-3 py-2">
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="px-3 py-2 text-right font-semibold">{formatPrice(o.total_amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
