/** The older paged-list hook, kept for the panels not yet on queries.tsx: a keyset list as an infinite query. */
import { useQueryClient } from '@tanstack/react-query';
import type { Page } from './api';
import { type Pages, usePagedQuery } from './queries';
import { usePanelKey } from './use-load';

export { LoadMore } from './queries';

/**
 * A keyset list shown page after page: the first page, then one page per cursor in `after` (the pages loaded
 * before, kept in the address). `list` names the list (its view and search): when it changes, every page is
 * loaded afresh.
 */
export function usePages<T>(list: string, after: readonly string[], load: (cursor: string | null) => Promise<Page<T>>, idOf: (row: T) => string): Pages<T> & { reload: () => void } {
  const queryKey = usePanelKey(null, list);
  const pages = usePagedQuery(queryKey, after, load, idOf);
  const client = useQueryClient();
  return { ...pages, reload: () => void client.invalidateQueries({ queryKey }) };
}
