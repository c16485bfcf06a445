/**
 * One invoice (#invoice/<id>, or #invoice/new for an empty draft): a draft is a form (`DraftEditor`), a sent invoice
 * reads as it went out (`SentInvoice`).
 */
import { useCallback } from 'react';
import { LoadState, useLoad } from '@/features/admin/use-load';
import { DraftEditor } from './DraftEditor';
import { getInvoice, listInvoiceBooks } from './invoices-api';
import { SentInvoice } from './SentInvoice';
import { RecordPanel } from '@/components/Section';

export function InvoicePage({ invoiceId }: { invoiceId: string | null }) {
  const load = useCallback(() => (invoiceId ? getInvoice(invoiceId) : Promise.resolve(null)), [invoiceId]);
  const { state, reload } = useLoad(load);
  const books = useLoad(listInvoiceBooks);
  return (
    <RecordPanel id="invoice-heading" back="#invoices" backLabel="All invoices">
      <LoadState state={state} what="the invoice" />
      <LoadState state={books.state} what="the books" />
      {state.status === 'ready' && invoiceId && state.data === null && <p className="text-slate-700">There is no such invoice.</p>}
      {state.status === 'ready' &&
        books.state.status === 'ready' &&
        (!invoiceId || state.data?.status === 'draft' ? (
          <DraftEditor key={state.data?.id ?? 'new'} invoice={state.data} books={books.state.data} reload={reload} />
        ) : state.data ? (
          <SentInvoice invoice={state.data} reload={reload} />
        ) : null)}
    </RecordPanel>
  );
}
