/** Stock: every product's count and waiting shoppers, a product's history, and the changes made through /api/admin-stock. */
import * as z from '@/lib/zod-mini';
import type { StockAction } from '@/features/staff-actions/stock-actions';
import { maybeText, money, type Page, postAsStaff, rpc, rpcPage, text } from './api';

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

/** Every product with its stock, its low-stock level and how many shoppers wait for it. */
export const listStock = () => rpc(z.array(product), 'admin_list_stock', {}, 'load the stock');
/** One page of a product's stock history, newest first. */
export const stockHistory = (productId: string, cursor: string | null = null, limit = 50): Promise<Page<StockChange>> =>
  rpcPage(stockChange, 'changes', 'admin_stock_history', { p_product_id: productId, p_cursor: cursor, p_limit: limit }, 'load the stock history');

const stockAnswer = z.object({ message: text, mailing: z.nullable(z.object({ id: text, recipients: money })) });
/** Sets a product's stock or adds a delivery, on the server: its message, and the availability mailing it drew for whoever waits. */
export const runStockAction = async (request: StockAction) => stockAnswer.parse(await postAsStaff('/api/admin-stock', request));
