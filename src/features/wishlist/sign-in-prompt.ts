/**
 * Add to Wishlist, signed out: the message that asks the visitor to sign in and come back, and the book they
 * asked for, kept in session storage across the sign-in so it is added as soon as they are signed in
 * (AuthCallback), not lost.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { currentPath, signInPath } from '@/features/account/return-to';
import { toast } from '@/features/toast/store';

const WISHLIST_SIGN_IN = 'Please sign in to add items to your wishlist';

export interface WishlistIntent {
  productId: string;
  title: string;
}

/** A tap older than this is not acted on: the visitor has moved on. */
const INTENT_MAX_AGE_MS = 60 * 60 * 1000;

export function askToSignInForWishlist(intent: WishlistIntent): void {
  try {
    sessionStorage.setItem(STORAGE_KEYS.pendingWishlistAdd, JSON.stringify({ ...intent, at: Date.now() }));
  } catch {
    // Without session storage the visitor taps again after signing in.
  }
  toast({ title: WISHLIST_SIGN_IN, variant: 'info', action: { label: 'Sign In', href: signInPath(currentPath()) } });
}

/** The book the visitor asked for before signing in, once; null when there is none (or it is stale). */
export function takeWishlistIntent(storage: Pick<Storage, 'getItem' | 'removeItem'> = sessionStorage, now = Date.now()): WishlistIntent | null {
  try {
    const raw = storage.getItem(STORAGE_KEYS.pendingWishlistAdd);
    storage.removeItem(STORAGE_KEYS.pendingWishlistAdd);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!value || typeof value !== 'object') return null;
    const { productId, title, at } = value as Record<string, unknown>;
    if (typeof productId !== 'string' || typeof title !== 'string' || typeof at !== 'number' || now - at > INTENT_MAX_AGE_MS || at > now) return null;
    return { productId, title };
  } catch {
    return null;
  }
}
