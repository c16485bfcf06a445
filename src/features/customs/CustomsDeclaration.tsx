/**
 * An international order's customs declaration, CN 22 / CN 23 style, printed on its own A4 page after its packing
 * slip: the sender as the tax invoice names the shop, the recipient, each book (description, quantity, what was
 * paid, HS code, origin, net weight), the totals, the category "Sale of goods", and that printed books are
 * informational materials. Since 2025 a parcel to the US without this data is returned.
 */
import { type CustomsAnswer, type CustomsLineView, declarationTotals, isPrintedMatter, splitCustomsValue } from '@/features/customs/declaration';
import { formatPrice, orderNumber } from '@/lib/format';
import type { OrderDetail } from '@/features/admin/orders-api';
import { postalAddressLines } from '@/lib/postal-address';
import { TableHead } from '@/components/TableHead';

/** A line's value per copy: "$18.67 each", or the copies by value when the cents do not divide ("2 × $18.67, 1 × $18.66"). */
function valueEach(line: CustomsLineView): string {
  const parts = splitCustomsValue(line.quantity, Math.round(line.valueAud * 100));
  return parts.length === 1 ? `${formatPrice(parts[0]!.unitCents / 100)} each` : parts.map((p) => `${p.quantity} × ${formatPrice(p.unitCents / 100)}`).join(', ');
}

const CATEGORIES = ['Gift', 'Documents', 'Commercial sample', 'Returned goods', 'Sale of goods', 'Other'] as const;
const kg = (grams: number) => (grams / 1000).toFixed(3);
// Narrow cells on a phone, so the six columns fit without scrolling; A4 has room.
const cell = 'border border-slate-400 px-1 py-1 sm:px-2 print:px-2';

interface Props {
  order: OrderDetail;
  sender: CustomsAnswer['sender'];
  declaration: CustomsAnswer['declarations'][number];
}

export default function CustomsDeclaration({ order, sender, declaration }: Props) {
  const phone = order.shipping_address.phone?.trim();
  return (
    <article
      className="declaration rounded-2xl bg-white p-4 text-sm sm:p-6 ring-1 ring-slate-300 not-last:break-after-page print:rounded-none print:p-0 print:ring-0"
      aria-label={`Customs declaration ${orderNumber(order.number)}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b-2 border-slate-800 pb-2">
        <h2 className="text-xl font-bold">Customs declaration (CN 22 / CN 23)</h2>
        <p>
          Order <span className="font-mono font-semibold">{orderNumber(order.number)}</span>
        </p>
      </div>

      <div className="mt-3 grid gap-3 sm:grid-cols-2 print:grid-cols-2">
        <section aria-label="Sender" className="rounded border border-slate-400 p-3">
          <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">From (sender)</h3>
          <p className="font-bold">{sender.name}</p>
          <p>{sender.address}</p>
          {sender.abn && <p>ABN {sender.abn}</p>}
        </section>
        <section aria-label="Recipient" className="rounded border border-slate-400 p-3">
          <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">To (recipient)</h3>
          <p className="font-bold">{order.customer_name}</p>
          {postalAddressLines(order.shipping_address).map((line) => (
            <p key={line}>{line}</p>
          ))}
          {phone && <p>Phone: {phone}</p>}
        </section>
      </div>

      <section aria-label="Category of item" className="mt-3">
        <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Category of item</h3>
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {CATEGORIES.map((category) => (
            <li key={category} className={category === 'Sale of goods' ? 'font-bold' : 'text-slate-600'}>
              <span aria-hidden="true">{category === 'Sale of goods' ? '☒' : '☐'}</span> {category}
              {category === 'Sale of goods' && <span className="sr-only"> (ticked)</span>}
            </li>
          ))}
        </ul>
      </section>

      {'problem' in declaration ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 font-semibold text-red-900 ring-1 ring-red-300">
          This declaration cannot be filled in: {declaration.problem}
        </p>
      ) : (
        <Lines lines={declaration.lines} shippingAmount={order.shipping_amount} shippingName={order.shipping_method.name ?? 'International postage'} />
      )}

      <p className="mt-4 text-xs text-slate-700">
        I, the undersigned, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article prohibited by legislation or by postal or
        customs regulations.
      </p>
      <div className="mt-6 grid grid-cols-2 gap-6">
        <p className="border-t border-slate-500 pt-1 text-xs">Sender’s signature</p>
        <p className="border-t border-slate-500 pt-1 text-xs">Date</p>
      </div>
    </article>
  );
}

/** A column's name in full on paper and wide screens, shortened on a phone where six columns share the width. */
function Heading({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className="sm:hidden" aria-hidden="true">
        {short}
      </span>
      <span className="sr-only sm:not-sr-only">{long}</span>
    </>
  );
}

function Lines({ lines, shippingAmount, shippingName }: { lines: readonly CustomsLineView[]; shippingAmount: number; shippingName: string }) {
  const totals = declarationTotals(lines);
  const printed = lines.some((line) => isPrintedMatter(line.hsCode));
  return (
    <>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full table-fixed border-collapse text-left text-xs sm:text-sm print:text-sm">
          <colgroup>
            {['w-[25%]', 'w-[8%]', 'w-[13%]', 'w-[20%]', 'w-[18%]', 'w-[16%]'].map((width) => (
              <col key={width} className={width} />
            ))}
          </colgroup>
          <TableHead
            className="bg-slate-100 text-xs"
            cell={cell}
            columns={[
              { key: 'contents', label: <Heading long="Description of contents" short="Contents" /> },
              { label: 'Qty', right: true },
              { key: 'kg', label: <Heading long="Net weight (kg)" short="kg" />, right: true },
              { key: 'aud', label: <Heading long="Value (AUD)" short="AUD" />, right: true },
              { key: 'hs', label: <Heading long="HS tariff no." short="HS" /> },
              { key: 'origin', label: <Heading long="Country of origin" short="Origin" /> },
            ]}
          />
          <tbody>
            {lines.map((line) => (
              <tr key={`${line.description}-${line.hsCode}-${line.unitValueAud}`} data-testid="customs-line">
                <td className={`${cell} break-words`}>{line.description}</td>
                <td className={`${cell} text-right`}>{line.quantity}</td>
                <td className={`${cell} text-right`}>{kg(line.unitWeightGrams * line.quantity)}</td>
                <td className={`${cell} text-right`}>
                  {formatPrice(line.valueAud)}
                  {line.quantity > 1 && <span className="block text-xs text-slate-600">{valueEach(line)}</span>}
                </td>
                <td className={`${cell} sm:font-mono`}>{line.hsCode}</td>
                <td className={cell}>{line.originCountry}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="font-bold">
            <tr data-testid="customs-totals">
              <th scope="row" className={cell}>
                Total
              </th>
              <td className={`${cell} text-right`}>{totals.quantity}</td>
              <td className={`${cell} text-right`}>{kg(totals.weightGrams)}</td>
              <td className={`${cell} text-right`}>
                <span className="whitespace-nowrap">{formatPrice(totals.valueCents / 100)}</span> AUD
              </td>
              <td className={cell} colSpan={2}>
                Gross weight: ______ kg
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="mt-2">
        Postal charges paid: {formatPrice(shippingAmount)} AUD ({shippingName}). Currency of the values: Australian dollars (AUD), what the buyer paid after any discount.
      </p>
      {printed && (
        <p className="mt-2 rounded border border-slate-500 p-2 font-semibold" data-testid="informational-materials">
          Printed books (HS chapter 49): informational materials.
        </p>
      )}
    </>
  );
}
