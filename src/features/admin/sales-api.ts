/** Sales (the period's figures and the CSV's orders) and customers. */
import * as z from '@/lib/zod-mini';
import { orderOnAccountSchema } from '@/features/on-account/paperwork';
import { address, maybeText, money, type Page, rpc, rpcPage, text } from './api';
import { orderListItem } from './orders-api';

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
  /** GST is in the price (public.gst_applies): the one rule the figures, the tax invoice and the CSV read. */
  gst_applies: z.boolean(),
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
const customerDetail = z.nullable(z.object({ ...customer.shape, order_list: z.array(orderListItem) }));

/** The period's figures (dates are Sydney days, yyyy-mm-dd, both ends included), computed by the database. */
export const getSales = (from: string, to: string, by: SalesGrouping) => rpc(sales, 'admin_sales', { p_from: from, p_to: to, p_by: by }, 'load the sales');
/** One page (up to 1,000) of the period's paid orders with their lines, for the CSV. */
export const listSaleOrders = (from: string, to: string, cursor: string | null = null, limit = 1000): Promise<Page<SaleOrder>> =>
  rpcPage(saleOrder, 'orders', 'admin_sales_orders', { p_from: from, p_to: to, p_cursor: cursor, p_limit: limit }, 'load the orders for the CSV');
/** One page of customers, most recent order first. */
export const listCustomers = (search: string, cursor: string | null = null, limit = 50): Promise<Page<Customer>> =>
  rpcPage(customer, 'customers', 'admin_list_customers', { p_search: search, p_cursor: cursor, p_limit: limit }, 'load the customers');
export const getCustomer = (email: string) => rpc(customerDetail, 'admin_get_customer', { p_email: email }, 'load the customer');
