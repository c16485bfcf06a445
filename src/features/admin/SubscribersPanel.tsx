/**
 * Newsletter subscribers: count, list with when and where each agreed (and who has unsubscribed), remove one,
 * Download CSV.
 */
import { formatShortDate } from '@/lib/format';
import { listSubscribers, removeSubscriber, subscribersCsv, type Subscriber } from './api';
import { changeAndReload, LoadState, useLoad } from './use-load';

function download(rows: Subscriber[]) {
  const url = URL.createObjectURL(new Blob([subscribersCsv(rows)], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: 'subscribers.csv' });
  link.click();
  URL.revokeObjectURL(url);
}

export function SubscribersPanel() {
  const { state, reload } = useLoad(listSubscribers, []);

  const remove = (row: Subscriber) => changeAndReload(() => removeSubscriber(row.id), `${row.email} removed.`, reload);

  return (
    <section aria-labelledby="subscribers-heading">
      <h2 id="subscribers-heading" className="text-2xl font-bold">
        Subscribers
      </h2>
      <LoadState state={state} what="subscribers" />
      {state.status === 'ready' && (
        <>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <p className="font-semibold">
              {(() => {
                const active = state.data.filter((r) => !r.unsubscribed_at).length;
                const gone = state.data.length - active;
                return `${active === 1 ? '1 subscriber' : `${active} subscribers`}${gone > 0 ? ` (${gone} unsubscribed)` : ''}`;
              })()}
            </p>
            <button type="button" className="btn-secondary" onClick={() => download(state.data)}>
              Download CSV
            </button>
          </div>
          <ul className="mt-4 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
            {state.data.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
                <span className="min-w-0 break-words">
                  {row.email}
                  {row.unsubscribed_at && <span className="ml-2 rounded-full bg-slate-100 px-2 text-sm font-semibold text-slate-800">unsubscribed {formatShortDate(row.unsubscribed_at)}</span>}
                  <span className="block text-sm text-slate-700">
                    agreed {formatShortDate(row.consent_at)} · {row.consent_source}
                    {row.consent_page && ` on ${row.consent_page}`}
                  </span>
                </span>
                <button type="button" className="btn-secondary" onClick={() => remove(row)}>
                  Remove<span className="sr-only"> {row.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
