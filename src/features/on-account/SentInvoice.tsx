/**
 * A sent invoice reads as it went out: who it is for, where the books go, its lines, shipping, total and GST, and its
 * credit notes; with Send reminder, Ship before payment, Void and Mark uncollectible (each asked first) and, once
 * paid, Credit note.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { TableHead } from '@/components/TableHead';
import { ConfirmDialog } from '@/features/admin/ConfirmDialog';
import { BlockLines, Fact } from '@/features/admin/Facts';
import { Email } from '@/features/admin/OrdersPanel';
import { INVOICE_CHANGES, useAction } from '@/features/admin/queries';
import { TextField } from '@/features/forms/fields';
import { formatDateTime, formatLongDate, formatPrice } from '@/lib/format';
import { fromCents, toCents } from '@/lib/money';
import { postalAddressLines } from '@/lib/postal-address';
import { centsOf } from './draft-form';
import { dueText, InvoiceStatus, RemindButton } from './InvoicesPanel';
import { type InvoiceDetail, invoiceActionMessage } from './invoices-api';
import { quoteHref } from './QuotesPanel';
import { INVOICE_RULES, invoiceNumber } from './rules';
import { Section } from '@/components/Section';

type InvoiceAction = Parameters<typeof invoiceActionMessage>[0];

export function SentInvoice({ invoice }: { invoice: InvoiceDetail }) {
  const [dialog, setDialog] = useState<'void' | 'uncollectible' | 'credit' | null>(null);
  const [credit, setCredit] = useState({ amount: '', reason: '' });
  const [creditErrors, setCreditErrors] = useState<{ amount?: string; reason?: string }>({});
  const creditId = useId();
  const open = invoice.status === 'sent';
  const shipped = invoice.order_status === 'shipped' || invoice.order_status === 'completed';
  const copies = invoice.lines.reduce((n, l) => n + l.quantity, 0);
  const creditable = invoice.status === 'paid' ? Math.max(0, fromCents(toCents(invoice.total) - toCents(invoice.credited))) : 0;
  // Sent, voided or paid, the button that did it is gone: focus lands on the heading rather than nowhere (the page,
  // or the dialog just closed, which read the invoice again before closing).
  const headingRef = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: run again each time the invoice's state changes or a dialog closes.
  useEffect(() => {
    const timer = window.setTimeout(() => {
      const focused = document.activeElement;
      if (!focused || focused === document.body || focused.closest('dialog:not([open])')) headingRef.current?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [invoice.status, dialog]);

  // Paid, shipped before payment, voided: each can change what is to pack, the stock and the sales.
  const { act: run } = useAction(
    ({ request }: { request: InvoiceAction; failed: string }) => invoiceActionMessage(request),
    INVOICE_CHANGES,
    ({ failed }) => failed,
  );
  const act = (request: InvoiceAction, failed: string) => run({ request, failed });

  async function giveCredit(): Promise<boolean> {
    const cents = centsOf(credit.amount);
    const found: typeof creditErrors = {};
    if (!Number.isFinite(cents) || cents <= 0) found.amount = 'Please enter an amount in dollars and cents, more than zero.';
    else if (cents > toCents(creditable)) found.amount = `At most ${formatPrice(creditable)} is left to credit.`;
    if (!credit.reason.trim()) found.reason = 'Please give a reason for the credit.';
    setCreditErrors(found);
    if (found.amount || found.reason) {
      document.getElementById(`${creditId}-${found.amount ? 'amount' : 'reason'}`)?.focus();
      return false;
    }
    const done = await act({ action: 'credit', invoiceId: invoice.id, amountCents: cents, reason: credit.reason.trim() }, 'The credit note could not be made.');
    if (done) setCredit({ amount: '', reason: '' });
    return done;
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="invoice-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-bold">
          Invoice {invoiceNumber(invoice.number)}
        </h2>
        <InvoiceStatus invoice={invoice} />
      </div>
      <p className={invoice.overdue ? 'font-semibold text-red-800' : 'text-slate-700'}>
        {invoice.sent_at && <>Sent {formatDateTime(invoice.sent_at)} · </>}
        {invoice.terms_days} days to pay · {dueText(invoice)}
        {invoice.paid_at && <> · paid {formatDateTime(invoice.paid_at)}</>}
        {invoice.reminded_at && <> · reminded {formatDateTime(invoice.reminded_at)}</>}
      </p>
      <div className="flex flex-wrap gap-2">
        {open && <RemindButton invoice={invoice} />}
        {[
          { href: invoice.hosted_url, label: 'Open the invoice page', external: true },
          { href: invoice.order_id && `#order/${invoice.order_id}`, label: 'Open its order' },
          { href: invoice.quote_id && quoteHref(invoice.quote_id), label: 'Open its quote request' },
        ].map(({ href, label, external }) =>
          href ? (
            <a key={label} href={href} className="btn-secondary px-3 py-1.5 text-sm" {...(external && { target: '_blank', rel: 'noopener' })}>
              {label}
            </a>
          ) : null,
        )}
      </div>

      <dl className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2">
        <Fact label="Bill to">
          {invoice.organisation}
          <span className="block">{invoice.contact_name}</span>
          <span className="block">
            <Email address={invoice.email} />
          </span>
          {invoice.phone && <span className="block">{invoice.phone}</span>}
        </Fact>
        <Fact label="Deliver to">
          <BlockLines lines={postalAddressLines({ ...invoice.address, postalCode: invoice.address.postcode })} />
        </Fact>
        <Fact label="Purchase order number">{invoice.po_number ?? 'None'}</Fact>
        <Fact label="Ship before payment">{invoice.ship_before_payment ? 'Yes: packed without waiting for payment' : 'No: packed once paid'}</Fact>
        {invoice.note && (
          <Fact label="Note">
            <span className="whitespace-pre-line">{invoice.note}</span>
          </Fact>
        )}
      </dl>

      <div className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Lines of the invoice</caption>
          <TableHead
            className="border-b border-slate-200 text-slate-600"
            cell="px-3 py-2"
            columns={['Book', { label: 'Copies', right: true }, { label: 'Price each', right: true }, { label: 'Amount', right: true }]}
          />
          <tbody>
            {invoice.lines.map((l) => (
              <tr key={l.product_id} className="border-b border-slate-100">
                <td className="px-3 py-2">
                  {l.title}
                  {l.price_reason && (
                    <span className="block text-slate-700">
                      Price changed from {formatPrice(l.list_unit_price)}: {l.price_reason}
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 text-right">{l.quantity}</td>
                <td className="px-3 py-2 text-right">{formatPrice(l.unit_price)}</td>
                <td className="px-3 py-2 text-right font-semibold">{formatPrice(l.amount)}</td>
              </tr>
            ))}
            <tr className="border-b border-slate-100">
              <td className="px-3 py-2" colSpan={3}>
                {invoice.shipping_name}
                {invoice.shipping_reason && <span className="block text-slate-700">{invoice.shipping_reason}</span>}
              </td>
              <td className="px-3 py-2 text-right">{formatPrice(invoice.shipping_amount)}</td>
            </tr>
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3} className="px-3 py-2 text-right">
                Total
              </th>
              <td className="px-3 py-2 text-right font-bold">{formatPrice(invoice.total)} AUD</td>
            </tr>
            <tr>
              <th scope="row" colSpan={3} className="px-3 py-2 text-right font-normal text-slate-700">
                {invoice.gst_applies ? 'GST included' : 'GST: none (an export, GST-free)'}
              </th>
              <td className="px-3 py-2 text-right text-slate-700">{invoice.gst_applies ? formatPrice(invoice.gst) : ''}</td>
            </tr>
            {invoice.credited > 0 && (
              <tr>
                <th scope="row" colSpan={3} className="px-3 py-2 text-right font-normal">
                  Credited
                </th>
                <td className="px-3 py-2 text-right">−{formatPrice(invoice.credited)}</td>
              </tr>
            )}
          </tfoot>
        </table>
      </div>

      {invoice.credit_notes.length > 0 && (
        <Section id="credit-notes-heading" title="Credit notes">
          <ul className="mt-2 space-y-1">
            {invoice.credit_notes.map((note) => (
              <li key={note.id}>
                {formatLongDate(note.created_at)}: <strong>{formatPrice(note.amount)}</strong> — {note.reason} ({note.status === 'succeeded' ? 'refunded' : note.status})
              </li>
            ))}
          </ul>
        </Section>
      )}

      <div className="flex flex-wrap gap-2">
        {open && !shipped && (
          <button type="button" className="btn-secondary" onClick={() => void act({ action: 'ship_before_payment', invoiceId: invoice.id, value: !invoice.ship_before_payment }, 'The change failed.')}>
            {invoice.ship_before_payment ? 'Wait for payment before shipping' : 'Ship before payment'}
          </button>
        )}
        {invoice.status === 'paid' && creditable > 0 && (
          <button type="button" className="btn-secondary" onClick={() => setDialog('credit')}>
            Credit note
          </button>
        )}
        {open && (
          <>
            <button type="button" className="btn-secondary" onClick={() => setDialog('uncollectible')}>
              Mark uncollectible
            </button>
            <button type="button" className="btn bg-red-700 text-white hover:bg-red-800" onClick={() => setDialog('void')}>
              Void invoice
            </button>
          </>
        )}
      </div>

      <ConfirmDialog
        open={dialog === 'void'}
        title={`Void invoice ${invoiceNumber(invoice.number)}?`}
        confirm="Void invoice"
        danger
        onConfirm={() => act({ action: 'void', invoiceId: invoice.id }, 'The invoice could not be voided.')}
        onClose={() => setDialog(null)}
      >
        <p>
          {invoice.organisation} can no longer pay it
          {/* Shipped books stay with the school: the server voids the invoice and leaves the order and the stock be. */}
          {shipped ? `. Its ${copies} copies were shipped, so nothing goes back into stock: the invoice is written off.` : `, its order is cancelled and its ${copies} copies go back into stock.`} This
          cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'uncollectible'}
        title={`Mark invoice ${invoiceNumber(invoice.number)} uncollectible?`}
        confirm="Mark uncollectible"
        danger
        onConfirm={() => act({ action: 'mark_uncollectible', invoiceId: invoice.id }, 'The invoice could not be changed.')}
        onClose={() => setDialog(null)}
      >
        <p>You do not expect {invoice.organisation} to pay. Its order is cancelled and its copies go back into stock unless they were shipped.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'credit'}
        title={`Credit note on ${invoiceNumber(invoice.number)}`}
        confirm="Make credit note"
        onConfirm={giveCredit}
        onClose={() => {
          setDialog(null);
          setCreditErrors({});
        }}
      >
        <p>
          The amount is refunded to {invoice.organisation}. At most {formatPrice(creditable)} is left to credit.
        </p>
        <TextField
          id={`${creditId}-amount`}
          label="Amount (AUD)"
          inputMode="decimal"
          value={credit.amount}
          onChange={(e) => setCredit((c) => ({ ...c, amount: e.target.value }))}
          error={creditErrors.amount}
        />
        <TextField
          id={`${creditId}-reason`}
          label="Reason"
          maxLength={INVOICE_RULES.reasonMaxLength}
          value={credit.reason}
          onChange={(e) => setCredit((c) => ({ ...c, reason: e.target.value }))}
          error={creditErrors.reason}
        />
      </ConfirmDialog>
    </div>
  );
}
