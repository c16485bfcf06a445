/**
 * Orders: the To pack / Shipped / Refunds due / All views and a search by order number or email. Unpaid
 * checkout attempts are not orders: they show only under All, when asked for. A table on a desk; one card per
 * order on a phone, with nothing cut off. Each view pages through every order, 50 at a time (Load more orders);
 * the view, the search and the pages loaded stay in the address (#orders?view=all&q=…&after=…).
 */
import { Suspense, useState } from 'react';
import { lazyNamed } from '@/lib/lazy-named';
import { countOf, countryName, formatPrice, formatShortDate, orderNumber } from '@/lib/format';
import { StatusBadge } from '@/features/account/StatusBadge';
import { ActionButton } from '@/features/forms/fields';
import { listOrders, ORDER_VIEWS, printLabels, type OrderListItem, type OrderView } from './orders-api';
import { changeParams, useSearchParam } from './route';
import { keys, useAction, usePagedQuery, useRefresh } from './queries';
import { CardsOrTable } from '@/components/CardsOrTable';
import { TableHead } from '@/components/TableHead';
import { PagedList, SearchField, ViewButtons } from './ListControls';
import { Panel } from '@/components/Section';

// Loaded when the publisher first ships a selection.
const ParcelsForm = lazyNamed(() => import('@/features/shipping/ParcelsForm'), 'ParcelsForm');

interface Selection {
  selected: ReadonlySet<string>;
  toggle: (id: string) => void;
}

type ViewId = (typeof ORDER_VIEWS)[number]['id'];

export function OrdersPanel({ params }: { params: URLSearchParams }) {
  const view: ViewId = ORDER_VIEWS.find((v) => v.id === params.get('view'))?.id ?? 'to_pack';
  const unpaidOnly = view === 'all' && params.get('unpaid') === '1';
  const [search, setSearch] = useSearchParam('orders', params);
  const query = params.get('q') ?? '';
  const asked: OrderView = unpaidOnly ? 'unpaid' : view;
  const pages = usePagedQuery(
    [...keys.orders, 'list', asked, query],
    params,
    (cursor) => listOrders(asked, query, cursor),
    (o) => o.id,
  );
  const { state } = pages;
  const refresh = useRefresh();
  const setView = (id: ViewId) => changeParams('orders', params, { view: id === 'to_pack' ? null : id, unpaid: null, after: null });
  const setUnpaidOnly = (only: boolean) => changeParams('orders', params, { unpaid: only ? '1' : null, after: null });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [shipping, setShipping] = useState<OrderListItem[] | null>(null);
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const chosen = state.status === 'ready' ? state.data.filter((o) => selected.has(o.id)) : [];
  // Each printed label ships its order, so the orders are read again after.
  const { act: printAll, busy: printing } = useAction(printLabels, [keys.orders], 'The labels could not be printed.');
  async function print(request: { orderIds: string[] } | { toPack: true }) {
    if (await printAll(request)) setSelected(new Set());
  }

  return (
    <Panel id="orders-heading" title="Orders">
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <ViewButtons label="Which orders" views={ORDER_VIEWS} current={view} onChoose={setView} />
        <SearchField id="order-search" label="Search by order number or email" value={search} onChange={setSearch} />
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
        {view === 'to_pack' && state.status === 'ready' && state.data.length > 0 && (
          <ActionButton className="btn-primary" busy={printing} onClick={() => void print({ toPack: true })}>
            {printing ? 'Printing labels...' : 'Print labels for all to pack'}
          </ActionButton>
        )}
      </div>
      {view === 'to_pack' && chosen.length > 0 && (
        <div className="mt-4 flex flex-wrap items-center gap-2 rounded-2xl bg-sky p-3">
          <span className="font-semibold">{countOf(chosen.length, 'order')} selected</span>
          <a href={`/admin/packing-slip?order=${chosen.map((o) => o.id).join(',')}`} className="btn-secondary">
            Print their packing slips
          </a>
          <ActionButton className="btn-secondary" busy={printing} onClick={() => void print({ orderIds: chosen.map((o) => o.id) })}>
            Print their labels
          </ActionButton>
          <button type="button" className="btn-primary" onClick={() => setShipping(chosen)}>
            Ship selected
          </button>
        </div>
      )}
      {view === 'to_pack' && shipping && (
        <Suspense fallback={null}>
          <ParcelsForm
            key={shipping.map((o) => o.id).join()}
            orders={shipping}
            onDone={() => {
              setSelected(new Set());
              void refresh(keys.orders);
            }}
          />
        </Suspense>
      )}
      <PagedList pages={pages} section="orders" params={params} what="orders">
        {(orders) => <OrderList orders={orders} selection={view === 'to_pack' ? { selected, toggle } : undefined} />}
      </PagedList>
    </Panel>
  );
}

