/**
 * Fulfilment, the one operation both the payment webhook and verify-payment call: the database marks the
 * order paid and takes the stock in one locked transaction (public.fulfil_order), then exactly one caller
 * claims and sends the confirmation email. A payment whose copies sold out first is refunded in full and
 * the shopper told, once. Safe to run twice or concurrently.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { SITE } from '../../src/config/site';
import { formatPrice, orderNumber } from '../../src/lib/format';
import type { EmailProvider, PaymentProvider } from './providers/types';

export interface FulfilmentServices {
  email: EmailProvider;
  payments: PaymentProvider;
}

export type FulfilmentResult = 'fulfilled' | 'already_fulfilled' | 'out_of_stock' | 'cancelled';

interface OrderForEmail {
  id: string;
  customer_email: string;
  customer_name: string;
  total_amount: number;
  shipping_amount: number;
  shipping_method: { name?: string; estimatedDelivery?: string };
  order_items: Array<{ title: string; quantity: number; price_at_time: number }>;
}

async function loadOrderForEmail(db: SupabaseClient, orderId: string): Promise<OrderForEmail> {
  const order = await db.from('orders').select('id, customer_email, customer_name, total_amount, shipping_amount, shipping_method').eq('id', orderId).single();
  if (order.error) throw order.error;
  const items = await db.from('order_items').select('title, quantity, price_at_time').eq('order_id', orderId);
  if (items.error) throw items.error;
  return { ...(order.data as Omit<OrderForEmail, 'order_items'>), order_items: items.data as OrderForEmail['order_items'] };
}

const itemLines = (order: OrderForEmail) => order.order_items.map((i) => `${i.quantity} × ${i.title} — ${formatPrice(i.price_at_time * i.quantity)}`);

export function confirmationEmail(order: OrderForEmail) {
  const number = orderNumber(order.id);
  const lines = itemLines(order);
  return {
    to: order.customer_email,
    subject: `Your order ${number} is confirmed`,
    text: [
      `Hello ${order.customer_name},`,
      '',
      `Thank you for your order ${number}. We have received your payment and are getting it ready.`,
      '',
      ...lines,
      `Shipping (${order.shipping_method.name ?? 'standard'}): ${formatPrice(order.shipping_amount)}`,
      `Total: ${formatPrice(order.total_amount)} AUD`,
      '',
      `Estimated delivery: ${order.shipping_method.estimatedDelivery ?? '5-7 business days'}. We will email your tracking details when it ships.`,
      '',
      `${SITE.name}, Sydney`,
    ].join('\n'),
    idempotencyKey: `order-confirmation-${order.id}`,
  };
}

export function refundEmail(order: OrderForEmail) {
  const number = orderNumber(order.id);
  return {
    to: order.customer_email,
    subject: `Your order ${number} has been refunded`,
    text: [
      `Hello ${order.customer_name},`,
      '',
      `Thank you for your order ${number}. We are sorry: the last copies sold out moments before your payment arrived, so we could not fill it.`,
      '',
      `We have refunded the full ${formatPrice(order.total_amount)} AUD to your card. Banks usually show it within 5-10 business days.`,
      '',
      ...itemLines(order),
      '',
      `Reply to this email, or write to ${SITE.email}, and we will let you know as soon as the book is back in stock.`,
      '',
      `${SITE.name}, Sydney`,
    ].join('\n'),
    idempotencyKey: `order-refund-${order.id}`,
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

export async function fulfilOrder(db: SupabaseClient, services: FulfilmentServices, orderId: string, options: FulfilmentOptions = {}): Promise<FulfilmentResult> {
  const { data, error } = await db.rpc('fulfil_order', { p_order_id: orderId });
  if (error) throw error;
  const result = data as FulfilmentResult;
  if (result === 'fulfilled' || result === 'already_fulfilled') await sendConfirmationOnce(db, services.email, orderId);
  if (result === 'out_of_stock') await refundOnce(db, services, orderId, options.raiseRefundFailure ?? false);
  return result;
}

/**
 * Refunds a sold-out order's payment. The provider's idempotency key makes concurrent callers share one
 * refund; recording it in the database picks the one caller that emails the shopper. A failed refund
 * leaves the order refund_due with no refunded_at, so the next webhook delivery or confirmation visit
 * tries again (and the publisher can see it).
 */
async function refundOnce(db: SupabaseClient, { payments, email }: FulfilmentServices, orderId: string, raise: boolean): Promise<void> {
  const order = await db.from('orders').select('checkout_session_id, refunded_at').eq('id', orderId).single();
  if (order.error) throw order.error;
  if (order.data.refunded_at || !order.data.checkout_session_id) return;
  try {
    const refund = await payments.refundSession(order.data.checkout_session_id as string, { orderId, idempotencyKey: `order-refund-${orderId}` });
    if (refund.status === 'failed' || refund.status === 'canceled') throw new Error(`refund ${refund.id} ${refund.status}`);
    const recorded = await db.rpc('record_refund', { p_order_id: orderId, p_refund_id: refund.id });
    if (recorded.error) throw recorded.error;
    if (recorded.data === true) await email.send(refundEmail(await loadOrderForEmail(db, orderId)));
  } catch (error) {
    console.error(`[fulfilment] refund for sold-out order ${orderId} failed`, error);
    if (raise) throw new Error(`The refund for sold-out order ${orderId} failed; it will be tried again.`, { cause: error });
  }
}

async function sendConfirmationOnce(db: SupabaseClient, email: EmailProvider, orderId: string): Promise<void> {
  const claim = await db.rpc('claim_confirmation_email', { p_order_id: orderId });
  if (claim.error) throw claim.error;
  if (claim.data !== true) return;
  try {
    await email.send(confirmationEmail(await loadOrderForEmail(db, orderId)));
  } catch (error) {
    // Give the claim back so the next webhook retry or confirmation visit sends it.
    await db.from('orders').update({ confirmation_email_sent_at: null }).eq('id', orderId);
    console.error(`[fulfilment] confirmation email for ${orderId} failed`, error);
  }
}
