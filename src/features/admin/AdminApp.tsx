/**
 * /admin: the publisher's back office. Sections are chosen by the address fragment (#orders, #order/<id>, #sales,
 * #preorders, #customers, #customer/<email>, #quotes, #quote/<id>, #invoices, #invoice/<id> or #invoice/new, #stock, #codes,
 * #messages, #subscribers, #newsletter, #reviews, #accounts); a list's view, search and pages loaded follow a `?` (route.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { type ComponentType, Suspense, useEffect, useState } from 'react';
import { lazyNamed } from '@/lib/lazy-named';
import { MessagesPanel } from './MessagesPanel';
import { OrdersPanel } from './OrdersPanel';
import { keys } from './queries';
import { parseHash } from './route';
import { StaffGate } from './StaffGate';
import { StockPanel } from './StockPanel';
import { SubscribersPanel } from './SubscribersPanel';

/**
 * The sections, in their tabs' order, each with the screen of its list. All but the orders list the back office opens on
 * (and the small stock, messages and subscribers lists) are loaded when first opened, so that first screen stays small.
 */
const SCREENS: Record<string, ComponentType<{ params: URLSearchParams }>> = {
  orders: OrdersPanel,
  preorders: lazyNamed(() => import('./PreordersPanel'), 'PreordersPanel'),
  sales: lazyNamed(() => import('./SalesPanel'), 'SalesPanel'),
  customers: lazyNamed(() => import('./CustomersPanel'), 'CustomersPanel'),
  quotes: lazyNamed(() => import('@/features/on-account/QuotesPanel'), 'QuotesPanel'),
  invoices: lazyNamed(() => import('@/features/on-account/InvoicesPanel'), 'InvoicesPanel'),
  stock: StockPanel,
  codes: lazyNamed(() => import('./CodesPanel'), 'CodesPanel'),
  messages: MessagesPanel,
  subscribers: SubscribersPanel,
  newsletter: lazyNamed(() => import('./NewsletterPanel'), 'NewsletterPanel'),
  reviews: lazyNamed(() => import('@/features/reviews/ReviewsPanel'), 'ReviewsPanel'),
  accounts: lazyNamed(() => import('@/features/accounting/AccountsPanel'), 'AccountsPanel'),
};
const OrderDetail = lazyNamed(() => import('./OrderDetail'), 'OrderDetail');
const CustomerDetail = lazyNamed(() => import('./CustomersPanel'), 'CustomerDetail');
const QuoteDetail = lazyNamed(() => import('@/features/on-account/QuotesPanel'), 'QuoteDetail');
const InvoicePage = lazyNamed(() => import('@/features/on-account/InvoiceEditor'), 'InvoicePage');

// Each section's tab says its name: 'orders' is Orders; a name of two words is written out.
const LABELS: Record<string, string> = { preorders: 'Pre-orders' };
const SECTIONS = Object.keys(SCREENS).map((id) => ({ id, label: LABELS[id] ?? `${id[0]?.toUpperCase()}${id.slice(1)}` }));

function useHash(): string {
  const [hash, setHash] = useState(() => window.location.hash.replace(/^#/, ''));
  useEffect(() => {
    const update = () => setHash(window.location.hash.replace(/^#/, ''));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return hash;
}

function decodeHash(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function Section({ hash }: { hash: string }) {
  const { path, params } = parseHash(hash);
  const orderId = hash.match(/^order\/([0-9a-f-]{36})$/)?.[1];
  if (orderId) return <OrderDetail orderId={orderId} />;
  const customer = hash.match(/^customer\/(.+)$/)?.[1];
  if (customer) return <CustomerDetail email={decodeHash(customer)} />;
  const quoteId = hash.match(/^quote\/([0-9a-f-]{36})$/)?.[1];
  if (quoteId) return <QuoteDetail quoteId={quoteId} />;
  const invoiceId = hash.match(/^invoice\/([0-9a-f-]{36}|new)$/)?.[1];
  if (invoiceId) return <InvoicePage key={invoiceId} invoiceId={invoiceId === 'new' ? null : invoiceId} />;
  const Screen = Object.hasOwn(SCREENS, path) ? SCREENS[path] : undefined;
  return Screen ? <Screen params={params} /> : <OrdersPanel params={new URLSearchParams()} />;
}

/**
 * How many quote requests still wait for an answer, on the Quotes tab. Mounted with the section as its key, so it
 * reads again whenever the section changes (one may just have been answered), showing the last count meanwhile.
 */
function NewQuotes() {
  // Loaded apart from the orders list the back office opens on, like the panels.
  const query = useQuery({ queryKey: [...keys.quotes, 'new'], queryFn: () => import('@/features/on-account/invoices-api').then((m) => m.countNewQuotes()) });
  const count = query.isError ? null : query.data;
  if (!count) return null;
  return (
    <>
      {' '}
      <span className="ml-1 rounded-full bg-amber-300 px-2 py-0.5 text-xs font-bold text-slate-950" data-testid="new-quotes">
        {count > 99 ? '99+' : count}
        <span className="sr-only"> new</span>
      </span>
    </>
  );
}

const SUBPAGES: Record<string, string> = { order: 'orders', customer: 'customers', quote: 'quotes', invoice: 'invoices' };

function BackOffice() {
  const hash = useHash();
  const path = parseHash(hash).path;
  const current = SUBPAGES[path.split('/')[0] ?? ''] ?? SECTIONS.find((s) => s.id === path)?.id ?? 'orders';
  return (
    <>
      <h1 className="text-3xl font-extrabold">Back office</h1>
      <nav aria-label="Back office" className="mt-4 mb-6 flex flex-wrap gap-2 border-b border-slate-200 pb-4">
        {SECTIONS.map((s) => (
          <a key={s.id} href={`#${s.id}`} aria-current={current === s.id ? 'page' : undefined} className={current === s.id ? 'btn-primary' : 'btn-secondary'}>
            {s.label}
            {s.id === 'quotes' && <NewQuotes key={path} />}
          </a>
        ))}
      </nav>
      <Suspense
        fallback={
          <p role="status" className="mt-4 text-slate-700">
            Loading...
          </p>
        }
      >
        <Section hash={hash} />
      </Suspense>
    </>
  );
}

export default function AdminApp() {
  return (
    <StaffGate>
      <BackOffice />
    </StaffGate>
  );
}
