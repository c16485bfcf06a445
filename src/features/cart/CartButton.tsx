/** The header's cart icon, with a badge of the total quantity once there is anything in the cart. */
import { useStore } from '@nanostores/react';
import { useHydrated } from '@/lib/use-hydrated';
import { $itemCount } from './store';

export default function CartButton() {
  const count = useStore($itemCount);
  // The saved cart exists only in the browser; the server-rendered badge would always read 0.
  const shown = useHydrated() ? count : 0;
  return (
    <a href="/cart" className="relative rounded-full p-2 text-navy hover:bg-sky" aria-label={shown > 0 ? `Cart, ${shown} item${shown === 1 ? '' : 's'}` : 'Cart'}>
      <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M6 6h15l-1.5 9h-12z" />
        <path d="M6 6 5 3H2" />
        <circle cx="9" cy="20" r="1.5" />
        <circle cx="18" cy="20" r="1.5" />
      </svg>
      {shown > 0 && (
        <span data-testid="cart-badge" aria-hidden="true" className="absolute -top-0.5 -right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-gold px-1 text-xs font-bold text-navy-dark">
          {shown}
        </span>
      )}
    </a>
  );
}
