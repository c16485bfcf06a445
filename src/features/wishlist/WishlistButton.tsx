/**
 * Add to Wishlist, as a full button (book and product pages) or a heart (store cards). Signed out, it asks
 * the visitor to sign in; signed in, it shows whether the product is already on the list.
 */
import { settledAuth } from '@/features/account/auth';
import { useAuth } from '@/features/account/use-auth';
import { useEffect, useState } from 'react';
import { toast } from '@/features/toast/store';
import { askToSignInForWishlist } from './sign-in-prompt';
import { addToWishlist, isInWishlist } from './wishlist';

interface Props {
  productId: string;
  productTitle: string;
  variant?: 'button' | 'heart';
}

type State = 'idle' | 'adding' | 'added';

export default function WishlistButton({ productId, productTitle, variant = 'button' }: Props) {
  const auth = useAuth();
  const [state, setState] = useState<State>('idle');
  const userId = auth.user?.id;

  useEffect(() => {
    if (!userId) return setState('idle');
    let current = true;
    isInWishlist(userId, productId).then(
      (added) => current && added && setState('added'),
      (error) => console.error('Failed to check wishlist', error),
    );
    return () => {
      current = false;
    };
  }, [userId, productId]);

  async function add() {
    // A click can arrive while the island is still hydrating: wait for the sign-in state, then act on it.
    const userId = (auth.status === 'loading' ? await settledAuth() : auth).user?.id;
    if (!userId) {
      askToSignInForWishlist({ productId, title: productTitle });
      return;
    }
    setState('adding');
    try {
      const result = await addToWishlist(userId, productId);
      if (result === 'failed') {
        setState('idle');
        toast({ title: 'Failed to add to wishlist', variant: 'error' });
        return;
      }
      setState('added');
      if (result === 'added') toast({ title: 'Added to your wishlist!', description: `${productTitle} added to wishlist` });
    } catch (error) {
      console.error(error);
      setState('idle');
      toast({ title: 'Something went wrong', variant: 'error' });
    }
  }

  const added = state === 'added';
  const label = added ? 'Added to Wishlist' : state === 'adding' ? 'Adding...' : 'Add to Wishlist';

  if (variant === 'heart') {
    return (
      <button
        type="button"
        onClick={add}
        disabled={state !== 'idle'}
        data-purchase="wishlist"
        aria-pressed={added}
        aria-label={added ? `${productTitle}: Added to Wishlist` : `Add ${productTitle} to wishlist`}
        className="grid h-10 w-10 place-items-center rounded-full bg-white/95 text-rose-700 shadow ring-1 ring-slate-200 hover:bg-rose-50 disabled:cursor-default"
      >
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill={added ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
          <path d="M12 21s-7.5-4.6-9.5-9.3C1 8 3.5 4.5 7 4.5c2 0 3.5 1.1 5 3 1.5-1.9 3-3 5-3 3.5 0 6 3.5 4.5 7.2C19.5 16.4 12 21 12 21z" />
        </svg>
      </button>
    );
  }
  return (
    <button type="button" onClick={add} disabled={state !== 'idle'} data-purchase="wishlist" className="btn-secondary">
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill={added ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
        <path d="M12 21s-7.5-4.6-9.5-9.3C1 8 3.5 4.5 7 4.5c2 0 3.5 1.1 5 3 1.5-1.9 3-3 5-3 3.5 0 6 3.5 4.5 7.2C19.5 16.4 12 21 12 21z" />
      </svg>
      {label}
    </button>
  );
}
