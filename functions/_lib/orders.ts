/**
 * The functions' access to orders and their items: every read and write of `orders`/`order_items` goes
 * through here, and rows come back as typed objects (checked with zod, in dollars as the database keeps
 * them), never as casts. The stateful steps (fulfil, cancel, claims) are database functions that lock the
 * order row, so concurrent callers agree.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { LIMITS } from '../../src/config/constants';
import type { GiftChoice } from '../../src/features/checkout/gift';
import { DB_OUTCOMES, type DbOutcome } from '../../src/lib/db-outcomes';
import { orderNumber } from '../../src/lib/format';
import { type OrderOnAccount, orderOnAccountSchema } from '../../src/features/on-account/paperwork';
import { sumDollars } from '../../src/lib/money';
import { toSingleLine } from '../../src/lib/text';
import { promotionCodeRefusal } from './promotion-codes';
import { type PreorderTitle, preorderTitles } from './live-catalog';
import { rpc } from './supabase-admin';

const money = z.coerce.number().nonnegative();

const shippingMethodSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  carrier: z.string().optional(),
  price: z.coerce.number().optional(),
  estimatedDelivery: z.string().optional(),
});
type OrderShippingMethod = z.infer<typeof shippingMethodSchema>;

const orderRow = z.object({
  id: z.string(),
  number: z.number().int(),
  created_at: z.string(),
  status: z.string(),
  payment_status: z.string(),
  customer_email: z.string(),
  customer_name: z.string(),
  currency: z.string(),
  subtotal_amount: money,
  shipping_amount: money,
  total_amount: money,
  shipping_address: z.record(z.string(), z.unknown()),
  shipping_method: shippingMethodSchema,
  payment_provider: z.string(),
  checkout_session_id: z.string().nullable(),
  refund_id: z.string().nullable(),
  refunded_at: z.string().nullable(),
  status_token: z.string(),
  tracking_number: z.string().nullable(),
  tracking_carrier: z.string().nullable(),
  fulfilled_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  is_gift: z.boolean(),
  gift_message: z.string().nullable(),
  gift_hide_prices: z.boolean(),
  gift_hide_sender: z.boolean(),
  reminder_consent_at: z.string().nullable(),
  reminder_sent_at: z.string().nullable(),
  promotion_code: z.string().nullable(),
  discount_amount: money,
  checkout_expires_at: z.string().nullable(),
  bought_by: z.string().nullable(),
  paid_at: z.string().nullable(),
  cart_id: z.string().nullable(),
  replaced_at: z.string().nullable(),
  duplicate_of: z.string().nullable(),
  code_used_up: z.boolean(),
  tracking_status: z.string().nullish(),
  tracking_status_at: z.string().nullish(),
});
// The columns read are the row's fields, so the two never drift apart.
const ORDER_COLUMNS = Object.keys(orderRow.shape).join(', ');
const orderRowSchema = orderRow.transform((row) => ({
  id: row.id,
  /** The order's number as the buyer and the platform read it ("1001"). */
  number: orderNumber(row.number),
  createdAt: row.created_at,
  status: row.status,
  paymentStatus: row.payment_status,
  customerEmail: row.customer_email,
  customerName: row.customer_name,
  currency: row.currency,
  subtotal: row.subtotal_amount,
  shippingAmount: row.shipping_amount,
  total: row.total_amount,
  shippingAddress: row.shipping_address,
  shippingMethod: row.shipping_method,
  paymentProvider: row.payment_provider,
  checkoutSessionId: row.checkout_session_id,
  refundId: row.refund_id,
  refundedAt: row.refunded_at,
  /** The key to the shopper's order status page. */
  statusToken: row.status_token,
  trackingNumber: row.tracking_number,
  trackingCarrier: row.tracking_carrier,
  fulfilledAt: row.fulfilled_at,
  /** Set when the publisher cancelled the paid order (its refund then follows). */
  cancelledAt: row.cancelled_at,
  /** A gift: the delivery name is the recipient's, the email the buyer's. Null when the order is not a gift. */
  gift: row.is_gift ? { message: row.gift_message ?? '', hidePrices: row.gift_hide_prices, hideSender: row.gift_hide_sender } : null,
  /** When the shopper agreed to one reminder if they left the payment page unpaid; null when they did not. */
  reminderConsentAt: row.reminder_consent_at,
  reminderSentAt: row.reminder_sent_at,
  /** The promotion code the order used, and what it took off the goods (0 without one). */
  promotionCode: row.promotion_code,
  discount: row.discount_amount,
  /** When the payment page closes: until then the cart has no other payment page. */
  checkoutExpiresAt: row.checkout_expires_at,
  /** When the payment arrived: the tax invoice's date. */
  paidAt: row.paid_at,
  /** Who bought it, as the database names them (orders.bought_by, public.order_buyer_name); null when unknown. */
  buyerName: row.bought_by,
  /** The browser's cart the order was made from (one cart, one open payment page). */
  cartId: row.cart_id,
  /** When a newer checkout of the same cart closed this order's payment page. */
  replacedAt: row.replaced_at,
  /** A second payment for one cart: the paid order it was refunded for. */
  duplicateOf: row.duplicate_of,
  /** Paid, but its promotion code's last use went to another payment first: refunded in full. */
  codeUsedUp: row.code_used_up,
  /** The latest tracking event the shipping platform reported ("In transit") and when the carrier reported it. */
  trackingStatus: row.tracking_status ?? null,
  trackingStatusAt: row.tracking_status_at ?? null,
}));
export type Order = z.output<typeof orderRowSchema>;

