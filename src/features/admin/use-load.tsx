import { useCallback, useEffect, useState } from 'react';
import { toast } from '@/features/toast/store';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; message: string };

/** Loads data for a panel, again whenever `deps` change or `reload()` is called; the last request wins. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): { state: Loaded<T>; reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ status: 'ready', data }),
      (error: unknown) => current && setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  return { state, reload: useCallback(() => setRound((r) => r + 1), []) };
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

/** Runs a staff change, says how it went in a toast, then reloads the panel either way. */
export async function changeAndReload(change: () => Promise<unknown>, done: string, reload: () => void): Promise<void> {
  try {
    await change();
    toast({ title: done });
  } catch (error) {
    toast({ title: error instanceof Error ? error.message : 'The change failed.', variant: 'error' });
  }
  reload();
}
