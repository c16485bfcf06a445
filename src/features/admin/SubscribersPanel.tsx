/**
 * Newsletter subscribers: counts by state, the list with when and where each confirmed (a sign-up still waiting
 * for its confirmation, an unsubscribe), remove one, Download CSV. Only confirmed readers get the newsletter.
 */
import { formatShortDate } from '@/lib/format';
import { CSV_TYPE } from '@/lib/csv';
import { saveFile } from '@/lib/save-file';
import { listSubscribers, removeSubscriber, subscribersCsv, type Subscriber } from './mail-api';
import { useQuery } from '@tanstack/react-query';
import { keys, LoadState, loaded, useAction } from './queries';
import { Panel } from '@/components/Section';

const BADGE: Record<Subscriber['status'], string> = {
  confirmed: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-950',
  unsubscribed: 'bg-slate-100 text-slate-800',
};

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function summary(rows: Subscriber[]): string {
  const of = (status: Subscriber['status']) => rows.filter((r) => r.status === status).length;
  const extra = [of('pending') > 0 && `${of('pending')} waiting to confirm`, of('unsubscribed') > 0 && `${of('unsubscribed')} unsubscribed`].filter(Boolean);
  return `${count(of('confirmed'), 'confirmed subscriber')}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
}

/** What the consent record says of one address. */
function consentRecord(row: Subscriber): string {
  const where = (page: string | null) => (page ? ` on ${page}` : '');
  const parts: string[] = [];
  if (row.consent_at) parts.push(`confirmed ${formatShortDate(row.consent_at)} · ${row.consent_source ?? ''}${where(row.consent_page)}`);
  if (row.unsubscribed_at) parts.push(`unsubscribed ${formatShortDate(row.unsubscribed_at)}`);
  if (row.confirmation_sent_at) parts.push(`confirmation sent ${formatShortDate(row.confirmation_sent_at)}${where(row.confirmation_page)}, not yet followed`);
  return parts.join(' · ');
}

export function SubscribersPanel() {
  const state = loaded(useQuery({ queryKey: keys.subscribers, queryFn: listSubscribers }));
  const { act: remove } = useAction((row: Subscriber) => removeSubscriber(row.id).then(() => `${row.email} removed.`), [keys.subscribers]);

  return (
    <Panel id="subscribers-heading" title="Subscribers">
      <LoadState state={state} what="subscribers" />
      {state.status === 'ready' && (
        <>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <p className="font-semibold">{summary(state.data)}</p>
            <button type="button" className="btn-secondary" onClick={() => saveFile([subscribersCsv(state.data)], 'subscribers.csv', CSV_TYPE)}>
              Download CSV
            </button>
          </div>
          <ul className="mt-4 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200">
            {state.data.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
                <span className="min-w-0 break-words">
                  {row.email}
                  <span className={`ml-2 inline-block whitespace-nowrap rounded-full px-2 text-sm font-semibold ${BADGE[row.status]}`}>{row.status}</span>
                  <span className="block text-sm text-slate-700">{consentRecord(row)}</span>
                </span>
                <button type="button" className="btn-secondary" onClick={() => remove(row)}>
                  Remove<span className="sr-only"> {row.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
