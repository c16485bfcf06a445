/**
 * The promotion code applied at checkout, kept in local storage so that it stays with the checkout across the
 * cart, a reload and a second tab ('' for none); the checkout's hook checks it against the cart each time.
 */
import { persistentAtom } from '@nanostores/persistent';
import { STORAGE_KEYS } from '@/config/constants';

export const $appliedCode = persistentAtom<string>(STORAGE_KEYS.appliedPromotionCode, '', { listen: true });

/** The order was paid: its code goes with it. */
export const forgetAppliedCode = () => $appliedCode.set('');