const itemRowSchema = z
  .object({ product_id: z.string(), title: z.string(), quantity: z.number().int(), price_at_time: money })
  .transform((row) => ({ productId: row.product_id, title: row.title, quantity: row.quantity, unitPrice: row.price_at_time }));
export type OrderItem = z.output<typeof itemRowSchema>;

export interface OrderWithItems extends Order {
  items: OrderItem[];
  /** A second payment for one cart: the number of the paid order it was refunded for. */
  duplicateOfNumber: string | null;
  /** What was paid back in part refunds before any refund in full (which then returns only the rest). */
  refundedInParts: number;
  /** The GST in the total and in each refund, by the database's one rule (order_tax_figures). */
  tax: TaxFigures;
  /** An order on account's paperwork as it stands (its invoice, PO number, due or paid day); null for a card order. */
  account: OrderOnAccount | null;
  /** Its titles still on pre-order, latest release first: the whole order ships when the last is out. */
  preorders?: PreorderTitle[];
}

const taxFiguresSchema = z
  .object({
    gst_applies: z.boolean(),
    gst: money,
    refunds: z.array(z.object({ amount: money, gst: money, at: z.string().nullable(), refund_id: z.string().nullable(), reason: z.string() })),
  })
  .transform((row) => ({
    gstApplies: row.gst_applies,
    gst: row.gst,
    refunds: row.refunds.map((r) => ({ amount: r.amount, gst: r.gst, date: r.at, refundId: r.refund_id, reason: r.reason })),
  }));
type TaxFigures = z.output<typeof taxFiguresSchema>;

/** The GST in an order's total and in each refund that went through. */
async function taxFigures(db: SupabaseClient, orderId: string): Promise<TaxFigures> {
  // Null for an order that does not exist: getOrderWithItems says so.
  return (await rpc(db, 'order_tax_figures', { p_order_id: orderId }, taxFiguresSchema.nullable())) ?? { gstApplies: false, gst: 0, refunds: [] };
}

async function onAccount(db: SupabaseClient, orderId: string): Promise<OrderOnAccount | null> {
  const raw = await rpc(db, 'order_on_account', { p_order_id: orderId }, z.unknown());
  return raw == null ? null : orderOnAccountSchema.parse(raw);
}

/** What checkout writes: the order and its lines, priced from the database. */
export interface NewOrder {
  userId: string | null;
  customerEmail: string;
  customerName: string;
  subtotal: number;
  /** The promotion code applied (create_order checks it again and takes a use), and what it takes off the goods. */
  promotionCode?: string | null;
  discount?: number;
  shippingAmount: number;
  total: number;
  shippingAddress: Record<string, string>;
  shippingMethod: Required<Pick<OrderShippingMethod, 'id' | 'name' | 'carrier' | 'price'>> & { estimatedDelivery?: string };
  paymentProvider: string;
  items: OrderItem[];
  /** The browser's cart, and the hash of what the order was priced from (see `cartKey`); absent for a caller without one. */
  cartId?: string | null;
  cartKey?: string | null;
}

/** Fulfilment's outcome, from the database function that takes the stock. */
export type FulfilmentResult = DbOutcome<'fulfil_order'>;

