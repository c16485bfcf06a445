/**
 * Order history: the signed-in user's orders, newest first, then their items by order id. RLS returns only the
 * user's own rows. Guest orders placed with the account's confirmed address join it first; checkout attempts
 * that were never paid are not orders and are left out.
 */
import { getSupabase } from '@/lib/supabase/client';

export interface OrderSummary {
  id: string;
  /** The order's number from the database (shown with orderNumber()). */
  number: number;
  createdAt: string;
  status: string;
  total: number;
  itemCount: number;
  /** Opens the order's status page (items, delivery method, tracking). */
  statusToken: string;
  /** The latest tracking event the carrier reported, and when; null before the parcel is tracked. */
  latestTracking: { status: string; at: string } | null;
}

export class OrderHistoryError extends Error {}

/** Orders the shopper paid for (a refund may be due or made); unpaid and expired checkouts are not listed. */
const PLACED_ORDER_PAYMENT_STATES = ['paid', 'refund_due'];

export async function getOrderHistory(userId: string): Promise<OrderSummary[]> {
  const supabase = await getSupabase();
  const joined = await supabase.rpc('claim_guest_orders');
  // The history still loads without them; the next visit tries again.
  if (joined.error) console.error('Failed to join guest orders', joined.error);
  const orders = await supabase
    .from('orders')
    .select('id, number, created_at, status, total_amount, payment_status, shipping_address, status_token, tracking_status, tracking_status_at')
    .eq('user_id', userId)
    .in('payment_status', PLACED_ORDER_PAYMENT_STATES)
    .order('created_at', { ascending: false });
  if (orders.error) throw new OrderHistoryError('Failed to load orders');
  if (orders.data.length === 0) return [];

  const items = await supabase
    .from('order_items')
    .select('order_id, quantity')
    .in(
      'order_id',
      orders.data.map((o) => o.id),
    );
  if (items.error) throw new OrderHistoryError('Failed to load order items');

  const counts = new Map<string, number>();
  for (const item of items.data) counts.set(item.order_id, (counts.get(item.order_id) ?? 0) + item.quantity);
  return orders.data.map((o) => ({
    id: o.id,
    number: o.number,
    createdAt: o.created_at,
    status: o.status,
    total: Number(o.total_amount),
    itemCount: counts.get(o.id) ?? 0,
    statusToken: o.status_token,
    latestTracking: o.tracking_status && o.tracking_status_at ? { status: o.tracking_status, at: o.tracking_status_at } : null,
  }));
}

/** Badge colours by status: completed green, processing blue, shipped purple, pending yellow, cancelled red, else grey. */
const BADGE_CLASS: Record<string, string> = {
  completed: 'bg-green-100 text-green-900',
  processing: 'bg-blue-100 text-blue-900',
  shipped: 'bg-purple-100 text-purple-900',
  pending: 'bg-yellow-100 text-yellow-900',
  cancelled: 'bg-red-100 text-red-900',
};
export const statusBadgeClass = (status: string) => (Object.hasOwn(BADGE_CLASS, status) ? BADGE_CLASS[status]! : 'bg-slate-100 text-slate-800');
