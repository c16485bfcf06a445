/**
 * Invoices: schools' and parishes' invoices by view (Open, Overdue, Drafts, Paid, Void, All) with a search, 50 at a time
 * (Load more invoices), the view, search and pages loaded kept in the address (#invoices?view=…&q=…&after=…). An
 * invoice past its due date says "Overdue" in words (and red), with Send reminder beside it. New invoice opens an
 * empty draft (#invoice/new).
 */
import { formatPrice, formatShortDate, shopDay } from '@/lib/format';
import { invoiceNumber } from './rules';
import { INVOICE_VIEW_LABELS, invoiceActionMessage, type InvoiceRow, listInvoices } from './invoices-api';
import { invoiceHref } from './QuotesPanel';
import { changeParams, useSearchParam } from '@/features/admin/route';
import { keys, useAction, usePagedQuery } from '@/features/admin/queries';
import { CardsOrTable } from '@/components/CardsOrTable';
import { TableHead } from '@/components/TableHead';
import { ActionButton } from '@/features/forms/fields';
import { PagedList, SearchField, ViewButtons } from '@/features/admin/ListControls';

const STATUS: Record<InvoiceRow['status'], { label: string; className: string }> = {
  draft: { label: 'Draft', className: 'bg-slate-200 text-slate-800' },
  sent: { label: 'Sent, unpaid', className: 'bg-sky text-navy' },
  paid: { label: 'Paid', className: 'bg-green-100 text-green-900' },
  void: { label: 'Void', className: 'bg-slate-200 text-slate-800 line-through decoration-1' },
  uncollectible: { label: 'Uncollectible', className: 'bg-slate-200 text-slate-800' },
};

/** The invoice's state in words; an overdue one says so (the colour only repeats it). */
export function InvoiceStatus({ invoice }: { invoice: Pick<InvoiceRow, 'status' | 'overdue'> }) {
  const { label, className } = STATUS[invoice.status];
  return (
    <span className="inline-flex flex-wrap gap-1">
      <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold ${className}`}>{label}</span>
      {invoice.overdue && (
        <span className="inline-block rounded-full bg-red-700 px-3 py-1 text-sm font-bold text-white" data-testid="overdue">
          Overdue
        </span>
      )}
    </span>
  );
}

/** Days from one Sydney day (yyyy-mm-dd) to another. */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** "Due 12/12/2026", or how late it is. */
export function dueText(invoice: Pick<InvoiceRow, 'due_on' | 'overdue' | 'status'>, today = shopDay()): string {
  if (!invoice.due_on) return invoice.status === 'draft' ? 'Not sent' : '—';
  const due = formatShortDate(`${invoice.due_on}T12:00:00+10:00`);
  if (!invoice.overdue) return invoice.status === 'sent' ? `Due ${due}` : due;
  const late = daysBetween(invoice.due_on, today);
  return `Was due ${due}${late > 0 ? `, ${late === 1 ? '1 day' : `${late} days`} late` : ''}`;
}

/** Send reminder for an open invoice: emails it again; the invoices are read again either way. */
export function RemindButton({ invoice }: { invoice: Pick<InvoiceRow, 'id' | 'number'> }) {
  const { act: remind, busy } = useAction(() => invoiceActionMessage({ action: 'remind', invoiceId: invoice.id }), [keys.invoices], 'The reminder could not be sent.');
  return (
    <ActionButton className="btn-secondary px-3 py-1.5 text-sm whitespace-nowrap" busy={busy} onClick={() => void remind(undefined)}>
      {busy ? 'Sending...' : 'Send reminder'}
      <span className="sr-only"> for {invoiceNumber(invoice.number)}</span>
    </ActionButton>
  );
}

export function InvoicesPanel({ params }: { params: URLSearchParams }) {
  const view = INVOICE_VIEW_LABELS.find((v) => v.id === params.get('view'))?.id ?? 'open';
  const [search, setSearch] = useSearchParam('invoices', params);
  const query = params.get('q') ?? '';
  const pages = usePagedQuery(
    [...keys.invoices, 'list', view, query],
    params,
    (cursor) => listInvoices(view, query, cursor),
    (i) => i.id,
  );
  const setView = (id: string) => changeParams('invoices', params, { view: id === 'open' ? null : id, after: null });
  // In the list, only where it is due: an invoice not yet late is reminded from its own page.
  const remindable = (i: InvoiceRow) => i.status === 'sent' && i.overdue;

  return (
    <section aria-labelledby="invoices-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="invoices-heading" className="text-2xl font-bold">
          Invoices
        </h2>
        <a href="#invoice/new" className="btn-primary">
          New invoice
        </a>
      </div>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <ViewButtons label="Which invoices" views={INVOICE_VIEW_LABELS} current={view} onChoose={setView} />
        <SearchField id="invoice-search" label="Search by organisation, PO number, email or invoice number" value={search} onChange={setSearch} />
      </div>
      <PagedList pages={pages} section="invoices" params={params} what="invoices">
        {(invoices) => (
          <CardsOrTable
            label="Invoices"
            from="md"
            cards={invoices.map((i) => (
              <li key={i.id} className={`rounded-2xl bg-white p-4 ring-1 ${i.overdue ? 'border-l-4 border-red-700 ring-red-300' : 'ring-slate-200'}`}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <a href={invoiceHref(i.id)} className="font-mono text-lg font-semibold text-navy underline">
                    {invoiceNumber(i.number)}
                  </a>
                  <InvoiceStatus invoice={i} />
                </div>
                <p className="mt-1 font-semibold break-words">{i.organisation}</p>
                <p className="text-sm text-slate-700">PO {i.po_number ?? 'none'}</p>
                <div className="mt-1 flex flex-wrap items-center justify-between gap-2 text-sm">
                  <span className={i.overdue ? 'font-semibold text-red-800' : 'text-slate-700'}>{dueText(i)}</span>
                  <span className="text-base font-semibold">{formatPrice(i.total)}</span>
                </div>
                {remindable(i) && (
                  <div className="mt-2">
                    <RemindButton invoice={i} />
                  </div>
                )}
              </li>
            ))}
            head={
              <TableHead
                className="border-b border-slate-200 whitespace-nowrap text-slate-600"
                cell="px-3 py-2"
                columns={['Invoice', 'Status', 'Organisation', 'PO number', { label: 'Total', right: true }, 'Due', { label: 'Actions', srOnly: true }]}
              />
            }
            rows={invoices.map((i) => (
              <tr key={i.id} className={`border-b border-slate-100 last:border-0 ${i.overdue ? 'bg-red-50' : ''}`}>
                <td className="px-3 py-2 whitespace-nowrap">
                  <a href={invoiceHref(i.id)} className="font-mono font-semibold text-navy underline">
                    {invoiceNumber(i.number)}
                  </a>
                </td>
                <td className="px-3 py-2">
                  <InvoiceStatus invoice={i} />
                </td>
                <td className="px-3 py-2 break-words">{i.organisation}</td>
                <td className="px-3 py-2 break-all">{i.po_number ?? '—'}</td>
                <td className="px-3 py-2 text-right font-semibold whitespace-nowrap">{formatPrice(i.total)}</td>
                <td className={`px-3 py-2 ${i.overdue ? 'font-semibold text-red-800' : ''}`}>{dueText(i)}</td>
                <td className="px-3 py-2 text-right">{remindable(i) && <RemindButton invoice={i} />}</td>
              </tr>
            ))}
          />
        )}
      </PagedList>
    </section>
  );
}
