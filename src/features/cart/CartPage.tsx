/** The cart page: lines as a table on desktop and cards on mobile, quantity and removal, and the summary. */
import SummaryTotals from './SummaryTotals';
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { formatPrice } from '@/lib/format';
import { productPath } from '@/lib/paths';
import { useHydrated } from '@/lib/use-hydrated';
import { toast } from '@/features/toast/store';
import QuantityStepper from '@/features/catalog/QuantityStepper';
import { copiesAvailable } from '@/features/catalog/product';
import { $cartLines, $quantitySaving, $subtotal, clearCart, refreshLiveStock, removeFromCart, updateQuantity } from './store';
import { liveCatalog } from '@/features/catalog/live-catalog';
import { linePrice, type CartLine } from './cart';
import LinePriceNote from './LinePriceNote';
import PreorderNotice from './PreorderNotice';
import EmptyCart from './EmptyCart';
import { announcePayment } from '@/features/checkout/payment-tabs';
import { useRestoreCart, type RestoreState } from './use-restore-cart';

function remove(line: CartLine) {
  removeFromCart(line.product.id);
  toast({ title: `${line.product.title} removed from cart`, variant: 'info' });
}

function RemoveButton({ line }: { line: CartLine }) {
  return (
    <button type="button" onClick={() => remove(line)} className="text-sm font-semibold text-red-800 underline underline-offset-4" aria-label={`Remove ${line.product.title}`}>
      Remove
    </button>
  );
}

/** A line's quantity; the table and the phone list each show one, so each passes its own id. */
function LineQuantity({ line, id }: { line: CartLine; id: string }) {
  return <QuantityStepper id={id} label={`Quantity of ${line.product.title}`} value={line.quantity} stock={copiesAvailable(line.product)} onChange={(q) => updateQuantity(line.product.id, q)} />;
}

/**
 * The payment page's Cancel returns here (`?payment=cancelled`): say so, and tell the checkout tab left
 * behind. The notice stays for this visit only.
 */
function CancelledPayment({ className = '' }: { className?: string }) {
  const [cancelled] = useState(() => new URLSearchParams(window.location.search).get('payment') === 'cancelled');
  useEffect(() => {
    if (!cancelled) return;
    announcePayment({ type: 'cancelled' });
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }, [cancelled]);
  if (!cancelled) return null;
  return (
    <p role="status" className={`rounded-xl bg-amber-50 p-4 font-semibold text-amber-950 ring-1 ring-amber-300 ${className}`}>
      Payment cancelled. Nothing was charged, and your cart is just as you left it.
    </p>
  );
}

/** What became of a reminder's link to bring an order's books back. */
function RestoredNotice({ restore, className = '' }: { restore: RestoreState; className?: string }) {
  if (restore.status === 'idle') return null;
  const tone = restore.status === 'done' && !restore.ok ? 'bg-amber-50 text-amber-950 ring-amber-300' : 'bg-sky/60 text-navy ring-sky';
  return (
    <p role="status" className={`rounded-xl p-4 font-semibold ring-1 ${tone} ${className}`}>
      {restore.status === 'restoring' ? 'Bringing your books back...' : restore.message}
    </p>
  );
}

export default function CartPage() {
  const lines = useStore($cartLines);
  const subtotal = useStore($subtotal);
  const restore = useRestoreCart();
  const saving = useStore($quantitySaving);
  // The stock each line may take is the live one, not what it was when the book was added.
  useEffect(() => {
    liveCatalog().then(refreshLiveStock, (error: Error) => console.error(error));
  }, []);
  if (!useHydrated()) {
    return (
      <p className="py-16 text-center text-slate-700" role="status">
        Loading your cart...
      </p>
    );
  }
  if (lines.length === 0) {
    return (
      <>
        <CancelledPayment />
        <RestoredNotice restore={restore} />
        {restore.status !== 'restoring' && <EmptyCart />}
      </>
    );
  }
  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_340px]">
      <CancelledPayment className="lg:col-span-2" />
      <RestoredNotice restore={restore} className="lg:col-span-2" />
      <div>
        <table className="hidden w-full md:table">
          <caption className="sr-only">Items in your cart</caption>
          <thead>
            <tr className="border-b border-slate-300 text-left text-sm text-slate-600">
              <th scope="col" className="py-3">
                Product
              </th>
              <th scope="col">Price</th>
              <th scope="col">Quantity</th>
              <th scope="col" className="text-right">
                Total
              </th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.product.id} className="border-b border-slate-200">
                <td className="py-4">
                  <div className="flex items-center gap-4">
                    <img src={line.product.imageUrl} alt="" width="64" height="64" className="h-16 w-16 rounded-lg object-cover ring-1 ring-slate-200" />
                    <div>
                      <a href={productPath(line.product.id)} className="font-semibold hover:underline">
                        {line.product.title}
                      </a>
                      <LinePriceNote line={line} />
                    </div>
                  </div>
                </td>
                <td>{formatPrice(linePrice(line).unitPrice)}</td>
                <td>
                  <LineQuantity line={line} id={`cart-qty-${line.product.id}`} />
                </td>
                <td className="text-right font-semibold">{formatPrice(linePrice(line).lineTotal)}</td>
                <td className="pl-4 text-right">
                  <RemoveButton line={line} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ul className="space-y-4 md:hidden" aria-label="Items in your cart">
          {lines.map((line) => (
            <li key={line.product.id} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
              <div className="flex gap-4">
                <img src={line.product.imageUrl} alt="" width="80" height="80" className="h-20 w-20 rounded-lg object-cover ring-1 ring-slate-200" />
                <div className="flex-1">
                  <a href={productPath(line.product.id)} className="font-semibold hover:underline">
                    {line.product.title}
                  </a>
                  <p className="mt-1 text-slate-700">{formatPrice(linePrice(line).unitPrice)} each</p>
                  <LinePriceNote line={line} />
                </div>
              </div>
              <div className="mt-4 flex items-center justify-between">
                <LineQuantity line={line} id={`cart-qty-m-${line.product.id}`} />
                <p className="font-semibold">{formatPrice(linePrice(line).lineTotal)}</p>
              </div>
              <div className="mt-3 text-right">
                <RemoveButton line={line} />
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-wrap gap-3">
          <button
            type="button"
            className="btn-secondary"
            onClick={() => {
              clearCart();
              toast({ title: 'Cart cleared', variant: 'info' });
            }}
          >
            Clear Cart
          </button>
          <a href="/store" className="btn-secondary">
            Continue Shopping
          </a>
        </div>
      </div>
      <aside className="h-fit rounded-2xl bg-white p-6 ring-1 ring-slate-200" aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="text-xl font-bold">
          Order Summary
        </h2>
        {saving > 0 && (
          <p className="mt-4 text-sm font-semibold text-emerald-800" data-testid="quantity-saving">
            Quantity prices save you {formatPrice(saving)}
          </p>
        )}
        <SummaryTotals className="mt-4" subtotal={subtotal} shipping={<span className="text-slate-600">Calculated at checkout</span>} total={subtotal} />
        <PreorderNotice lines={lines} className="mt-4" />
        <a href="/checkout" className="btn-primary mt-6 w-full">
          Proceed to Checkout
        </a>
        <p className="mt-4 text-center text-sm text-slate-600">Secure checkout powered by Stripe. We accept all major cards.</p>
      </aside>
    </div>
  );
}
