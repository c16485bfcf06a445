/** Newsletter subscribers: count, list, remove one, Download CSV (email,subscribed_at). */
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
            <p className="font-semibold">{state.data.length === 1 ? '1 subscriber' : `${state.data.length} subscribers`}</p>
            <button type="button" className="btn-secondary" onClick={() => download(state.data)}>
              Download CSV
            </button>
          </div>
          <ul className="mt-4 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
            {state.data.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
                <span className="min-w-0 break-words">
                  {row.email} <span className="text-sm text-slate-700">since {formatShortDate(row.created_at)}</span>
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
