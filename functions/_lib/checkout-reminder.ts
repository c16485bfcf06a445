/**
 * The one reminder to a shopper who agreed to it at checkout and left the payment page unpaid (Stripe's
 * session expired; locally, Cancel on the TEST payment page). The database claims it once per order, so a
 * replayed event, a second caller or a later visit sends nothing; a failed send gives the claim back.
 *
 * The link is the shop's own (`/cart?restore=<token>`), also with Stripe: Stripe's recovery URL would open a
 * copy of the expired session, with the old prices and a session id no order of the shop has, for an order
 * that is already cancelled. The shop's link puts the books back in the cart, and checkout prices them again.
 *
 * It is marketing email: it carries a one-click unsubscribe, and an address that unsubscribed from any of the
 * shop's marketing email is never reminded (the claim refuses it).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { readServerEnv } from '../../src/config/env';
import { restoreCartUrl } from '../../src/features/cart/restore';
import { checkoutReminderEmail } from './marketing-emails';
import type { FulfilmentServices } from './fulfilment';
import { listUnsubscribeHeaders, marketingIdentity, signMailLink, unsubscribePageUrl } from './mail-links';
import { getOrderWithItems } from './orders';
import { claimCheckoutReminder, releaseCheckoutReminder } from './order-checkouts';

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
    const order = await getOrderWithItems(db, orderId);
    const { secret, postalAddress } = marketingIdentity(readServerEnv(), siteOrigin);
    const unsubscribe = await signMailLink(secret, { kind: 'reminder-unsubscribe', email: order.customerEmail });
    await email.send(
      checkoutReminderEmail(order, restoreCartUrl(siteOrigin, token), {
        pageUrl: unsubscribePageUrl(siteOrigin, unsubscribe),
        headers: listUnsubscribeHeaders(siteOrigin, unsubscribe),
        postalAddress,
      }),
    );
    return true;
  } catch (error) {
    await releaseCheckoutReminder(db, orderId);
    console.error(`[checkout reminder] the reminder for ${orderId} failed`, error);
    if (options.raise) throw new Error(`The checkout reminder for order ${orderId} failed; it will be tried again.`, { cause: error });
    return false;
  }
}
