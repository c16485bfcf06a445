/**
 * The one reminder to a shopper who agreed to it at checkout and left the payment page unpaid (Stripe's
 * session expired; locally, Cancel on the TEST payment page). The database claims it once per order, so a
 * replayed event, a second caller or a later visit sends nothing; a failed send gives the claim back.
 *
 * The link is the shop's own (`/cart?restore=<token>`), also with Stripe: Stripe's recovery URL would open a
 * copy of the expired session, with the old prices and a session id no order of the shop has, for an order
 * that is already cancelled. The shop's link puts the books back in the cart, and checkout prices them again.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { restoreCartUrl } from '../../src/features/cart/restore';
import { checkoutReminderEmail } from './emails';
import type { FulfilmentServices } from './fulfilment';
import { claimCheckoutReminder, getOrderWithItems, releaseCheckoutReminder } from './orders';

/**
 * Sends the order's reminder if this caller claims it; true when it was sent. A failed send is given back and,
 * with `raise`, thrown (the webhook then answers an error and the provider delivers the event again).
 */
export async function remindUnpaidCheckout(
  db: SupabaseClient,
  { email, siteOrigin }: Pick<FulfilmentServices, 'email' | 'siteOrigin'>,
  orderId: string,
  options: { raise?: boolean } = {},
): Promise<boolean> {
  const token = await claimCheckoutReminder(db, orderId);
  if (!token) return false;
  try {
    await email.send(checkoutReminderEmail(await getOrderWithItems(db, orderId), restoreCartUrl(siteOrigin, token)));
    return true;
  } catch (error) {
    await releaseCheckoutReminder(db, orderId);
    console.error(`[checkout reminder] the reminder for ${orderId} failed`, error);
    if (options.raise) throw new Error(`The checkout reminder for order ${orderId} failed; it will be tried again.`, { cause: error });
    return false;
  }
}
