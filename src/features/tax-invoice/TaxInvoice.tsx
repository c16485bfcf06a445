/** An order's tax invoice and its adjustment notes, as the status page and the print view draw them. */
import { formatAbn } from '@/lib/abn';
import { formatLongDate, formatPrice } from '@/lib/format';
import { adjustmentGstLine, gstLine, quantityLine, type TaxInvoice as Invoice } from './tax-invoice';
import { TableHead } from '@/components/TableHead';

const amountCell = 'py-1 pl-3 text-right tabular-nums whitespace-nowrap';

export default function TaxInvoice({ invoice, headingLevel = 2 }: { invoice: Invoice; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const gst = gstLine(invoice);
  return (
    <div data-testid="tax-invoice">
      <section aria-labelledby="invoice-heading">
        <Heading id="invoice-heading" className={headingLevel === 1 ? 'text-3xl font-extrabold' : 'mt-6 text-lg font-bold'}>
          {invoice.title}
        </Heading>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold">Seller</dt>
          <dd data-testid="invoice-seller">{invoice.seller.legalName}</dd>
          <dt className="font-semibold">ABN</dt>
          <dd data-testid="invoice-abn">{formatAbn(invoice.seller.abn)}</dd>
          <dt className="font-semibold">Invoice</dt>
          <dd>
            Order <span className="font-mono">{invoice.orderNumber}</span>
          </dd>
          <dt className="font-semibold">Date</dt>
          <dd>{formatLongDate(invoice.date)}</dd>
          {invoice.buyer && (
            <>
              <dt className="font-semibold">Bought by</dt>
              <dd>{invoice.buyer}</dd>
            </>
          )}
        </dl>
        <table className="mt-3 w-full text-left text-sm">
          <caption className="sr-only">Items, shipping and total</caption>
          <TableHead
            className="border-b border-slate-400"
            cell="py-1"
            columns={['Item', { label: 'Price each', right: true, className: 'pl-3' }, { label: 'Amount', right: true, className: 'pl-3' }]}
          />
          <tbody>
            {invoice.lines.map((line) => (
              <tr key={line.title} className="border-b border-slate-100">
                <td className="py-1 pr-2">{quantityLine(line.title, line.quantity)}</td>
                <td className={amountCell}>{formatPrice(line.unitPrice)}</td>
                <td className={amountCell}>{formatPrice(line.amount)}</td>
              </tr>
            ))}
            {invoice.discount && (
              <tr className="border-b border-slate-100">
                <td className="py-1 pr-2" colSpan={2}>
                  Code {invoice.discount.code}
                </td>
                <td className={amountCell}>−{formatPrice(invoice.discount.amount)}</td>
              </tr>
            )}
            <tr className="border-b border-slate-100">
              <td className="py-1 pr-2" colSpan={2}>
                Shipping: {invoice.shipping.name}
              </td>
              <td className={amountCell}>{formatPrice(invoice.shipping.amount)}</td>
            </tr>
          </tbody>
          <tfoot>
            <tr className="font-bold">
              <th scope="row" className="py-1 text-left" colSpan={2}>
                Total ({invoice.currency}){invoice.gstApplies ? ', GST included' : ''}
              </th>
              <td className={amountCell} data-testid="invoice-total">
                {formatPrice(invoice.total)}
              </td>
            </tr>
            {gst && (
              <tr>
                <td className="py-1" colSpan={3} data-testid="invoice-gst">
                  {gst}
                </td>
              </tr>
            )}
          </tfoot>
        </table>
      </section>
      {invoice.adjustments.map((adjustment, index) => (
        <section
          key={`${adjustment.refundId ?? ''}-${adjustment.date ?? ''}-${adjustment.amount}`}
          aria-label={`Adjustment note ${index + 1}`}
          className="mt-4 rounded-xl p-3 ring-1 ring-slate-300 print:break-inside-avoid"
          data-testid="adjustment-note"
        >
          <h3 className="font-bold">Adjustment note</h3>
          <p className="text-sm">
            For the {invoice.title.toLowerCase()} of order <span className="font-mono">{invoice.orderNumber}</span>
            {adjustment.date ? `, dated ${formatLongDate(adjustment.date)}` : ''}
          </p>
          <p className="text-sm">
            Refunded: <strong>{formatPrice(adjustment.amount)}</strong> {invoice.currency} ({adjustment.reason})
          </p>
          {adjustmentGstLine(invoice, adjustment) && <p className="text-sm">{adjustmentGstLine(invoice, adjustment)}</p>}
        </section>
      ))}
    </div>
  );
}
