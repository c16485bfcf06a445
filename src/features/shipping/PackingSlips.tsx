/**
 * /admin/packing-slip?order=<id>[,<id>…] or ?view=to_pack: print-ready slips, one A4 page each (no blank page after the
 * last): the address label with the buyer's phone when given, the sender's return address, the order number and
 * the items with their prices. A gift's slip is titled a gift slip: the buyer's message in a clear box and whom it is
 * from, and no price anywhere unless the buyer asked for the prices on it (the packer is told so on screen).
 * An order going abroad is followed by its customs declaration (CustomsDeclaration), a page of its own.
 */
import { SITE } from '@/config/site';
import { formatPrice, orderNumber } from '@/lib/format';
import { giftSlipSender } from '@/features/checkout/gift';
import { type CustomsAnswer, needsDeclaration } from '@/features/customs/declaration';
import { lazy, Suspense } from 'react';
import { allPages } from '@/features/admin/api';
import { getOrders, listOrders, type OrderDetail } from '@/features/admin/orders-api';
import GiftMessageBox from '@/features/checkout/GiftMessageBox';
import { postalAddressLines } from '@/lib/postal-address';
import { StaffGate } from '@/features/admin/StaffGate';
import { useQuery } from '@tanstack/react-query';
import { keys, LoadState, loaded } from '@/features/admin/queries';
import { TableHead } from '@/components/TableHead';
import { orderTotalLine } from '@/features/on-account/paperwork';

/** The orders chosen, or every order to pack (all its pages); in full, 500 to a call rather than one call each. */
async function ordersToPrint(): Promise<OrderDetail[]> {
  const params = new URLSearchParams(window.location.search);
  const chosen = (params.get('order') ?? '').split(',').filter(Boolean);
  if (chosen.length) return getOrders(chosen);
  const toPack = await allPages((cursor) => listOrders('to_pack', '', cursor, 200));
  return getOrders(toPack.map((o) => o.id));
}

// Only a day with parcels abroad downloads the declaration.
const CustomsDeclaration = lazy(() => import('@/features/customs/CustomsDeclaration'));

/**
 * The orders, and the customs declarations of those going abroad. Declarations that cannot be had leave the slips
 * printable, with the reason on screen.
 */
async function slipsToPrint(): Promise<{ orders: OrderDetail[]; customs: CustomsAnswer | null; customsProblem: string | null }> {
  const orders = await ordersToPrint();
  const abroad = orders.filter((order) => needsDeclaration(order.shipping_address.country)).map((order) => order.id);
  if (!abroad.length) return { orders, customs: null, customsProblem: null };
  try {
    const { getCustomsDeclarations } = await import('@/features/customs/customs-declarations');
    return { orders, customs: await getCustomsDeclarations(abroad), customsProblem: null };
  } catch (error) {
    return { orders, customs: null, customsProblem: error instanceof Error ? error.message : String(error) };
  }
}

/** "From <buyer>" under the message, unless the message signs itself or the buyer is unknown. */
function GiftSender({ order }: { order: OrderDetail }) {
  // The buyer may have asked for their name to be left off.
  const sender = order.gift_hide_sender === true ? null : giftSlipSender(order.gift_message, order.bought_by);
  return sender ? (
    <p className="mt-3 text-lg" data-testid="gift-sender">
      From {sender}
    </p>
  ) : null;
}

