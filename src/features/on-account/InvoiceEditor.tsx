/**
 * One invoice (#invoice/<id>, or #invoice/new for an empty draft): a draft is a form (`DraftEditor`), a sent invoice
 * reads as it went out (`SentInvoice`).
 */
import { useQuery } from '@tanstack/react-query';
import { keys, LoadState, loaded } from '@/features/admin/queries';
import { DraftEditor } from './DraftEditor';
import { getInvoice, listInvoiceBooks } from './invoices-api';
import { SentInvoice } from './SentInvoice';
import { RecordPanel } from '@/components/Section';

export function InvoicePage({ invoiceId }: { invoiceId: string | null }) {
  // A draft's form starts from what the database holds now, never from an earlier look: the invoice is not kept
  // once its page is left (gcTime 0), so opening it again reads it afresh.
  const state = loaded(useQuery({ queryKey: [...keys.invoices, 'detail', invoiceId], queryFn: () => (invoiceId ? getInvoice(invoiceId) : null), gcTime: 0 }));
  const books = loaded(useQuery({ queryKey: keys.books, queryFn: listInvoiceBooks }));
  return (
    <RecordPanel id="invoice-heading" back="#invoices" backLabel="All invoices">
      <LoadState state={state} what="the invoice" />
      <LoadState state={books} what="the books" />
      {state.status === 'ready' && invoiceId && state.data === null && <p className="text-slate-700">There is no such invoice.</p>}
      {state.status === 'ready' &&
        books.status === 'ready' &&
        (!invoiceId || state.data?.status === 'draft' ? (
          <DraftEditor key={state.data?.id ?? 'new'} invoice={state.data} books={books.data} />
        ) : state.data ? (
          <SentInvoice invoice={state.data} />
        ) : null)}
    </RecordPanel>
  );
}
