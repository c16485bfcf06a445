/**
 * The older way a panel loaded its data, kept for the panels not yet on queries.tsx: `useLoad(load)` and
 * `usePages` (use-pages.tsx) are now queries of their own, held by the panel while it is open, and `reload()`
 * invalidates them. A new panel uses queries.tsx directly (`useQuery` under a key from `keys`, `useAction`).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { toast } from '@/features/toast/store';
import { keys, type Loaded, loaded, queryClient } from './queries';

export { LoadState, type Loaded } from './queries';

let panels = 0;

/** A key no other panel shares: the panel's own, and which `load` it was given (a new one reads afresh). */
export function usePanelKey(load: unknown, ...parts: unknown[]): readonly unknown[] {
  const [panel] = useState(() => ++panels);
  const seen = useRef({ load, version: 0 });
  if (seen.current.load !== load) seen.current = { load, version: seen.current.version + 1 };
  return ['panel', panel, seen.current.version, ...parts];
}

/**
 * Loads data for a panel, again whenever `load` changes (a module's function, or a useCallback over what it
 * reads) or `reload()` is called; the last request wins.
 */
export function useLoad<T>(load: () => Promise<T>): { state: Loaded<T>; reload: () => void } {
  const queryKey = usePanelKey(load);
  const query = useQuery({ queryKey, queryFn: load });
  const client = useQueryClient();
  return { state: loaded(query), reload: () => void client.invalidateQueries({ queryKey }) };
}

/** Runs a staff action and toasts its sentence, or why it failed (`failed` when the failure says nothing); true when it went through. */
export async function toastOutcome(run: () => Promise<string>, failed: string): Promise<boolean> {
  try {
    toast({ title: await run() });
    return true;
  } catch (error) {
    toast({ title: error instanceof Error ? error.message : failed, variant: 'error' });
    return false;
  }
}

/** Tells every order list and order to read again, and with them the header's to-pack count. */
export function ordersChanged(): void {
  void queryClient.invalidateQueries({ queryKey: keys.orders });
}

/** Runs a staff change, says how it went in a toast, then reloads the panel either way. */
export async function changeAndReload(change: () => Promise<unknown>, done: string, reload: () => void): Promise<void> {
  await toastOutcome(() => change().then(() => done), 'The change failed.');
  reload();
  ordersChanged();
}
