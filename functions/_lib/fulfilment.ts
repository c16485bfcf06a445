/**
 * Fulfilment, the one operation both the payment webhook and verify-payment call: the database marks the
 * order paid and takes the stock in one locked transaction (public.fulfil_order), then exactly one caller
 * claims and sends the confirmation email. Safe to run twice or concurrently.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { formatPrice, orderNumber } from '../../src/lib/format';
import type { EmailProvider } from './providers/types';

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

export function confirmationEmail(order: OrderForEmail) {
  const number = orderNumber(order.id);
  const lines = order.order_items.map((i) => `${i.quantity} × ${i.title} — ${formatPrice(i.price_at_time * i.quantity)}`);
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
      'Awesome Catholic Kids, Sydney',
    ].join('\n'),
    idempotencyKey: `order-confirmation-${order.id}`,
  };
}

export async function fulfilOrder(db: SupabaseClient, email: EmailProvider, orderId: string): Promise<FulfilmentResult> {
  const { data, error } = await db.rpc('fulfil_order', { p_order_id: orderId });
  if (error) throw error;
  const result = data as FulfilmentResult;
  if (result === 'fulfilled' || result === 'already_fulfilled') await sendConfirmationOnce(db, email, orderId);
  return result;
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
