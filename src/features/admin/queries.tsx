/**
 * The back office's data through TanStack Query: each screen's reads are queries under a key that starts with
 * what they are about (`orders`, `stock`, …), so an action refreshes what it changed by invalidating that prefix,
 * a screen opened again shows what it last saw while it asks again, and a keyset list is an infinite query whose
 * pages follow the cursors the database gives. The view, the search and the pages loaded stay in the address
 * (route.ts): they are the query's key and how many pages it holds.
 */
import { focusManager, QueryClient, QueryClientProvider, type QueryKey, type UseQueryResult, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { ORDERS_CHANGED_EVENT } from '@/features/account/account-links';
import { ActionButton } from '@/features/forms/fields';
import { toast } from '@/features/toast/store';
import type { Page } from './api';

/** What a screen reads, by the prefix an action invalidates. */
export const keys = {
  /** Every order list, every order and its refunds: what an order action changes. */
  orders: ['orders'],
  customers: ['customers'],
  sales: ['sales'],
  stock: ['stock'],
  /** The titles on pre-order, their buyers and what is still owed: a release, a cancellation or a sale changes them. */
  preorders: ['preorders'],
  codes: ['codes'],
  messages: ['messages'],
  subscribers: ['subscribers'],
  newsletters: ['newsletters'],
  /** The books in Xero: the connection, the last sync, what waits and what failed. */
  xero: ['xero'],
  /** Buyers' reviews and the counts above them. */
  reviews: ['reviews'],
  /** Schools' and parishes' quote requests: the lists, each request and how many are new (the Quotes tab). */
  quotes: ['quotes'],
  /** Invoices on account: the lists and each invoice. */
  invoices: ['invoices'],
  /** The books for sale, by title: what an invoice's line can be. */
  books: ['books'],
} as const satisfies Record<string, QueryKey>;

/** What an order action may change: the order and its lists, the customer's figures, the sales and the stock. */
export const ORDER_CHANGES: readonly QueryKey[] = [keys.orders, keys.customers, keys.sales, keys.stock, keys.preorders];

/** What sending, paying, voiding or crediting an invoice may change: the invoice, and its order as an order action does. */
export const INVOICE_CHANGES: readonly QueryKey[] = [keys.invoices, ...ORDER_CHANGES];

/**
 * One client for the page: a failed read is shown at once (the sentence says what to do; the screens have Try
 * again), and a read is asked again whenever a screen shows it (stale at once), with what was read before shown
 * meanwhile.
 */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } } });

// A screen is read again when it is looked at again: its tab shown (TanStack's own visibilitychange) or its window
// focused. The second is what a publisher with two windows side by side does, clicking into the one that did not
// make the change (a release, an allocation, a refund); TanStack listens to the tab alone since version 5.
focusManager.setEventListener((lookedAt) => {
  if (typeof window === 'undefined') return;
  const listener = () => lookedAt();
  for (const event of ['visibilitychange', 'focus']) window.addEventListener(event, listener);
  return () => {
    for (const event of ['visibilitychange', 'focus']) window.removeEventListener(event, listener);
  };
});

// An order changed (its list or detail invalidated): the header's to-pack count asks again (account-links.ts
// listens), once however many of the orders' queries were invalidated together.
let announcing = false;
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.action.type !== 'invalidate' || event.query.queryKey[0] !== keys.orders[0] || announcing) return;
  announcing = true;
  queueMicrotask(() => {
    announcing = false;
    window.dispatchEvent(new Event(ORDERS_CHANGED_EVENT));
  });
});