function Slip({ order, returnAddress }: { order: OrderDetail; returnAddress: readonly string[] }) {
  const phone = order.shipping_address.phone?.trim();
  const gift = order.is_gift === true;
  // The parcel shows what was paid, except a gift's: its buyer's choice, where prices are left out unless asked for.
  const prices = !(gift && order.gift_hide_prices);
  return (
    <article
      className="slip rounded-2xl bg-white p-6 ring-1 ring-slate-300 not-last:break-after-page print:rounded-none print:p-0 print:ring-0"
      aria-label={`${gift ? 'Gift slip' : 'Packing slip'} ${orderNumber(order.number)}`}
    >
      {gift && order.gift_hide_prices && (
        <p className="mb-4 rounded-lg bg-amber-50 p-3 font-semibold text-amber-950 ring-1 ring-amber-300 print:hidden">
          Gift: leave prices out of the parcel. Pack this gift slip only, no receipt or invoice.
        </p>
      )}
      {gift && (
        <p className="mb-4 font-display text-3xl font-extrabold tracking-wide uppercase" data-testid="slip-title">
          Gift slip
        </p>
      )}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-64 flex-1 rounded-xl border-2 border-dashed border-slate-500 p-4 text-lg">
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Ship to</p>
          {order.organisation && (
            <p className="font-bold" data-testid="slip-organisation">
              {order.organisation}
            </p>
          )}
          <p className="font-bold">{order.organisation ? `Attn: ${order.customer_name}` : order.customer_name}</p>
          {postalAddressLines(order.shipping_address).map((line) => (
            <p key={line}>{line}</p>
          ))}
          {phone && <p>Phone: {phone}</p>}
        </div>
        <div className="text-sm" data-testid="return-address">
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">From (return address)</p>
          {returnAddress.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      </div>
      <div className="mt-4 flex flex-wrap justify-between gap-2">
        <h2 className="text-xl font-bold">
          Order <span className="font-mono">{orderNumber(order.number)}</span>
        </h2>
        <p>{order.shipping_method.name ?? 'Standard delivery'}</p>
      </div>
      {order.kind === 'invoice' && (
        <p className="mt-1 text-lg" data-testid="slip-po">
          Purchase order: <strong className="font-mono">{order.po_number ?? 'none given'}</strong>
          {order.invoice_number && <> · Invoice {order.invoice_number}</>}
        </p>
      )}
      <table className="mt-3 w-full text-left">
        <TableHead
          className="border-b border-slate-300 text-sm"
          cell="py-1"
          columns={[
            'Qty',
            'Item',
            prices && { label: 'Price each', right: true, className: 'pl-3' },
            prices && { label: 'Amount', right: true, className: 'pl-3' },
            { label: 'Packed', className: 'pl-3' },
          ]}
        />
        <tbody>
          {order.items.map((item) => (
            <tr key={item.product_id} className="border-b border-slate-100">
              <td className="py-1 font-bold">{item.quantity}</td>
              {/* A title with no space in it wraps rather than push the page sideways on a phone. */}
              <td className="py-1 [overflow-wrap:anywhere]">{item.title}</td>
              {prices && (
                <>
                  <td className="py-1 pl-3 text-right whitespace-nowrap">{formatPrice(item.price_at_time)}</td>
                  <td className="py-1 pl-3 text-right whitespace-nowrap">{formatPrice(item.price_at_time * item.quantity)}</td>
                </>
              )}
              <td className="py-1 pl-3" aria-hidden="true">
                ☐
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {gift && (
        <section className="mt-6" aria-label="Gift message">
          <h3 className="text-lg font-bold">A gift for you</h3>
          {order.gift_message && <GiftMessageBox message={order.gift_message} />}
          <GiftSender order={order} />
        </section>
      )}
      {order.promotion_code && prices && (
        <p className="mt-3 text-sm" data-testid="slip-code">
          Promotion code {order.promotion_code}: −{formatPrice(order.discount_amount)}
        </p>
      )}
      {prices && (
        <p className="mt-2 text-sm" data-testid="slip-total">
          Shipping {formatPrice(order.shipping_amount)} · <strong>{orderTotalLine(order.total_amount, order.account)}</strong>
        </p>
      )}
      <p className="mt-4 text-sm text-slate-700">
        {gift ? 'Sent as a gift' : 'Thank you for your order!'} — {SITE.name}, Sydney · {SITE.email}
      </p>
    </article>
  );
}

function Slips({ returnAddress }: Props) {
  const state = loaded(useQuery({ queryKey: [...keys.orders, 'slips', window.location.search], queryFn: slipsToPrint, refetchOnWindowFocus: false }));
  return (
    <>
      <div className="mb-6 flex flex-wrap items-center gap-3 print:hidden">
        <h1 className="text-3xl font-extrabold">Packing slips</h1>
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          Print
        </button>
        <a href="/admin#orders" className="btn-secondary">
          Back to orders
        </a>
      </div>
      <LoadState state={state} what="packing slips" />
      {state.status === 'ready' && state.data.orders.length === 0 && <p>Nothing to pack.</p>}
      {state.status === 'ready' && state.data.customsProblem && (
        <p role="alert" className="mb-6 rounded-lg bg-red-50 p-3 font-semibold text-red-900 ring-1 ring-red-300 print:hidden">
          The customs declarations for the orders going abroad could not be loaded, so none will print: {state.data.customsProblem}
        </p>
      )}
      {state.status === 'ready' && (
        <div className="space-y-6 print:space-y-0">
          {state.data.orders.map((order) => {
            const customs = state.data.customs;
            const declaration = customs?.declarations.find((d) => d.orderId === order.id);
            return [
              <Slip key={order.id} order={order} returnAddress={returnAddress} />,
              customs && declaration ? (
                <Suspense key={`${order.id}-customs`} fallback={<p role="status">Loading the customs declaration...</p>}>
                  <CustomsDeclaration order={order} sender={customs.sender} declaration={declaration} />
                </Suspense>
              ) : null,
            ];
          })}
        </div>
      )}
    </>
  );
}

interface Props {
  /** The sender's return address from the site settings (`content/site/settings.yaml`), one line each. */
  returnAddress: readonly string[];
}

export default function PackingSlips({ returnAddress }: Props) {
  return (
    <StaffGate>
      <Slips returnAddress={returnAddress} />
    </StaffGate>
  );
}
