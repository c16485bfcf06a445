/**
 * /admin#accounts: the books in Xero. Connect to Xero (or again, when the connection needs renewing), the last sync,
 * what waits to be posted, Sync now, and every document Xero refused with its words.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys, LoadState, loaded, toastFailure, useAction } from '@/features/admin/queries';
import { ActionButton } from '@/features/forms/fields';
import { formatDateTime, formatLongDate, orderNumber } from '@/lib/format';
import { connectUrl, readXeroStatus, syncNow } from './api';
import type { XeroStatus } from './contract';
import { connectionProblem, KIND_LABELS, lastSyncText, PAYOUTS_NOT_COUNTED, syncRunning, waitingText } from './rules';
import { Panel } from '@/components/Section';

/** What Xero's consent screen sent back, carried in the address by /api/xero-callback. */
function CallbackNotice({ params }: { params: URLSearchParams }) {
  const connected = params.get('connected');
  const problem = params.get('problem');
  if (connected)
    return (
      <p role="status" className="mt-4 rounded-lg bg-green-50 p-3 text-green-900">
        Connected to {connected}.
      </p>
    );
  if (problem)
    return (
      <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-red-900">
        {problem}
      </p>
    );
  return null;
}

function LastSync({ status }: { status: XeroStatus }) {
  const run = status.last_sync;
  if (!run) return <p>No sync has run yet.</p>;
  return <p data-testid="xero-last-sync">{lastSyncText(run, formatDateTime(run.finished_at ?? run.started_at))}</p>;
}

export function AccountsPanel({ params }: { params: URLSearchParams }) {
  // Read again every few seconds while a sync posts (pressed in another tab, or the schedule's), so its end shows.
  const query = useQuery({ queryKey: keys.xero, queryFn: readXeroStatus, refetchInterval: (q) => (syncRunning(q.state.data?.last_sync ?? null) ? 3000 : false) });
  const state = loaded(query);
  const { act: sync, busy: syncing } = useAction(syncNow, [keys.xero], 'The sync did not run. Please try again.');
  // Xero's consent page opening: its button says so, and both buttons wait for it (as for a sync).
  const [connecting, setConnecting] = useState(false);
  const busy = syncing || connecting;

  const connect = async () => {
    setConnecting(true);
    try {
      window.location.assign(await connectUrl());
    } catch (error) {
      toastFailure(error, 'Xero’s page could not be opened.');
      setConnecting(false);
    }
  };

  const status = state.status === 'ready' ? state.data : null;
  const problem = status ? connectionProblem(status.connection) : null;
  const running = syncRunning(status?.last_sync ?? null);
  return (
    <Panel id="accounts-heading" title="Accounts">
      <p className="mt-2 max-w-prose text-slate-700">
        Every paid order, school invoice and refund is posted to Xero by itself every 15 minutes: an invoice paid into the Stripe account, a credit note refunded from it.
      </p>
      <CallbackNotice params={params} />
      <LoadState state={state} what="the books" />
      {status && (
        <div className="mt-4 space-y-4">
          <div className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
            {status.connection ? (
              <p data-testid="xero-connection">
                Connected to <strong>{status.connection.tenant_name}</strong>
                {status.connection.connected_by ? ` by ${status.connection.connected_by}` : ''}; posting from {formatLongDate(status.connection.start_on)}.
              </p>
            ) : (
              <p data-testid="xero-connection">Not connected to Xero yet.</p>
            )}
            {problem && (
              <p role="alert" className="mt-2 rounded-lg bg-amber-50 p-3 text-amber-950">
                {problem}
              </p>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              <ActionButton className={status.connection && !problem ? 'btn-secondary' : 'btn-primary'} busy={busy} onClick={connect}>
                {connecting ? 'Opening Xero...' : status.connection ? 'Connect to Xero again' : 'Connect to Xero'}
              </ActionButton>
              {status.connection && (
                <ActionButton className="btn-primary" busy={busy || running} onClick={() => void sync(undefined)}>
                  {syncing || running ? 'Syncing...' : 'Sync now'}
                </ActionButton>
              )}
            </div>
          </div>
          {status.connection && (
            <div className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
              <LastSync status={status} />
              <p className="mt-1" data-testid="xero-waiting">
                {waitingText(status)} {status.posted} posted so far.
              </p>
              <p className="mt-1 text-sm text-slate-700">{PAYOUTS_NOT_COUNTED}</p>
            </div>
          )}
          {status.failures.length > 0 && (
            <div className="rounded-2xl bg-white p-4 ring-1 ring-red-200">
              <h3 className="font-bold">Refused by Xero</h3>
              <p className="text-sm text-slate-700">Each is tried again at every sync. Fix what Xero says (often an account code or tax type in Xero), then press Sync now.</p>
              <ul className="mt-2 space-y-2">
                {status.failures.map((f) => (
                  <li key={f.key} className="break-words">
                    {f.order_id && f.number !== null ? (
                      <a className="font-semibold underline" href={`#order/${f.order_id}`}>
                        {KIND_LABELS[f.kind] ?? f.kind} {orderNumber(f.number)}
                      </a>
                    ) : (
                      <span className="font-semibold">
                        {KIND_LABELS[f.kind] ?? f.kind} {f.payout_id}
                      </span>
                    )}
                    : {f.error}{' '}
                    <span className="text-sm text-slate-700">
                      (tried {f.attempts === 1 ? 'once' : `${f.attempts} times`}, last {formatDateTime(f.last_tried_at)})
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </Panel>
  );
}
