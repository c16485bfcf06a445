/**
 * One cart, one payment page. A cart (the browser's id for it) has at most one unpaid order whose payment page is
 * open: a second Proceed with the same priced cart, address, delivery, code, email and gift gets that page back;
 * anything changed closes the older page at the payment provider and cancels its order before a new one is made.
 * The database is asked, not the browser, so two tabs (or two devices with one cart id) see the same page.
 */
import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { CHECKOUT_MESSAGES } from '../../src/features/checkout/contract';
import type { GiftChoice } from '../../src/features/checkout/gift';
import { CheckoutRejection, type PricedLine } from './checkout';
import { cancelUnpaid } from './orders';
import { markReplaced, type OpenCheckout } from './order-checkouts';
import type { PaymentProvider } from './providers/payments';

/** A page closing within this long is not given back: the shopper would land on a page about to expire. */
const REUSE_MARGIN_MS = 5 * 60 * 1000;

export interface CartKeyInput {
  lines: readonly Pick<PricedLine, 'productId' | 'quantity' | 'unitPrice'>[];
  email: string;
  address: Record<string, string>;
  fullName: string;
  method: { id: string; price: number };
  promotionCode: string | null;
  discount: number;
  gift: GiftChoice;
  reminderConsent: boolean;
}

/** SHA-256 of what an order is priced and written from: equal keys, equal orders. */
export function cartKey(input: CartKeyInput): string {
  const canonical = {
    lines: [...input.lines].map((l) => [l.productId, l.quantity, l.unitPrice]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    email: input.email.trim().toLowerCase(),
    address: Object.keys(input.address)
      .sort()
      .map((k) => [k, input.address[k]]),
    fullName: input.fullName,
    method: [input.method.id, input.method.price],
    code: input.promotionCode,
    discount: input.discount,
    gift: input.gift.isGift ? [input.gift.message, input.gift.hidePrices, input.gift.hideSender === true, input.gift.buyerName ?? ''] : null,
    reminder: input.reminderConsent,
  };
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** The page to give back, if the cart has one open for exactly this key. */
export function reusablePage(open: readonly OpenCheckout[], key: string, now = Date.now()): (OpenCheckout & { sessionId: string; url: string }) | null {
  const page = open.find((o) => o.cartKey === key && o.sessionId && o.url && (!o.expiresAt || Date.parse(o.expiresAt) - now > REUSE_MARGIN_MS));
  return page?.sessionId && page.url ? { ...page, sessionId: page.sessionId, url: page.url } : null;
}

/**
 * Closes the cart's open payment pages other than `keep` and cancels their orders, before a new order is made.
 * The order is marked replaced first (so the provider's expired event sends no reminder), then its page is
 * expired at the provider, then the order is cancelled. A page the provider says was completed meanwhile is
 * paid, or being paid: nothing more is opened for the cart. A page the provider could not close leaves the
 * cart as it is, and the shopper is asked to pay there or try again.
 */
export async function closeOtherPages(db: SupabaseClient, payments: PaymentProvider, open: readonly OpenCheckout[], keep: string | null = null): Promise<void> {
  for (const page of open) {
    if (page.id === keep) continue;
    await markReplaced(db, page.id);
    if (page.sessionId) {
      let status: string;
      try {
        status = (await payments.expireSession(page.sessionId)).status;
      } catch (error) {
        console.error(`[checkout] could not close payment page ${page.sessionId} of order ${page.id}`, error);
        throw new CheckoutRejection(503, CHECKOUT_MESSAGES.cartPageNotClosed);
      }
      if (status === 'complete') throw new CheckoutRejection(409, CHECKOUT_MESSAGES.cartAlreadyPaid);
    }
    await cancelUnpaid(db, page.id);
  }
}
