/**
 * Fulfilment, the one operation the payment webhook, verify-payment and the TEST payment page all call: the
 * database marks the order paid and takes the stock in one locked transaction, then exactly one caller
 * claims and sends the confirmation email. A payment whose copies sold out first is refunded in full and
 * the shopper told, once; so is a second payment for one cart (two of its payment pages paid), and the
 * publisher is told of that too. Safe to run twice or concurrently.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { CURRENCY } from '../../src/config/constants';
import { SITE } from '../../src/config/site';
import type { ServerEnv } from '../../src/config/env';
import { toCents } from '../../src/lib/money';
import { confirmationEmail, duplicatePaymentNotice, newOrderNotice, refundEmail } from './emails';
import { adoptPayerName, claimEmail, fulfil, getOrder, getOrderWithItems, recordRefund, releaseEmail, type FulfilmentResult, type Order, type OrderEmail, type OrderWithItems } from './orders';
import { purgeLiveCatalog } from './live-catalog';
import { sendLowStockNoticeOnce } from './stock';
import type { CdnCache } from './providers/cdn-cache';
import { selectCdnCache, selectEmailProvider, selectPaymentProvider, selectShippingPlatform } from './providers/select';
import type { ShippingPlatform } from './providers/shipping-platform';
import { retryShipments, sendToPlatformOnce } from './shipments';
import type { EmailMessage, EmailProvider } from './providers/email';
import type { PaymentProvider, PaymentSession } from './providers/payments';
import { sellerIdentity } from './tax-invoice';
import type { Seller } from '../../src/features/tax-invoice/tax-invoice';
import { siteOrigin } from './runtime';

export type { FulfilmentResult };

export interface FulfilmentServices {
  email: EmailProvider;
  payments: PaymentProvider;
  /** The site's origin, for the links in emails (the order status page, the back office). */
  siteOrigin: string;
  /** The publisher's address (NOTIFY_EMAIL_TO, else the site's contact address): told of every paid order. */
  notifyTo?: string;
  /** The CDN's cache of the live price and stock, purged when a sale takes stock. */
  cdn?: CdnCache;
  /** The seller the tax invoices name (SHOP_LEGAL_NAME, SHOP_ABN); without one, emails carry no tax invoice. */
  seller?: Seller | null;
  /** The shipping platform each order to pack is sent to once; null or unset: none is configured, labels are typed by hand. */
  shipping?: ShippingPlatform | null;
}

/** Where the publisher's notices go: NOTIFY_EMAIL_TO, else the sender, else the publisher's public address. */
export function notificationRecipient(env: ServerEnv): string {
  return env.NOTIFY_EMAIL_TO || env.EMAIL_FROM || SITE.email;
}

/** The services for a request: the configured providers, the site's origin, the publisher's address (notificationRecipient). */
export function fulfilmentServices(env: ServerEnv, request: Request, payments: PaymentProvider = selectPaymentProvider(env)): FulfilmentServices {
  return {
    email: selectEmailProvider(env),
    payments,
    siteOrigin: siteOrigin(env, request),
    notifyTo: notificationRecipient(env),
    cdn: selectCdnCache(env),
    seller: sellerIdentity(env),
    shipping: selectShippingPlatform(env),
  };
}

export interface FulfilmentOptions {
  /**
   * Throw when a sold-out order's refund fails, instead of only logging it. The webhook sets it so the
   * event is not recorded and the payment provider delivers it again later; the shopper's confirmation
   * page does not, so the shopper is still told what happened.
   */
  raiseRefundFailure?: boolean;
}

/** What the shopper is told about a payment: the session's own state until fulfilment says more. */
export type PaymentOutcome = 'paid' | 'refund_due' | 'code_used_up' | 'duplicate' | 'cancelled' | PaymentSession['paymentStatus'];

const OUTCOME_OF_FULFILMENT: Record<FulfilmentResult, PaymentOutcome> = {
  fulfilled: 'paid',
  already_fulfilled: 'paid',
  out_of_stock: 'refund_due',
  // Refund due too: the code's last use went to another payment first.
  code_used_up: 'code_used_up',
  cancelled: 'cancelled',
  // Refund due too, for a reason of its own: the cart's other order stands.
  duplicate: 'duplicate',
};

/**
 * Why a paid session must not fulfil this order, or null when it may: the session must be the one the shop
 * stored for the order, and it must have charged the order's total in the order's currency.
 */
function paymentMismatch(order: Order, session: PaymentSession): string | null {
  if (order.checkoutSessionId !== session.id) return `session ${session.id} is not the one stored for order ${order.id}`;
  if (session.amountTotalCents !== null && session.amountTotalCents !== toCents(order.total)) {
    return `session ${session.id} charged ${session.amountTotalCents} cents, order ${order.id} totals ${toCents(order.total)}`;
  }
  if (session.currency !== null && session.currency.toUpperCase() !== (order.currency || CURRENCY)) {
    return `session ${session.id} charged in ${session.currency}, order ${order.id} is in ${order.currency}`;
  }
  return null;
}

