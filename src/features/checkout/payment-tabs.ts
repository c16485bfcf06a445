/**
 * The payment page opens in a new tab; the checkout tab left behind follows it. The page the payment returns
 * to (the confirmation when paid, the cart when cancelled) tells every tab of the shop, and the checkout tab
 * shows the confirmation or says the payment was cancelled.
 */
import { STORAGE_KEYS } from '@/config/constants';
import { CART_ID_PATTERN } from './contract';

const CHANNEL = 'shop-payment';

/**
 * This browser's id for its cart, kept in local storage so every tab sends the same one: the server finds the
 * cart's open payment page by it and gives that page back instead of opening a second. Null where storage is off.
 */
export function checkoutCartId(): string | null {
  try {
    const saved = localStorage.getItem(STORAGE_KEYS.checkoutCartId);
    if (saved && CART_ID_PATTERN.test(saved)) return saved;
    const made = crypto.randomUUID();
    localStorage.setItem(STORAGE_KEYS.checkoutCartId, made);
    return made;
  } catch {
    return null;
  }
}

export type PaymentNews = { type: 'paid'; sessionId: string } | { type: 'cancelled' };

export function announcePayment(news: PaymentNews): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(news);
  channel.close();
}

/** Calls `handle` for each piece of news from another tab; answers the function that stops listening. */
export function onPaymentNews(handle: (news: PaymentNews) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<PaymentNews>) => handle(event.data);
  return () => channel.close();
}

/** The cart's address for a shopper who cancelled on the payment page. */
export const CANCELLED_PAYMENT_PATH = '/cart?payment=cancelled';
