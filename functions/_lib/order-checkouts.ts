/**
 * An unpaid order's payment pages and its one reminder: the session linked to the order, the cart's pages still
 * open (closed when a newer checkout of the cart replaces them), and the reminder's claim and recovery token.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { CHECKOUT_REMINDER } from '../../src/config/constants';
import { getOrderItems } from './orders';
import { rpc } from './supabase-admin';

/**
 * Links the payment session to its order, with when its page closes (an unpaid order holds its code's use until
 * then) and its address (given back to a second Proceed of the same cart); the same link twice is fine. False
 * when the order is linked to another session, or is no longer unpaid (a newer checkout of its cart replaced it).
 */
export function linkCheckoutSession(db: SupabaseClient, orderId: string, session: { id: string; url: string; expiresAt: string | null }): Promise<boolean> {
  return rpc(db, 'link_checkout_session', { p_order_id: orderId, p_session_id: session.id, p_expires_at: session.expiresAt, p_url: session.url }, z.boolean());
}

const openCheckoutSchema = z
  .object({ id: z.string(), cart_key: z.string().nullable(), checkout_session_id: z.string().nullable(), checkout_url: z.string().nullable(), checkout_expires_at: z.string().nullable() })
  .transform((row) => ({ id: row.id, cartKey: row.cart_key, sessionId: row.checkout_session_id, url: row.checkout_url, expiresAt: row.checkout_expires_at }));
export type OpenCheckout = z.output<typeof openCheckoutSchema>;

/** The cart's unpaid orders whose payment page may still be open (never cancelled, not past their expiry). */
export async function openCheckoutsOfCart(db: SupabaseClient, cartId: string): Promise<OpenCheckout[]> {
  const { data, error } = await db
    .from('orders')
    .select('id, cart_key, checkout_session_id, checkout_url, checkout_expires_at')
    .eq('cart_id', cartId)
    .eq('payment_status', 'unpaid')
    .neq('status', 'cancelled')
    .order('created_at');
  if (error) throw error;
  const now = Date.now();
  return z
    .array(openCheckoutSchema)
    .parse(data)
    .filter((page) => !page.expiresAt || Date.parse(page.expiresAt) > now);
}

/** Marks an order's payment page as closed by a newer checkout of its cart, before the page is expired (no reminder follows). */
export async function markReplaced(db: SupabaseClient, orderId: string): Promise<void> {
  const { error } = await db.from('orders').update({ replaced_at: new Date().toISOString() }).eq('id', orderId).eq('payment_status', 'unpaid');
  if (error) throw error;
}

/**
 * Claims the one reminder of an order left unpaid: the recovery token for the reminder's link to the one
 * caller that claims it; null when the shopper did not agree, it was sent already, the order was paid, they
 * have placed a newer order since, or their address was sent a reminder for another order lately.
 */
export function claimCheckoutReminder(db: SupabaseClient, orderId: string): Promise<string | null> {
  return rpc(
    db,
    'claim_checkout_reminder',
    { p_order_id: orderId, p_once_within_days: CHECKOUT_REMINDER.oncePerAddressWithinDays },
    z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
  );
}

/** Gives a reminder's claim back after its send failed, so a redelivered event can send it. */
export async function releaseCheckoutReminder(db: SupabaseClient, orderId: string): Promise<void> {
  const { error } = await db.from('orders').update({ reminder_sent_at: null }).eq('id', orderId);
  if (error) throw error;
}

/** The lines of the order behind a reminder's recovery token, or null for a token no order has. */
export async function findLinesByRecoveryToken(db: SupabaseClient, token: string): Promise<Array<{ productId: string; quantity: number }> | null> {
  const { data, error } = await db.from('orders').select('id').eq('recovery_token', token).maybeSingle();
  if (error) throw error;
  if (!data) return null;
  const items = await getOrderItems(db, z.object({ id: z.string() }).parse(data).id);
  return items.map((item) => ({ productId: item.productId, quantity: item.quantity }));
}
