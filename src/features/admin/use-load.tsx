import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/features/toast/store';
import { ORDERS_CHANGED_EVENT } from '@/features/account/account-links';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; message: string };

/**
 * Loads data for a panel, again whenever `load` changes (a module's function, or a useCallback over what it
 * reads) or `reload()` is called; the last request wins.
 */
export function useLoad<T>(load: () => Promise<T>): { state: Loaded<T>; reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  // Each request's number: only the latest one's answer is shown.
  const latest = useRef(0);
  const reload = useCallback(() => {
    const request = ++latest.current;
    load().then(
      (data) => request === latest.current && setState({ status: 'ready', data }),
      (error: unknown) => request === latest.current && setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [load]);
  useEffect(() => {
    reload();
    return () => {
      latest.current++;
    };
  }, [reload]);
  return { state, reload };
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

/** Runs a staff change, says how it went in a toast, then reloads the panel either way. */
export async function changeAndReload(change: () => Promise<unknown>, done: string, reload: () => void): Promise<void> {
  await toastOutcome(() => change().then(() => done), 'The change failed.');
  reload();
  ordersChanged();
}

/** Tells the header's to-pack count to ask again (account-links.ts listens). */
export function ordersChanged(): void {
  window.dispatchEvent(new Event(ORDERS_CHANGED_EVENT));
}
