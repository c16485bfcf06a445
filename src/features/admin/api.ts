/**
 * The back office's data, read and written as the signed-in staff member: lists and the order detail through
 * staff RPCs and RLS-protected tables (the database checks the role), order actions through /api/admin-order and
 * stock changes through /api/admin-stock.
 */
import * as z from 'zod/mini';
import type { ShipmentInput } from './shipment';
import { toCsv } from '@/lib/csv';
import { DB_OUTCOMES } from '@/lib/db-outcomes';
import { getSupabase } from '@/lib/supabase/client';
import { orderOnAccountSchema } from '@/features/invoices/paperwork';

export const ORDER_VIEWS = [
  { id: 'to_pack', label: 'To pack' },
  { id: 'shipped', label: 'Shipped' },
  { id: 'refunds_due', label: 'Refunds due' },
  { id: 'all', label: 'All' },
] as const;
/** What the list asks the database for: a view, or under All the unpaid checkout attempts it leaves out. */
export type OrderView = (typeof ORDER_VIEWS)[number]['id'] | 'unpaid';

export class BackOfficeError extends Error {}

const money = z.coerce.number();

const text = z.string();
const maybeText = z.nullable(z.string());
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
const orderListItem = z.object({
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
const orderList = z.array(orderListItem);
export type OrderListItem = z.infer<typeof orderListItem>;

const optionalText = z.optional(z.string());
/** Checkout stores the shopper's own field names (addressLine1, postalCode, phone); older rows use line1, postal_code. */
const address = z.looseObject({
  addressLine1: optionalText,
  addressLine2: optionalText,
  line1: optionalText,
  line2: optionalText,
  city: optionalText,
  state: optionalText,
  postalCode: optionalText,
  postal_code: optionalText,
  country: optionalText,
  phone: optionalText,
});

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

const product = z.object({ id: text, title: text, stock: z.number(), low_stock_level: z.number(), waiting: z.coerce.number() });
export type StockRow = z.infer<typeof product>;
const stockChange = z.object({
  id: z.coerce.number(),
  created_at: text,
  actor: text,
  previous_stock: z.number(),
  new_stock: z.number(),
  reason: text,
  order_id: maybeText,
  /** The number of the order a sale was for. */
  order_number: z.nullable(z.number()),
});
export type StockChange = z.infer<typeof stockChange>;
const message = z.object({ id: text, name: text, email: text, subject: text, message: text, created_at: text, handled_at: maybeText });
export type ContactMessage = z.infer<typeof message>;
const subscriber = z.object({
  id: text,
  email: text,
  created_at: text,
  /** pending: signed up, not confirmed yet (no consent on record); confirmed; unsubscribed. */
  status: z.enum(['pending', 'confirmed', 'unsubscribed']),
  consent_at: maybeText,
  consent_source: maybeText,
  consent_page: maybeText,
  confirmation_sent_at: maybeText,
  confirmation_page: maybeText,
  unsubscribed_at: maybeText,
});
export type Subscriber = z.infer<typeof subscriber>;

/** A database or network answer as one sentence for the publisher. */
function fail(error: { code?: string; message?: string }, what: string): never {
  if (error.code === '42501') throw new BackOfficeError("You don't have access to the back office.");
  throw new BackOfficeError(`Could not ${what}: ${error.message ?? 'unknown error'}`);
}

/** One keyset page of a list: its rows, and the cursor of the page after it (null on the last). */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** Calls a staff function of the database and checks its answer; a refusal or failure throws the sentence to show. */
export async function rpc<T>(schema: z.ZodMiniType<T>, fn: string, args: Record<string, unknown>, what: string): Promise<T> {
  const { data, error } = await (await getSupabase()).rpc(fn, args);
  if (error) fail(error, what);
  return schema.parse(data);
}

/** A list's page as the database answers it, `{<key>: [...], next}`, as rows and the next cursor. */
async function rpcPage<T>(row: z.ZodMiniType<T>, key: string, fn: string, args: Record<string, unknown>, what: string): Promise<Page<T>> {
  const page = await rpc(z.looseObject({ next: z.nullable(z.string()) }), fn, args, what);
  return { rows: z.array(row).parse(page[key]), next: page.next };
}

export const isStaff = () => rpc(z.boolean(), 'is_staff', {}, 'check your access');

/** One page of a view's orders, newest first; `cursor` is the previous page's `next`. */
export const listOrders = (view: OrderView, search: string, cursor: string | null = null, limit = 50): Promise<Page<OrderListItem>> =>
  rpcPage(orderListItem, 'orders', 'admin_list_orders', { p_view: view, p_search: search, p_cursor: cursor, p_limit: limit }, 'load the orders');
/** Every page of a list, one after another (for what must hold all of it, such as the packing slips to print). */
export async function allPages<T>(page: (cursor: string | null) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  do {
    const next: Page<T> = await page(cursor);
    rows.push(...next.rows);
    cursor = next.next;
  } while (cursor);
  return rows;
}
export const getOrder = (orderId: string) => rpc(orderDetail, 'admin_get_order', { p_order_id: orderId }, 'load the order');
export const markMessageHandled = (id: string) => rpc(z.boolean(), 'admin_mark_message_handled', { p_message_id: id }, 'mark the message handled');
export const setOrderNote = (orderId: string, note: string) => rpc(z.boolean(), 'admin_set_order_note', { p_order_id: orderId, p_note: note }, 'save the note');
export type AddressInput = { addressLine1: string; addressLine2: string; city: string; state: string; postalCode: string; phone: string };
/** Changes the delivery address on the server, which also changes it at the shipping platform; resolves to the sentence for the publisher. */
export const changeAddress = (orderId: string, address: AddressInput) => runOrderAction({ action: 'change_address', orderId, address });
export const undoDelivered = (orderId: string) => rpc(z.enum(DB_OUTCOMES.admin_undo_delivered), 'admin_undo_delivered', { p_order_id: orderId }, 'undo the delivery');
export const removeSubscriber = (id: string) => rpc(z.boolean(), 'admin_remove_subscriber', { p_subscriber_id: id }, 'remove the subscriber');

/** Every product with its stock, its low-stock level and how many shoppers wait for it. */
export const listStock = () => rpc(z.array(product), 'admin_list_stock', {}, 'load the stock');
/** One page of a product's stock history, newest first. */
export const stockHistory = (productId: string, cursor: string | null = null, limit = 50): Promise<Page<StockChange>> =>
  rpcPage(stockChange, 'changes', 'admin_stock_history', { p_product_id: productId, p_cursor: cursor, p_limit: limit }, 'load the stock history');

/** Every row of a table staff read directly (its policies let only them), newest first: the columns its schema names. */
async function newestFirst<T extends z.ZodMiniObject>(table: string, row: T, what: string): Promise<z.infer<T>[]> {
  const { data, error } = await (await getSupabase()).from(table).select(Object.keys(row.shape).join(', ')).order('created_at', { ascending: false });
  if (error) fail(error, what);
  return z.array(row).parse(data);
}
export const listMessages = () => newestFirst('contact_submissions', message, 'load the messages');
export const listSubscribers = () => newestFirst('newsletter_subscriptions', subscriber, 'load the subscribers');

/**
 * One row per address: its state, when it confirmed from its inbox and on which page it signed up (the consent
 * the Spam Act asks the sender to be able to show), a confirmation still waiting, and an unsubscribe.
 */
export function subscribersCsv(rows: Subscriber[]): string {
  return toCsv(
    ['email', 'status', 'confirmed_at', 'consent_source', 'consent_page', 'confirmation_sent_at', 'unsubscribed_at'],
    rows.map((r) => [r.email, r.status, r.consent_at ?? '', r.consent_source ?? '', r.consent_page ?? '', r.confirmation_sent_at ?? '', r.unsubscribed_at ?? '']),
  );
}

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

const newsletter = z.object({
  id: text,
  subject: text,
  /** An availability mailing: the book that came back. */
  product_id: z.optional(maybeText),
  created_by: text,
  created_at: text,
  finished_at: maybeText,
  recipients: money,
  sent: money,
  skipped: money,
  unknown: money,
  waiting: money,
});
export type Newsletter = z.infer<typeof newsletter>;
export const listNewsletters = () => rpc(z.array(newsletter), 'admin_list_newsletters', {}, 'load the newsletters');
export const createNewsletter = (subject: string, body: string) =>
  rpc(z.object({ id: text, recipients: money }), 'admin_create_newsletter', { p_subject: subject, p_body: body }, 'save the newsletter');

const figures = { orders: money, copies: money, goods: money, discounts: z._default(money, 0), shipping: money, refunds: money, net: money, gst: money };
const sales = z.object({
  from: text,
  to: text,
  by: z.enum(['day', 'week', 'month', 'year']),
  totals: z.object({ ...figures, taxable_sales: money, export_sales: money }),
  series: z.array(z.object({ period: text, ...figures })),
  titles: z.array(z.object({ product_id: text, title: text, copies: money, goods: money })),
});
export type Sales = z.infer<typeof sales>;
export type SalesGrouping = Sales['by'];

const saleItem = z.object({ product_id: text, title: text, quantity: money, price_at_time: money });
const saleOrder = z.object({
  id: text,
  number: z.number(),
  paid_at: text,
  paid_on: text,
  customer_email: text,
  customer_name: text,
  /** The buyer's name as best known (null when unknown); customer_name is the delivery name, a gift's recipient. */
  buyer_name: z.optional(maybeText),
  is_gift: z.optional(z.boolean()),
  status: text,
  payment_status: text,
  subtotal_amount: money,
  discount_amount: z._default(money, 0),
  promotion_code: z.optional(maybeText),
  shipping_amount: money,
  total_amount: money,
  refunded_amount: money,
  refund_id: maybeText,
  country: text,
  shipping_address: address,
  delivery_method: maybeText,
  /** An invoice's order: the school or parish, their PO number and the invoice's number; null on a card order. */
  organisation: z.optional(maybeText),
  po_number: z.optional(maybeText),
  invoice_number: z.optional(maybeText),
  /** An order on account's paperwork: the CSV dates its invoice as the school's copy is dated. */
  account: z.optional(z.nullable(orderOnAccountSchema)),
  items: z.array(saleItem),
});
export type SaleOrder = z.infer<typeof saleOrder>;

const customer = z.object({ email: text, name: text, has_account: z.boolean(), orders: money, total_spent: money, last_order_at: text });
export type Customer = z.infer<typeof customer>;
const customerDetail = z.nullable(z.object({ ...customer.shape, order_list: orderList }));

/** The period's figures (dates are Sydney days, yyyy-mm-dd, both ends included), computed by the database. */
export const getSales = (from: string, to: string, by: SalesGrouping) => rpc(sales, 'admin_sales', { p_from: from, p_to: to, p_by: by }, 'load the sales');
/** One page (up to 1,000) of the period's paid orders with their lines, for the CSV. */
export const listSaleOrders = (from: string, to: string, cursor: string | null = null, limit = 1000): Promise<Page<SaleOrder>> =>
  rpcPage(saleOrder, 'orders', 'admin_sales_orders', { p_from: from, p_to: to, p_cursor: cursor, p_limit: limit }, 'load the orders for the CSV');
/** One page of customers, most recent order first. */
export const listCustomers = (search: string, cursor: string | null = null, limit = 50): Promise<Page<Customer>> =>
  rpcPage(customer, 'customers', 'admin_list_customers', { p_search: search, p_cursor: cursor, p_limit: limit }, 'load the customers');
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
export const getCustomer = (email: string) => rpc(customerDetail, 'admin_get_customer', { p_email: email }, 'load the customer');

export type OrderActionRequest =
  | { action: 'ship'; orderId: string; shipment: ShipmentInput }
  | { action: 'deliver' | 'cancel' | 'retry_refund' | 'resend_confirmation' | 'send_to_platform'; orderId: string }
  | { action: 'refund_part'; orderId: string; amountCents: number; reason: string }
  | { action: 'change_address'; orderId: string; address: AddressInput };

/** POSTs to a staff function with the publisher's token; resolves to its answer, or throws its message. */
export async function postAsStaff(path: string, request: unknown): Promise<Record<string, unknown>> {
  const { data } = await (await getSupabase()).auth.getSession();
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.session?.access_token ?? ''}` },
    body: JSON.stringify(request),
  });
  const body = z.catch(z.record(z.string(), z.unknown()), {}).parse(await response.json().catch(() => ({})));
  if (!response.ok) throw new BackOfficeError(typeof body.error === 'string' ? body.error : 'Something went wrong on our side. Please try again in a moment.');
  return body;
}

/** A staff action's answer as the sentence to show the publisher. */
async function postForMessage(path: string, request: unknown): Promise<string> {
  const body = await postAsStaff(path, request);
  return typeof body.message === 'string' ? body.message : 'Done.';
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
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = answer.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to have taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return answer.message;
}

const sendProgress = z.object({ sent: z.number(), waiting: z.number(), state: z.enum(['done', 'busy', 'more']), message: text });
/** Sends the newsletter's next batches (the server stops after a few seconds; call again while the state is 'more'). */
const sendNewsletter = async (newsletterId: string) => sendProgress.parse(await postAsStaff('/api/admin-newsletter', { newsletterId }));

export type StockActionRequest = { action: 'set'; productId: string; stock: number; reason: string } | { action: 'receive'; productId: string; quantity: number; reason: string };

const stockAnswer = z.object({ message: text, mailing: z.nullable(z.object({ id: text, recipients: money })) });
/** Sets a product's stock or adds a delivery, on the server: its message, and the availability mailing it drew for whoever waits. */
export const runStockAction = async (request: StockActionRequest) => stockAnswer.parse(await postAsStaff('/api/admin-stock', request));

/** Sends a newsletter or availability mailing until everyone has it (or another send holds the last batch); answers the last message. */
export async function sendAll(newsletterId: string, onProgress: (message: string) => void = () => {}): Promise<string> {
  for (;;) {
    const progress = await sendNewsletter(newsletterId);
    onProgress(progress.message);
    if (progress.state !== 'more') return progress.message;
  }
}

const promotionCode = z.object({
  id: text,
  code: text,
  kind: z.enum(['percent', 'amount']),
  amount: money,
  min_subtotal: money,
  starts_at: maybeText,
  ends_at: maybeText,
  max_uses: z.nullable(z.number()),
  active: z.boolean(),
  created_at: text,
  created_by: text,
  /** Orders holding a use: paid, or awaiting payment. */
  uses: z.number(),
  paid_orders: money,
  discount_given: money,
});
export type PromotionCode = z.infer<typeof promotionCode>;

/** A new code as the publisher enters it: dates are Sydney days, both included; empty means no limit. */
export interface NewPromotionCode {
  code: string;
  kind: 'percent' | 'amount';
  amount: number;
  min_subtotal: number;
  starts_on: string;
  ends_on: string;
  max_uses: number | null;
}

export const listCodes = () => rpc(z.array(promotionCode), 'admin_list_codes', {}, 'load the codes');
export const createCode = (code: NewPromotionCode) => rpc(z.string(), 'admin_create_code', { p_code: code }, 'create the code');
export const setCodeActive = (id: string, active: boolean) => rpc(z.boolean(), 'admin_set_code_active', { p_id: id, p_active: active }, 'change the code');