export async function fulfilOrder(db: SupabaseClient, services: FulfilmentServices, orderId: string, options: FulfilmentOptions = {}): Promise<FulfilmentResult> {
  const result = await fulfil(db, orderId);
  // This call took the stock: the cached live stock (and whether a book shows as in stock) is out of date.
  if (result === 'fulfilled') await purgeLiveCatalog(services.cdn, `the sale of order ${orderId}`);
  if (result === 'fulfilled' || result === 'already_fulfilled') {
    await sendOrderEmailOnce(db, services, orderId, 'confirmation', confirmationEmail);
    const { notifyTo } = services;
    if (notifyTo) await sendOrderEmailOnce(db, services, orderId, 'publisher', (order, origin) => newOrderNotice(order, notifyTo, origin));
    await sendLowStockNoticeOnce(db, services, orderId);
    // Last, after everything the payment path owes the shopper.
    await sendToShippingPlatform(db, services, orderId);
  }
  if (result === 'out_of_stock' || result === 'code_used_up' || result === 'duplicate') {
    await refundOnce(db, services.payments, orderId, options.raiseRefundFailure ?? false);
    await sendOrderEmailOnce(db, services, orderId, 'refund', refundEmail);
  }
  // A second payment for one cart: the publisher hears of it, with the order kept, as the shopper does.
  if (result === 'duplicate' && services.notifyTo) {
    const { notifyTo } = services;
    await sendOrderEmailOnce(db, services, orderId, 'publisher', (order, origin) => duplicatePaymentNotice(order, notifyTo, origin));
  }
  return result;
}

/**
 * Sends an order that became to pack to the shipping platform, whichever way it was paid: fulfilment's card orders,
 * an invoice's order when paid or when it is packed before payment. An order not to pack is left alone (the
 * database says so); a platform failure is recorded and retried, never thrown.
 */
export async function sendToShippingPlatform(db: SupabaseClient, services: Pick<FulfilmentServices, 'shipping'>, orderId: string): Promise<void> {
  if (!services.shipping) return;
  const sent = await sendToPlatformOnce(db, services.shipping, orderId);
  // Others waiting are retried only while the platform answers, so a platform that is down costs one deadline.
  if (sent.outcome !== 'failed') await retryShipments(db, services.shipping, 2);
}

/**
 * Fulfils the order behind a paid session after checking the session belongs to it and charged its total;
 * a mismatch is logged and fulfils nothing.
 */
export async function fulfilPaidSession(db: SupabaseClient, services: FulfilmentServices, order: Order, session: PaymentSession, options: FulfilmentOptions = {}): Promise<PaymentOutcome> {
  if (session.paymentStatus === 'unpaid') return 'unpaid';
  const mismatch = paymentMismatch(order, session);
  if (mismatch) {
    console.error(`[fulfilment] not fulfilling: ${mismatch}`);
    return 'unpaid';
  }
  // Before the emails go: they greet the buyer by name, and the packing slip needs one.
  await adoptPayerName(db, order, session.payerName);
  return OUTCOME_OF_FULFILMENT[await fulfilOrder(db, services, order.id, options)];
}

/**
 * Refunds a sold-out order's payment. The provider's idempotency key makes concurrent callers share one
 * refund, and the database records it once. A failed refund leaves the order refund_due with no
 * refunded_at, so the next webhook delivery or confirmation visit tries again (and the publisher can see it).
 */
async function refundOnce(db: SupabaseClient, payments: PaymentProvider, orderId: string, raise: boolean): Promise<void> {
  const order = await getOrder(db, orderId);
  if (!order || order.refundedAt || !order.checkoutSessionId) return;
  const what = order.duplicateOf ? 'second payment of a cart,' : order.codeUsedUp ? 'code-used-up' : 'sold-out';
  try {
    await refundInFull(db, payments, order);
  } catch (error) {
    console.error(`[fulfilment] refund for ${what} order ${orderId} failed`, error);
    if (raise) throw new Error(`The refund for ${what} order ${orderId} failed; it will be tried again.`, { cause: error });
  }
}

/**
 * Refunds a refund-due order's payment in full through the provider and records it. The idempotency key is
 * the order's, so the order is never refunded twice whoever asks (fulfilment or the publisher). Throws when
 * the provider refuses; answers the refund id and whether this caller recorded it.
 */
export async function refundInFull(db: SupabaseClient, payments: PaymentProvider, order: Order): Promise<{ refundId: string; recorded: boolean }> {
  if (!order.checkoutSessionId) throw new Error('the order has no payment session');
  const refund = await payments.refundSession(order.checkoutSessionId, { orderId: order.id, idempotencyKey: `order-refund-${order.id}` });
  if (refund.status === 'failed' || refund.status === 'canceled') throw new Error(`refund ${refund.id} ${refund.status}`);
  return { refundId: refund.id, recorded: await recordRefund(db, order.id, refund.id) };
}

/**
 * Sends one of an order's once-only emails: the one caller that claims it sends it, and gives the claim back
 * when the send fails, so the next webhook retry or confirmation visit sends it instead. True when it was sent.
 */
export async function sendOrderEmailOnce(
  db: SupabaseClient,
  { email, siteOrigin, seller }: Pick<FulfilmentServices, 'email' | 'siteOrigin' | 'seller'>,
  orderId: string,
  kind: OrderEmail,
  compose: (order: OrderWithItems, siteOrigin: string, seller?: Seller | null) => EmailMessage,
): Promise<boolean> {
  if (!(await claimEmail(db, orderId, kind))) return false;
  try {
    await email.send(compose(await getOrderWithItems(db, orderId), siteOrigin, seller));
    return true;
  } catch (error) {
    await releaseEmail(db, orderId, kind);
    console.error(`[fulfilment] ${kind} email for ${orderId} failed`, error);
    return false;
  }
}
