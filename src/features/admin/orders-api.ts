/** The orders' reads and actions: the lists by view, one order in full, its refunds, labels and the order actions. */
import * as z from '@/lib/zod-mini';
import { DB_OUTCOMES } from '@/lib/db-outcomes';
import { saveFile } from '@/lib/save-file';
import type { AddressInput, OrderActionRequest } from '@/features/staff-actions/order-actions';
import { orderOnAccountSchema } from '@/features/on-account/paperwork';
import { address, maybeText, money, optionalText, type Page, postAsStaff, postForMessage, rpc, rpcPage, text } from './api';

export const ORDER_VIEWS = [
  { id: 'to_pack', label: 'To pack' },
  { id: 'shipped', label: 'Shipped' },
  { id: 'refunds_due', label: 'Refunds due' },
  { id: 'all', label: 'All' },
] as const;
/** What the list asks the database for: a view, or under All the unpaid checkout attempts it leaves out. */
export type OrderView = (typeof ORDER_VIEWS)[number]['id'] | 'unpaid';

const orderBase = {
  id: text,
  /** The order's number from the database (shown with orderNumber()). */
  number: z.number(),
  created_at: text,
  customer_email: text,
  customer_name: text,
  status: text,
  payment_status: text,
  total_amount: money,
  tracking_number: maybeText,
  refunded_at: maybeText,
};
export const orderListItem = z.object({
  ...orderBase,
  delivery_method: maybeText,
  item_count: z.coerce.number(),
  /** Where the parcel goes (ISO code) and whether it is a gift: the packer's list shows both. */
  country: z.optional(text),
  is_gift: z.optional(z.boolean()),
  /** An invoice's order (a school or parish on account): who it is for and their PO number; null on a card order. */
  kind: z.optional(z.enum(['checkout', 'invoice'])),
  organisation: z.optional(maybeText),
  po_number: z.optional(maybeText),
});
export type OrderListItem = z.infer<typeof orderListItem>;

const orderDetail = z.object({
  ...orderBase,
  paid_at: maybeText,
  subtotal_amount: money,
  shipping_amount: money,
  promotion_code: z.optional(maybeText),
  discount_amount: z._default(money, 0),
  shipping_address: address,
  shipping_method: z.looseObject({ name: optionalText }),
  checkout_session_id: maybeText,
  refund_id: maybeText,
  tracking_carrier: maybeText,
  internal_note: z.optional(z.string()),
  delivered_at: z.optional(maybeText),
  shipped_at: z.optional(maybeText),
  is_gift: z.optional(z.boolean()),
  /** Who bought it, as the database names them (orders.bought_by; null when unknown); a gift's customer_name is the recipient's. */
  bought_by: maybeText,
  gift_message: z.optional(maybeText),
  gift_hide_prices: z.optional(z.boolean()),
  gift_hide_sender: z.optional(z.boolean()),
  reminder_consent_at: z.optional(maybeText),
  reminder_sent_at: z.optional(maybeText),
  /** The latest tracking event the shipping platform reported, and when the carrier reported it. */
  tracking_status: z.optional(maybeText),
  tracking_status_at: z.optional(maybeText),
  /** The order at the shipping platform; null until it is sent there (or when no platform is set up). */
  shipment: z.optional(
    z.nullable(
      z.object({
        state: z.enum(['pending', 'sent', 'labelled', 'shipped', 'delivered', 'failed', 'cancelled']),
        platform: text,
        platform_order_id: maybeText,
        attempts: z.number(),
        last_error: maybeText,
        sent_at: maybeText,
        labelled_at: maybeText,
      }),
    ),
  ),
  /** An invoice's order, for the packing slip: the school or parish, their PO number, the invoice's number; null on a card order. */
  kind: z.optional(z.enum(['checkout', 'invoice'])),
  organisation: z.optional(maybeText),
  po_number: z.optional(maybeText),
  invoice_number: z.optional(maybeText),
  invoice_id: z.optional(maybeText),
  /** An order on account's paperwork as it stands (unpaid, due on …, paid on …); null on a card order. */
  account: z.optional(z.nullable(orderOnAccountSchema)),
  /** Packed before the invoice is paid (the publisher's choice). */
  ship_before_payment: z.optional(z.boolean()),
  items: z.array(z.object({ product_id: text, title: text, quantity: z.number(), price_at_time: money })),
  history: z.array(z.object({ action: text, detail: text, actor: text, created_at: text })),
});
export type OrderDetail = z.infer<typeof orderDetail>;

/** One page of a view's orders, newest first; `cursor` is the previous page's `next`. */
export const listOrders = (view: OrderView, search: string, cursor: string | null = null, limit = 50): Promise<Page<OrderListItem>> =>
  rpcPage(orderListItem, 'orders', 'admin_list_orders', { p_view: view, p_search: search, p_cursor: cursor, p_limit: limit }, 'load the orders');
export const getOrder = (orderId: string) => rpc(orderDetail, 'admin_get_order', { p_order_id: orderId }, 'load the order');
export const setOrderNote = (orderId: string, note: string) => rpc(z.boolean(), 'admin_set_order_note', { p_order_id: orderId, p_note: note }, 'save the note');
/** Changes the delivery address on the server, which also changes it at the shipping platform; resolves to the sentence for the publisher. */
export const changeAddress = (orderId: string, address: AddressInput) => runOrderAction({ action: 'change_address', orderId, address });
export const undoDelivered = (orderId: string) => rpc(z.enum(DB_OUTCOMES.admin_undo_delivered), 'admin_undo_delivered', { p_order_id: orderId }, 'undo the delivery');

const orderRefunds = z.object({
  total: money,
  refunded: money,
  pending: money,
  remaining: money,
  refundable: z.boolean(),
  parts: z.array(z.object({ amount: money, reason: text, status: z.enum(['pending', 'succeeded', 'failed']), provider_refund_id: maybeText, actor: text, created_at: text })),
});
export type OrderRefunds = z.infer<typeof orderRefunds>;
export const getOrderRefunds = (orderId: string) => rpc(orderRefunds, 'admin_order_refunds', { p_order_id: orderId }, 'load the refunds');

/** The most orders one admin_get_orders call answers. */
const ORDERS_PER_CALL = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Many orders in full, in calls of up to 500, in the order asked (what is not an order's id is left out; an order
 * the database does not know fails the call with its number).
 */
export async function getOrders(orderIds: readonly string[]): Promise<OrderDetail[]> {
  const ids = orderIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
  const calls: Promise<OrderDetail[]>[] = [];
  for (let i = 0; i < ids.length; i += ORDERS_PER_CALL) calls.push(rpc(z.array(orderDetail), 'admin_get_orders', { p_order_ids: ids.slice(i, i + ORDERS_PER_CALL) }, 'load the orders'));
  return (await Promise.all(calls)).flat();
}

/** Runs an order action on the server; resolves to its message, or throws one. */
export const runOrderAction = (request: OrderActionRequest) => postForMessage('/api/admin-order', request);

const labelsAnswer = z.object({ message: text, pdf: text, fileName: text });
/**
 * Prints labels at the shipping platform (one order's, or every order to pack) and saves them as one PDF, one label
 * a page; each printed label has shipped its order. Resolves to the sentence for the publisher.
 */
export async function printLabels(request: { orderIds: string[] } | { toPack: true }): Promise<string> {
  const answer = labelsAnswer.parse(await postAsStaff('/api/admin-labels', request));
  const bytes = Uint8Array.from(atob(answer.pdf), (c) => c.charCodeAt(0));
  saveFile([bytes], answer.fileName, 'application/pdf');
  return answer.message;
}
