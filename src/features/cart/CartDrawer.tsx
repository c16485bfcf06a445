/** The drawer that slides in from the right after every add: the item just added, a few others, the total. */
import * as Dialog from '@radix-ui/react-dialog';
import { useStore } from '@nanostores/react';
import { LIMITS } from '@/config/constants';
import { formatPrice } from '@/lib/format';
import DrawerNotice from '@/features/toast/DrawerNotice';
import CartLineList from './CartLineList';
import { $cartLines, $drawerOpen, $itemCount, $lastAdded, $subtotal, closeDrawer } from './store';

export default function CartDrawer() {
  const open = useStore($drawerOpen);
  const lastAdded = useStore($lastAdded);
  const lines = useStore($cartLines);
  const subtotal = useStore($subtotal);
  const count = useStore($itemCount);
  const others = lines.filter((line) => line.product.id !== lastAdded?.id).slice(0, LIMITS.drawerOtherLines);

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && closeDrawer()}>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay fixed inset-0 z-50 bg-navy/40" />
        <Dialog.Content aria-describedby={undefined} className="drawer-content fixed top-0 right-0 z-50 flex h-full w-full max-w-md flex-col bg-white shadow-2xl focus:outline-none">
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
            <Dialog.Title className="font-display text-xl font-bold text-navy">Item added to your cart</Dialog.Title>
            <Dialog.Close className="rounded-full p-2 text-navy hover:bg-sky" aria-label="Close cart">
              <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M6 6l12 12M18 6 6 18" />
              </svg>
            </Dialog.Close>
          </div>
          <DrawerNotice />
          <div className="flex-1 overflow-y-auto px-5 py-4">
            {lastAdded && (
              <div className="flex gap-4">
                <img src={lastAdded.imageUrl} alt="" width="96" height="96" className="h-24 w-24 rounded-lg object-cover ring-1 ring-slate-200" />
                <div>
                  <p className="font-semibold text-slate-900">{lastAdded.title}</p>
                  <p className="mt-1 text-navy">{formatPrice(lastAdded.price)}</p>
                </div>
              </div>
            )}
            {others.length > 0 && (
              <div className="mt-6 border-t border-slate-200 pt-4">
                <h3 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Also in your cart</h3>
                <CartLineList lines={others} className="mt-2 space-y-2 text-sm" />
              </div>
            )}
          </div>
          <div className="space-y-3 border-t border-slate-200 px-5 py-4">
            <p className="flex justify-between text-lg font-bold text-navy">
              <span>Total</span>
              <span>{formatPrice(subtotal)}</span>
            </p>
            <a href="/cart" onClick={closeDrawer} className="btn-secondary w-full">
              View my cart ({count})
            </a>
            <a href="/checkout" onClick={closeDrawer} className="btn-primary w-full">
              Check out
            </a>
            <button type="button" onClick={closeDrawer} className="w-full py-2 font-semibold text-navy underline underline-offset-4">
              Continue shopping
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
