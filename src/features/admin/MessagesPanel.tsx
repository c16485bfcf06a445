/** Contact messages, newest first: Mark handled, or Reply in the mail client. */
import { formatShortDate } from '@/lib/format';
import { mailtoHref } from '@/lib/mailto';
import { listMessages, markMessageHandled } from './mail-api';
import { useQuery } from '@tanstack/react-query';
import { keys, LoadState, loaded, useAction } from './queries';
import { Panel } from '@/components/Section';

export function MessagesPanel() {
  const state = loaded(useQuery({ queryKey: keys.messages, queryFn: listMessages }));
  const { act: handled } = useAction((id: string) => markMessageHandled(id).then(() => 'Marked as handled.'), [keys.messages]);

  return (
    <Panel id="messages-heading" title="Messages">
      <LoadState state={state} what="messages" />
      {state.status === 'ready' && state.data.length === 0 && <p className="mt-4 text-slate-700">No messages yet.</p>}
      {state.status === 'ready' && (
        <ul className="mt-4 space-y-3">
          {state.data.map((m) => (
            <li key={m.id} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 className="font-bold">{m.subject}</h3>
                <span className="text-sm text-slate-700">{formatShortDate(m.created_at)}</span>
              </div>
              <p className="text-sm break-words text-slate-700">
                {m.name} &lt;{m.email}&gt;
              </p>
              <p className="mt-2 whitespace-pre-line">{m.message}</p>
              <div className="mt-3 flex flex-wrap items-center gap-2">
                <a className="btn-secondary" href={mailtoHref(m.email, { subject: `Re: ${m.subject}` })}>
                  Reply<span className="sr-only"> to {m.name}</span>
                </a>
                {m.handled_at ? (
                  <span className="rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-900">Handled</span>
                ) : (
                  <button type="button" className="btn-primary" onClick={() => handled(m.id)}>
                    Mark handled<span className="sr-only">: {m.subject}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
