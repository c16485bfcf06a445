/** How each kind of message looks, on the page and in the cart drawer's own flow (drawer.ts). */
import type { ToastMessage } from './store';

export const VARIANT_STYLES: Record<ToastMessage['variant'], string> = {
  success: 'border-emerald-700 bg-white',
  error: 'border-red-700 bg-white',
  info: 'border-navy bg-white',
};