export function BackOfficeQueries({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; message: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Toasts why a staff action failed: its own sentence, or `failed` when it says nothing. */
export function toastFailure(error: unknown, failed: string): void {
  toast({ title: error instanceof Error ? error.message : failed, variant: 'error' });
}

/** A query's state as the screens draw it: loading, its data, or the sentence saying why it failed. */
export function loaded<T>(query: UseQueryResult<T>): Loaded<T> {
  if (query.status === 'error') return { status: 'error', message: messageOf(query.error) };
  if (query.status === 'pending') return { status: 'loading' };
  return { status: 'ready', data: query.data };
}

/** The loading and error lines every panel shows. */
export function LoadState({ state, what }: { state: Loaded<unknown>; what: string }) {
  if (state.status === 'loading')
    return (
      <p role="status" className="mt-4 text-slate-700">
        Loading {what}...
      </p>
    );
  if (state.status === 'error')
    return (
      <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-red-900">
        {state.message}
      </p>
    );
  return null;
}

/**
 * A staff action as a mutation: `run` answers the sentence to toast (a failure toasts its own, or `failed`, which
 * may depend on the action asked); either way what it may have changed (`changes`, key prefixes) is read again.
 * `act` resolves to whether it went through, once what it changed has been read again.
 */
export function useAction<A>(run: (input: A) => Promise<string>, changes: readonly QueryKey[], failed: string | ((input: A) => string) = 'The change failed.') {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: (message) => toast({ title: message }),
    onError: (error, input) => toastFailure(error, typeof failed === 'string' ? failed : failed(input)),
    onSettled: () => Promise.all(changes.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  const act = (input: A) =>
    mutation.mutateAsync(input).then(
      () => true,
      () => false,
    );
  return { act, busy: mutation.isPending };
}

/** Reads again what a change made elsewhere (a form's own submit) may have changed. */
export function useRefresh(): (...changes: QueryKey[]) => Promise<void> {
  const client = useQueryClient();
  return async (...changes) => {
    await Promise.all(changes.map((queryKey) => client.invalidateQueries({ queryKey })));
  };
}

export interface Pages<T> {
  /** The rows of every page shown, in order; loading or failed while the first page is. */
  state: Loaded<T[]>;
  /** The cursor for the page after the last one shown, or null at the end of the list. */
  next: string | null;
  /** A page after the first that is still loading, or why it failed. */
  more: { status: 'idle' } | { status: 'loading' } | { status: 'error'; message: string };
  /** Asks again for the page that failed. */
  retry: () => void;
}

/**
 * A keyset list shown page after page: an infinite query under `queryKey` (the list: its view and search), holding
 * the first page and one more per cursor in the params' `after` (the pages loaded before, kept in the address). Each page is
 * read from the page before's own `next`, not from the address's cursor: a row that arrived meanwhile moves the
 * rest down, and a page read from an old cursor would skip the row pushed past it. Refetching after an action
 * reads the pages again the same way.
 */
export function usePagedQuery<T>(queryKey: QueryKey, params: URLSearchParams, load: (cursor: string | null) => Promise<Page<T>>, idOf: (row: T) => string): Pages<T> {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const wanted = params.getAll('after').length + 1;
  const pages = query.data?.pages ?? [];
  const missing = pages.length > 0 && pages.length < wanted && query.hasNextPage;
  const { fetchNextPage, isFetching, isFetchNextPageError } = query;
  useEffect(() => {
    if (missing && !isFetching && !isFetchNextPageError) void fetchNextPage();
  }, [missing, isFetching, isFetchNextPageError, fetchNextPage]);
  const retry = () => void fetchNextPage();

  if (query.status === 'pending') return { state: { status: 'loading' }, next: null, more: { status: 'idle' }, retry };
  if (query.status === 'error' && !isFetchNextPageError) return { state: { status: 'error', message: messageOf(query.error) }, next: null, more: { status: 'idle' }, retry };

  // Rows in page order; a row seen on an earlier page (the list moved between reads) shows once.
  const shown = pages.slice(0, wanted);
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of shown)
    for (const row of page.rows) {
      const id = idOf(row);
      if (!seen.has(id)) {
        seen.add(id);
        rows.push(row);
      }
    }
  const more: Pages<T>['more'] = isFetchNextPageError ? { status: 'error', message: messageOf(query.error) } : query.isFetchingNextPage || missing ? { status: 'loading' } : { status: 'idle' };
  return { state: { status: 'ready', data: rows }, next: more.status === 'idle' ? (shown.at(-1)?.next ?? null) : null, more, retry };
}

/**
 * The end of a paged list: Load more while there is more, or why a page failed (with a retry). The button stays
 * in place while its page loads, so keyboard focus stays on it, and a status line says so to a screen reader.
 */
export function LoadMore({ pages, what, onMore }: { pages: Pages<unknown>; what: string; onMore: (cursor: string) => void }) {
  const { next, more } = pages;
  const loading = more.status === 'loading';
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      {more.status === 'error' ? (
        <>
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-900">
            {more.message}
          </p>
          <button type="button" className="btn-secondary" onClick={pages.retry}>
            Try again
          </button>
        </>
      ) : (
        (loading || next) && (
          <ActionButton className="btn-secondary" busy={loading} onClick={() => next && onMore(next)}>
            {loading ? `Loading more ${what}...` : `Load more ${what}`}
          </ActionButton>
        )
      )}
      <p role="status" className="sr-only">
        {loading ? `Loading more ${what}...` : ''}
      </p>
    </div>
  );
}
