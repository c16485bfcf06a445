/** Add to Wishlist, signed out: the message that asks the visitor to sign in and come back. */
import { currentPath, signInPath } from '@/features/account/return-to';
import { toast } from '@/features/toast/store';

export const WISHLIST_SIGN_IN = 'Please sign in to add items to your wishlist';

export function askToSignInForWishlist(): void {
  toast({ title: WISHLIST_SIGN_IN, variant: 'info', action: { label: 'Sign In', href: signInPath(currentPath()) } });
}
