/**
 * Quotes: the schools' and parishes' quote requests, newest first, by view (New, Invoiced, Declined, All), 50 at a
 * time (Load more quotes), the view and the pages loaded kept in the address (#quotes?view=…&after=…). A quote's page
 * (#quote/<id>) shows everything asked, with Make invoice (a draft invoice, prefilled, opened in the editor) and
 * Decline.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatLongDate, formatShortDate } from '@/lib/format';
import { postalAddressLines } from '@/lib/postal-address';
import { ConfirmDialog } from '@/features/admin/ConfirmDialog';
import { getQuote, invoiceActionMessage, listQuotes, QUOTE_VIEW_LABELS, type QuoteRow, runInvoiceAction } from './invoices-api';
import { Email } from '@/features/admin/OrdersPanel';
import { goTo, withParams } from '@/features/admin/route';
import { keys, LoadState, loaded, useAction, usePagedQuery } from '@/features/admin/queries';
import { TableHead } from '@/components/TableHead';
import { ActionButton } from '@/features/forms/fields';
import { BlockLines, Fact } from '@/features/admin/Facts';
import { PagedList, ViewButtons } from '@/features/admin/ListControls';
import { StatusBadge } from '@/features/account/StatusBadge';
import { Panel, RecordPanel } from '@/components/Section';

export const quoteHref = (id: string) => `#quote/${id}`;
export const invoiceHref = (id: string) => `#invoice/${id}`;

const copiesText = (n: number) => (n === 1 ? '1 copy' : `${n} copies`);
const copiesOf = (quote: Pick<QuoteRow, 'lines'>) => quote.lines.reduce((sum, line) => sum + line.quantity, 0);

const STATUS_CLASS: Record<QuoteRow['status'], string> = {
  new: 'bg-amber-100 text-amber-950',
  invoiced: 'bg-green-100 text-green-900',
  declined: 'bg-slate-200 text-slate-800',
};

export function QuotesPanel({ params }: { params: URLSearchParams }) {
  const view = QUOTE_VIEW_LABELS.find((v) => v.id === params.get('view'))?.id ?? 'new';
  const pages = usePagedQuery(
    [...keys.quotes, 'list', view],
    params,
    (cursor) => listQuotes(view, cursor),
    (q) => q.id,
  );
  const setView = (id: string) => goTo('quotes', withParams(params, { view: id === 'new' ? null : id, after: null }));
  return (
    <Panel id="quotes-heading" title="Quote requests">
      <ViewButtons label="Which quote requests" views={QUOTE_VIEW_LABELS} current={view} onChoose={setView} className="mt-4 flex flex-wrap gap-2" />
      <PagedList pages={pages} section="quotes" params={params} what="quote requests" more="quotes">
        {(quotes) => (
          <ul className="mt-4 divide-y divide-slate-100 rounded-2xl bg-white ring-1 ring-slate-200" aria-label="Quote requests">
            {quotes.map((q) => (
              <li key={q.id} className="grid gap-1 px-4 py-3 sm:grid-cols-[1fr_auto] sm:items-center sm:gap-4">
                <div className="min-w-0">
                  <a href={quoteHref(q.id)} className="font-semibold text-navy underline">
                    {q.organisation}
                  </a>{' '}
                  <StatusBadge status={q.status} colours={STATUS_CLASS[q.status]} />
                  <p className="text-sm text-slate-700">
                    {q.contact_name} · <Email address={q.email} />
                  </p>
                </div>
                <p className="text-sm sm:text-right">
                  <strong>{copiesText(copiesOf(q))}</strong>
                  {q.needed_by && <> · needed by {formatShortDate(`${q.needed_by}T12:00:00`)}</>}
                  <span className="block text-slate-700">asked {formatShortDate(q.created_at)}</span>
                </p>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </Panel>
  );
}

export function QuoteDetail({ quoteId }: { quoteId: string }) {
  const state = loaded(useQuery({ queryKey: [...keys.quotes, 'detail', quoteId], queryFn: () => getQuote(quoteId) }));
  const [declining, setDeclining] = useState(false);
  // The draft it makes opens in the editor (the quote, now invoiced, is read again behind it).
  const { act: make, busy: making } = useAction(
    async () => {
      const answer = await runInvoiceAction({ action: 'create_from_quote', quoteId });
      if (answer.invoiceId) goTo(invoiceHref(answer.invoiceId).slice(1), new URLSearchParams());
      return answer.message;
    },
    [keys.quotes, keys.invoices],
    'The invoice could not be made.',
  );
  const { act: decline } = useAction(() => invoiceActionMessage({ action: 'decline_quote', quoteId }), [keys.quotes], 'The quote could not be declined.');

  return (
    <RecordPanel id="quote-heading" back="#quotes" backLabel="All quote requests">
      <LoadState state={state} what="the quote request" />
      {state.status === 'ready' && state.data === null && <p className="text-slate-700">There is no such quote request.</p>}
      {state.status === 'ready' && state.data && (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <h2 id="quote-heading" className="text-2xl font-bold">
              Quote for {state.data.organisation}
            </h2>
            <StatusBadge status={state.data.status} colours={STATUS_CLASS[state.data.status]} />
          </div>
          <p className="text-slate-700">Asked {formatLongDate(state.data.created_at)}</p>
          <dl className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2">
            <Fact label="Organisation">{state.data.organisation}</Fact>
            <Fact label="Contact">{state.data.contact_name}</Fact>
            <Fact label="Email">
              <a href={`mailto:${state.data.email}`} className="text-navy underline">
                <Email address={state.data.email} />
              </a>
            </Fact>
            <Fact label="Phone">{state.data.phone}</Fact>
            <Fact label="Delivery address">
              <BlockLines lines={postalAddressLines({ ...state.data.address, postalCode: state.data.address.postcode })} />
            </Fact>
            <Fact label="Needed by">{state.data.needed_by ? formatLongDate(`${state.data.needed_by}T12:00:00`) : 'No date given'}</Fact>
            <Fact label="Purchase order number">{state.data.po_number ?? 'Not yet'}</Fact>
            <Fact label="Note">{state.data.note ? <span className="whitespace-pre-line">{state.data.note}</span> : 'None'}</Fact>
          </dl>
          <table className="w-full rounded-2xl bg-white text-left ring-1 ring-slate-200">
            <caption className="sr-only">Copies asked for</caption>
            <TableHead className="border-b border-slate-200 text-sm text-slate-600" cell="px-4 py-2" columns={['Book', { label: 'Copies', right: true }]} />
            <tbody>
              {state.data.lines.map((line) => (
                <tr key={line.product_id} className="border-b border-slate-100 last:border-0">
                  <td className="px-4 py-2">{line.title}</td>
                  <td className="px-4 py-2 text-right font-semibold">{line.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex flex-wrap gap-2">
            {state.data.status === 'new' && (
              <>
                <ActionButton className="btn-primary" busy={making} onClick={() => void make(undefined)}>
                  {making ? 'Making the invoice...' : 'Make invoice'}
                </ActionButton>
                <button type="button" className="btn-secondary" onClick={() => setDeclining(true)}>
                  Decline
                </button>
              </>
            )}
            {state.data.invoice_id && (
              <a href={invoiceHref(state.data.invoice_id)} className="btn-secondary">
                Open its invoice
              </a>
            )}
          </div>
          <ConfirmDialog
            open={declining}
            title={`Decline the quote for ${state.data.organisation}?`}
            confirm="Decline quote"
            danger
            onConfirm={() => decline(undefined)}
            onClose={() => setDeclining(false)}
          >
            <p>The request moves to Declined and can no longer be made into an invoice.</p>
          </ConfirmDialog>
        </>
      )}
    </RecordPanel>
  );
}
