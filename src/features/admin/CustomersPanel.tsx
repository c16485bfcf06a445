/**
 * Customers: everyone who has paid for an order, guests and accounts, one per email address — name, orders,
 * total spent (less refunds), last order — with a search by name or email; each opens their orders. 50 at a
 * time (Load more customers), the search and the pages loaded kept in the address (#customers?q=…&after=…).
 */
import { useQuery } from '@tanstack/react-query';
import { countOf, formatPrice, formatShortDate } from '@/lib/format';
import { getCustomer, listCustomers, type Customer } from './sales-api';
import { Email, OrderList } from './OrdersPanel';
import { useSearchParam } from './route';
import { keys, LoadState, loaded, usePagedQuery } from './queries';
import { PagedList, SearchField } from './ListControls';
import { Panel, RecordPanel } from '@/components/Section';

const customerHref = (email: string) => `#customer/${encodeURIComponent(email)}`;

function Kind({ customer }: { customer: Pick<Customer, 'has_account'> }) {
  return <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{customer.has_account ? 'Account' : 'Guest'}</span>;
}

export function CustomersPanel({ params }: { params: URLSearchParams }) {
  const [search, setSearch] = useSearchParam('customers', params);
  const query = params.get('q') ?? '';
  const pages = usePagedQuery(
    [...keys.customers, 'list', query],
    params,
    (cursor) => listCustomers(query, cursor),
    (c) => c.email,
  );
  return (
    <Panel id="customers-heading" title="Customers">
      <SearchField id="customer-search" label="Search by name or email" value={search} onChange={setSearch} className="mt-4 max-w-md" />
      <PagedList pages={pages} section="customers" params={params} what="customers">
        {(customers) => (
          <>
            <p className="mt-3 text-sm text-slate-700">
              {countOf(customers.length, 'customer')}
              {pages.next ? ' shown' : ''}, most recent order first.
            </p>
            <ul className="mt-2 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200" aria-label="Customers">
              {customers.map((c) => (
                <li key={c.email} className="grid gap-1 px-4 py-3 sm:grid-cols-[1fr_auto] sm:items-center sm:gap-4">
                  <div className="min-w-0">
                    <a href={customerHref(c.email)} className="font-semibold text-navy underline">
                      {c.name || c.email}
                    </a>{' '}
                    <Kind customer={c} />
                    <p className="text-sm text-slate-700">
                      <Email address={c.email} />
                    </p>
                  </div>
                  <p className="text-sm sm:text-right">
                    {countOf(c.orders, 'order')} · <strong>{formatPrice(c.total_spent)}</strong> spent
                    <span className="block text-slate-700">last order {formatShortDate(c.last_order_at)}</span>
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </PagedList>
    </Panel>
  );
}

export function CustomerDetail({ email }: { email: string }) {
  const state = loaded(useQuery({ queryKey: [...keys.customers, 'detail', email], queryFn: () => getCustomer(email) }));
  return (
    <RecordPanel id="customer-heading" back="#customers" backLabel="All customers">
      <LoadState state={state} what="the customer" />
      {state.status === 'ready' && state.data === null && <p className="text-slate-700">No paid orders from {email}.</p>}
      {state.status === 'ready' && state.data && (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <h2 id="customer-heading" className="text-2xl font-bold">
              {state.data.name || state.data.email}
            </h2>
            <Kind customer={state.data} />
          </div>
          <p>
            <Email address={state.data.email} />
          </p>
          <p>
            {countOf(state.data.orders, 'order')} · <strong>{formatPrice(state.data.total_spent)}</strong> spent · last order {formatShortDate(state.data.last_order_at)}
          </p>
          <OrderList orders={state.data.order_list} />
        </>
      )}
    </RecordPanel>
  );
}
