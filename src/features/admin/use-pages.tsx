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
  const wanted = [first, ...after];
  // The pages to fetch, as a value an effect can compare from one render to the next.
  const missingKey = JSON.stringify(wanted.filter((cursor) => !byCursor.has(cursor)));
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
  for (const cursor of wanted) {
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

/** The end of a paged list: Load more while there is more, its progress, or why it failed (with a retry). */
export function LoadMore({ pages, what, onMore }: { pages: Pages<unknown>; what: string; onMore: (cursor: string) => void }) {
  const { next, more } = pages;
  if (more.status === 'loading')
    return (
      <p role="status" className="mt-4 text-slate-700">
        Loading more {what}...
      </p>
    );
  if (more.status === 'error')
    return (
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-900">
          {more.message}
        </p>
        <button type="button" className="btn-secondary" onClick={pages.reload}>
          Try again
        </button>
      </div>
    );
  if (!next) return null;
  return (
    <div className="mt-4">
      <button type="button" className="btn-secondary" onClick={() => onMore(next)}>
        Load more {what}
      </button>
    </div>
  );
}