/**
 * Writes the order and its items in one transaction; answers the new order's id. A promotion code the database
 * refuses (used up meanwhile by another order) throws PromotionCodeRefused.
 */
export async function createOrder(db: SupabaseClient, order: NewOrder): Promise<string> {
  const { data, error } = await db.rpc('create_order', {
    p_order: {
      user_id: order.userId,
      customer_email: order.customerEmail,
      customer_name: order.customerName,
      subtotal_amount: order.subtotal,
      shipping_amount: order.shippingAmount,
      total_amount: order.total,
      shipping_address: order.shippingAddress,
      shipping_method: order.shippingMethod,
      payment_provider: order.paymentProvider,
      promotion_code: order.promotionCode ?? null,
      discount_amount: order.discount ?? 0,
      cart_id: order.cartId ?? null,
      cart_key: order.cartKey ?? null,
    },
    p_items: order.items.map((item) => ({ product_id: item.productId, title: item.title, quantity: item.quantity, price_at_time: item.unitPrice })),
  });
  if (error) {
    if (error.hint === 'cart_checkout_open') throw new CartCheckoutOpen();
    throw promotionCodeRefusal(error) ?? error;
  }
  return z.uuid().parse(data);
}

/** create_order refused: another checkout of the same cart wrote its order a moment ago and its page is open. */
export class CartCheckoutOpen extends Error {
  constructor() {
    super('Another checkout of this cart is open.');
  }
}

/**
 * What the shopper chose at checkout beyond the cart and the address: the gift details and the reminder
 * consent (with its time). Written once, before the order has a payment session; the database checks the
 * message again.
 */
export async function recordCheckoutChoices(db: SupabaseClient, orderId: string, choices: { gift: GiftChoice; reminderConsent: boolean }): Promise<void> {
  const { gift, reminderConsent } = choices;
  if (!gift.isGift && !reminderConsent) return;
  const { error } = await db
    .from('orders')
    .update({
      is_gift: gift.isGift,
      gift_message: gift.isGift && gift.message ? gift.message : null,
      gift_hide_prices: gift.isGift && gift.hidePrices,
      gift_hide_sender: gift.isGift && gift.hideSender === true,
      // A gift's delivery name is the recipient's: the buyer's own name, when they gave it, is kept apart.
      ...(gift.isGift && gift.buyerName && { buyer_name: gift.buyerName }),
      reminder_consent_at: reminderConsent ? new Date().toISOString() : null,
    })
    .eq('id', orderId)
    .is('checkout_session_id', null);
  if (error) throw error;
}

/** The name create_order stores when the shopper left theirs out (the database's default). */
const GUEST_CUSTOMER_NAME = 'Guest Customer';

/**
 * Keeps the name the payer gave the payment page as the buyer's (the first one given stays). A parcel also needs
 * an addressee: an order placed with the delivery name left out takes it too. A name the shopper typed is never
 * replaced, and a gift's delivery name stays the recipient's.
 */
export async function adoptPayerName(db: SupabaseClient, order: Pick<Order, 'id' | 'customerName'>, payerName: string | null | undefined): Promise<void> {
  const name = toSingleLine(payerName ?? '').slice(0, LIMITS.nameMaxLength);
  if (!name) return;
  // The database checks both again, so a concurrent call changes nothing twice.
  const { error } = await db.from('orders').update({ buyer_name: name }).eq('id', order.id).is('buyer_name', null);
  if (error) throw error;
  if (order.customerName !== GUEST_CUSTOMER_NAME) return;
  const adopted = await db.from('orders').update({ customer_name: name }).eq('id', order.id).eq('customer_name', GUEST_CUSTOMER_NAME);
  if (adopted.error) throw adopted.error;
}

/** The order whose `column` is `value`, or null. */
async function findOrder(db: SupabaseClient, column: 'id' | 'status_token' | 'checkout_session_id', value: string): Promise<Order | null> {
  const { data, error } = await db.from('orders').select(ORDER_COLUMNS).eq(column, value).maybeSingle();
  if (error) throw error;
  return data ? orderRowSchema.parse(data) : null;
}

export const getOrder = (db: SupabaseClient, orderId: string) => findOrder(db, 'id', orderId);
/** A request naming an order by its status-page token (the status page's, the buyer's own cancel). */
export const statusTokenBody = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{64}$/, 'That order link is not complete. Open it again from your email.'),
});

