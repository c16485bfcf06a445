import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Page } from './api';
import type { Loaded } from './use-load';

type PageState<T> = { status: 'loading' } | { status: 'ready'; page: Page<T> } | { status: 'error'; message: string };

export interface Pages<T> {
  /** The rows of every page loaded so far, in order; loading or failed while the first page is. */
  state: Loaded<T[]>;
  /** The cursor for the page after the last one shown, or null at the end of the list. */
  next: string | null;
  /** A page after the first that is still loading, or why it failed. */
  more: { status: 'idle' } | { status: 'loading' } | { status: 'error'; message: string };
  reload: () => void;
}

const first = '';

/**
 * A keyset list shown page after page: the first page, then one page per cursor in `after` (the pages loaded
 * before, kept in the address), fetched together on arrival and one at a time as more are asked for. `list`
 * names the list (its view and search): when it changes, every page is loaded afresh.
 */
export function usePages<T>(list: string, after: readonly string[], load: (cursor: string | null) => Promise<Page<T>>, idOf: (row: T) => string): Pages<T> {
  const [round, setRound] = useState(0);
  const generation = `${list}\u0000${round}`;
  const [pages, setPages] = useState<{ generation: string; byCursor: ReadonlyMap<string, PageState<T>> }>({ generation, byCursor: new Map() });
  const current = useRef(generation);
  current.current = generation;
  const byCursor = pages.generation === generation ? pages.byCursor : new Map<string, PageState<T>>();
  // The pages shown: the first, then each read from the page before's own `next`, as many as the address asks
  // for. The address keeps one cursor per page loaded, but a reload follows the list as it is now: a row that
  // arrived meanwhile moves the rest down, and a page read from an old cursor would skip the row pushed past it.
  const chain = [first];
  for (let i = 0; i < after.length; i++) {
    const before = byCursor.get(chain[i] ?? first);
    if (before?.status !== 'ready' || !before.page.next) break;
    chain.push(before.page.next);
  }
  // The pages to fetch, as a value an effect can compare from one render to the next.
  const missingKey = JSON.stringify(chain.filter((cursor) => !byCursor.has(cursor)));
  const loadPage = useEffectEvent(load);

  useEffect(() => {
    const missing: string[] = JSON.parse(missingKey);
    if (!missing.length) return;
    const asked = generation;
    const settle = (cursor: string, state: PageState<T>) =>
      setPages((before) => {
        if (current.current !== asked) return before;
        const map = new Map(before.generation === asked ? before.byCursor : []);
        map.set(cursor, state);
        return { generation: asked, byCursor: map };
      });
    setPages((before) => {
      const map = new Map(before.generation === asked ? before.byCursor : []);
      for (const cursor of missing) if (!map.has(cursor)) map.set(cursor, { status: 'loading' });
      return { generation: asked, byCursor: map };
    });
    for (const cursor of missing)
      loadPage(cursor === first ? null : cursor).then(
        (page) => settle(cursor, { status: 'ready', page }),
        (error: unknown) => settle(cursor, { status: 'error', message: error instanceof Error ? error.message : String(error) }),
      );
  }, [generation, missingKey]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  const head = byCursor.get(first) ?? { status: 'loading' as const };
  if (head.status !== 'ready') return { state: head.status === 'error' ? head : { status: 'loading' }, next: null, more: { status: 'idle' }, reload };

  // Rows in page order; a row seen on an earlier page (the list moved between loads) shows once.
  const seen = new Set<string>();
  const rows: T[] = [];
  let next: string | null = null;
  let more: Pages<T>['more'] = { status: 'idle' };
  for (const cursor of chain) {
    const page = byCursor.get(cursor) ?? { status: 'loading' as const };
    if (page.status !== 'ready') {
      more = page;
      next = null;
      break;
    }
    for (const row of page.page.rows) {
      const id = idOf(row);
      if (!seen.has(id)) {
        seen.add(id);
        rows.push(row);
      }
    }
    next = page.page.next;
  }
  return { state: { status: 'ready', data: rows }, next, more, reload };
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
          <button type="button" className="btn-secondary" onClick={pages.reload}>
            Try again
          </button>
        </>
      ) : (
        (loading || next) && (
          <button type="button" className="btn-secondary" aria-disabled={loading} onClick={() => !loading && next && onMore(next)}>
            {loading ? `Loading more ${what}...` : `Load more ${what}`}
          </button>
        )
      )}
      <p role="status" className="sr-only">
        {loading ? `Loading more ${what}...` : ''}
      </p>
    </div>
  );
}