/** An email address that, when it must wrap, wraps after its @ or a dot, never inside a word. */
export function Email({ address }: { address: string }) {
  const parts = address.split(/(?<=[@.])/);
  return (
    <span className="[overflow-wrap:normal]">
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one address, never reordered.
        <span key={i}>
          {i > 0 && <wbr />}
          {part}
        </span>
      ))}
    </span>
  );
}

/** What the packer needs before picking up a parcel: Express or Standard, where it goes, and whether it is a gift. */
function parcelFacts(o: Pick<OrderListItem, 'delivery_method' | 'country' | 'is_gift'>): string {
  const speed = /express/i.test(o.delivery_method ?? '') ? 'Express' : 'Standard';
  return [speed, ...(o.country ? [countryName(o.country)] : []), ...(o.is_gift ? ['Gift'] : [])].join(' · ');
}

/** The orders as a table from 640 px, as cards below; each links to its order. Shared with a customer's page. */
export function OrderList({ orders, selection }: { orders: OrderListItem[]; selection?: Selection }) {
  const pick = (o: OrderListItem) =>
    selection && <input type="checkbox" className="h-5 w-5" checked={selection.selected.has(o.id)} onChange={() => selection.toggle(o.id)} aria-label={`Select order ${orderNumber(o.number)}`} />;
  return (
    <CardsOrTable
      label="Orders"
      from="sm"
      cards={orders.map((o) => (
        <li key={o.id} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
          <div className="flex items-center justify-between gap-2">
            <span className="flex items-center gap-3">
              {pick(o)}
              <a href={`#order/${o.id}`} className="font-mono text-lg font-semibold text-navy underline">
                {orderNumber(o.number)}
              </a>
            </span>
            <StatusBadge status={o.status} />
          </div>
          <p className="mt-1">
            <Email address={o.customer_email} />
          </p>
          <p className="mt-1 text-sm font-semibold" data-testid="parcel-facts">
            {parcelFacts(o)}
          </p>
          <div className="mt-1 flex items-center justify-between gap-2 text-sm text-slate-700">
            <span>
              {formatShortDate(o.created_at)} · {countOf(o.item_count, 'copy', 'copies')}
            </span>
            <span className="text-base font-semibold text-slate-900">{formatPrice(o.total_amount)}</span>
          </div>
        </li>
      ))}
      head={
        <TableHead
          className="border-b border-slate-200 text-slate-600"
          cell="px-3 py-2"
          columns={[selection && { label: 'Select', srOnly: true }, 'Order', 'Date', 'Customer', 'Items', 'Delivery', 'Status', { label: 'Total', right: true }]}
        />
      }
      rows={orders.map((o) => (
        <tr key={o.id} className="border-b border-slate-100 last:border-0">
          {selection && <td className="px-3 py-2">{pick(o)}</td>}
          <td className="px-3 py-2">
            <a href={`#order/${o.id}`} className="font-mono font-semibold text-navy underline">
              {orderNumber(o.number)}
            </a>
          </td>
          <td className="px-3 py-2">{formatShortDate(o.created_at)}</td>
          <td className="px-3 py-2">
            <Email address={o.customer_email} />
          </td>
          <td className="px-3 py-2">{o.item_count}</td>
          <td className="px-3 py-2" data-testid="parcel-facts">
            {parcelFacts(o)}
          </td>
          <td className="px-3 py-2">
            <StatusBadge status={o.status} />
          </td>
          <td className="px-3 py-2 text-right font-semibold">{formatPrice(o.total_amount)}</td>
        </tr>
      ))}
    />
  );
}