/** The order behind a status-page token, or null. */
export const findOrderByStatusToken = (db: SupabaseClient, token: string) => findOrder(db, 'status_token', token);
/** The order the shop created for this payment session, or null for a session the shop did not create. */
export const findOrderBySession = (db: SupabaseClient, sessionId: string) => findOrder(db, 'checkout_session_id', sessionId);

export async function getOrderItems(db: SupabaseClient, orderId: string): Promise<OrderItem[]> {
  const { data, error } = await db.from('order_items').select('product_id, title, quantity, price_at_time').eq('order_id', orderId).order('title');
  if (error) throw error;
  return z.array(itemRowSchema).parse(data);
}

/** The part refunds that went through on an order, in dollars. */
async function refundedInParts(db: SupabaseClient, orderId: string): Promise<number> {
  const { data, error } = await db.from('order_refunds').select('amount').eq('order_id', orderId).eq('status', 'succeeded');
  if (error) throw error;
  return sumDollars(
    ...z
      .array(z.object({ amount: z.coerce.number() }))
      .parse(data)
      .map((r) => r.amount),
  );
}

export async function getOrderWithItems(db: SupabaseClient, orderId: string): Promise<OrderWithItems> {
  const [order, items, parts, tax, account] = await Promise.all([getOrder(db, orderId), getOrderItems(db, orderId), refundedInParts(db, orderId), taxFigures(db, orderId), onAccount(db, orderId)]);
  if (!order) throw new Error(`Order ${orderId} not found.`);
  const duplicateOfNumber = order.duplicateOf ? await getOrderNumber(db, order.duplicateOf) : null;
  const preorders =
    order.status === 'preorder'
      ? await preorderTitles(
          db,
          items.map((item) => item.productId),
        )
      : [];
  return { ...order, items, refundedInParts: parts, tax, account, duplicateOfNumber, preorders };
}

/** An order's number as it is written ("1001"), from the number the database gave it. */
export async function getOrderNumber(db: SupabaseClient, orderId: string): Promise<string> {
  const { data, error } = await db.from('orders').select('number').eq('id', orderId).single();
  if (error) throw error;
  return orderNumber(z.object({ number: z.number().int() }).parse(data).number);
}

/** Marks the order paid and takes its stock, once, under row locks (see public.fulfil_order). */
export function fulfil(db: SupabaseClient, orderId: string): Promise<FulfilmentResult> {
  return rpc(db, 'fulfil_order', { p_order_id: orderId }, z.enum(DB_OUTCOMES.fulfil_order));
}

/** Cancels an order whose payment never happened; a paid order is left alone. */
export async function cancelUnpaid(db: SupabaseClient, orderId: string): Promise<void> {
  await rpc(db, 'cancel_unpaid_order', { p_order_id: orderId }, z.enum(DB_OUTCOMES.cancel_unpaid_order));
}

/** Records the provider's refund on a sold-out order; true only for the one caller that records it. */
export function recordRefund(db: SupabaseClient, orderId: string, refundId: string): Promise<boolean> {
  return rpc(db, 'record_refund', { p_order_id: orderId, p_refund_id: refundId }, z.boolean());
}

/** The emails that go out once per order: claimed before sending, released when the send fails. */
const EMAIL_CLAIMS = {
  confirmation: { claim: 'claim_confirmation_email', column: 'confirmation_email_sent_at' },
  refund: { claim: 'claim_refund_email', column: 'refund_email_sent_at' },
  publisher: { claim: 'claim_publisher_notice', column: 'publisher_notified_at' },
  preorder_ready: { claim: 'claim_preorder_ready_email', column: 'preorder_ready_email_sent_at' },
  preorder_date: { claim: 'claim_preorder_date_email', column: 'preorder_date_emailed' },
} as const;
export type OrderEmail = keyof typeof EMAIL_CLAIMS;

export function claimEmail(db: SupabaseClient, orderId: string, email: OrderEmail): Promise<boolean> {
  return rpc(db, EMAIL_CLAIMS[email].claim, { p_order_id: orderId }, z.boolean());
}

export async function releaseEmail(db: SupabaseClient, orderId: string, email: OrderEmail): Promise<void> {
  const { error } = await db
    .from('orders')
    .update({ [EMAIL_CLAIMS[email].column]: null })
    .eq('id', orderId);
  if (error) throw error;
}
