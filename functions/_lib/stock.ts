/**
 * Stock beyond the sale itself: the publisher's low-stock email after a sale, the publisher's stock changes from
 * /admin (set to a figure, or a delivery of N copies) and the availability mailing to the shoppers waiting for a
 * sold-out book. The low-stock email is claimed in the database first, so concurrent callers and retries send it
 * once, and given back when sending fails, so a later attempt sends it instead.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { type LowStockAlert, lowStockNotice } from './emails';
import { availabilityMailing } from './marketing-emails';
import type { FulfilmentServices } from './fulfilment';
import { purgeLiveCatalog } from './live-catalog';
import { getOrderNumber } from './orders';
import { rpc } from './supabase-admin';
import type { StockAction } from '../../src/features/staff-actions/stock-actions';
import { countOf } from '../../src/lib/format';

const alertsSchema = z.array(
  z.object({ id: z.coerce.number(), product_id: z.string(), title: z.string(), level: z.number(), stock: z.number() }).transform((a) => ({
    id: a.id,
    productId: a.product_id,
    title: a.title,
    level: a.level,
    stock: a.stock,
  })),
);

/**
 * After a sale: tells the publisher about the titles it took below their low-stock level (the database opened
 * one crossing per title, once until the stock is back at the level). True when an email went out.
 */
export async function sendLowStockNoticeOnce(db: SupabaseClient, services: Pick<FulfilmentServices, 'email' | 'siteOrigin' | 'notifyTo'>, orderId: string): Promise<boolean> {
  const { data, error } = await db.rpc('claim_low_stock_alerts', { p_order_id: orderId });
  if (error) {
    console.error(`[stock] could not claim the low-stock alerts of order ${orderId}`, error);
    return false;
  }
  const alerts: LowStockAlert[] = alertsSchema.parse(data);
  if (alerts.length === 0) return false;
  const release = () => Promise.all(alerts.map((a) => db.rpc('release_low_stock_alert', { p_alert_id: a.id })));
  if (!services.notifyTo) {
    await release();
    return false;
  }
  try {
    await services.email.send(lowStockNotice(await getOrderNumber(db, orderId), alerts, services.notifyTo, services.siteOrigin));
    return true;
  } catch (error) {
    await release();
    console.error(`[stock] the low-stock email for order ${orderId} failed; it will be sent on the next attempt`, error);
    return false;
  }
}

const mailingSchema = z.object({ id: z.string(), recipients: z.number() }).nullable();

/**
 * Draws everyone confirmed on a book's waiting list into one availability mailing, now that it can be bought (or
 * pre-ordered, with its release date); the back office then sends it a batch at a time, as it sends a newsletter
 * (never one email at a time inside the stock change). Null when nobody is waiting.
 */
export async function drawAvailabilityMailing(db: SupabaseClient, siteOrigin: string, book: { id: string; title: string; releaseDate?: string }, actor: string) {
  const { subject, markdown } = availabilityMailing(book, siteOrigin);
  return rpc(db, 'availability_create_mailing', { p_product_id: book.id, p_subject: subject, p_body: markdown, p_actor: actor }, mailingSchema);
}

export interface StockOutcome {
  status: number;
  message: string;
  stock?: number;
  /** The availability mailing drawn for the shoppers waiting, which the back office then sends. */
  mailing?: { id: string; recipients: number };
}

/**
 * Runs a publisher's stock change: through the staff database function with the caller's own token (so the
 * history names who), then refreshes the shop's cached stock and, when the book can be bought again, draws the
 * availability mailing for whoever was waiting for it.
 */
export async function runStockAction(asStaff: SupabaseClient, db: SupabaseClient, services: Pick<FulfilmentServices, 'siteOrigin' | 'cdn'>, action: StockAction, actor: string): Promise<StockOutcome> {
  const { data, error } =
    action.action === 'set'
      ? await asStaff.rpc('admin_set_stock', { p_product_id: action.productId, p_stock: action.stock, p_reason: action.reason })
      : await asStaff.rpc('admin_receive_stock', { p_product_id: action.productId, p_quantity: action.quantity, p_reason: action.reason });
  if (error) {
    if (error.code === 'P0002') return { status: 404, message: 'We could not find that product.' };
    if (error.code === '22023') return { status: 400, message: error.message };
    if (error.code === '42501') return { status: 403, message: "You don't have access to the back office." };
    throw error;
  }
  const stock = z.number().parse(data);
  await purgeLiveCatalog(services.cdn, `the stock of ${action.productId} changed in the back office`);
  const product = await db.from('products').select('id, title').eq('id', action.productId).single();
  if (product.error) throw product.error;
  const book = z.object({ id: z.string(), title: z.string() }).parse(product.data);
  const what = action.action === 'set' ? `stock set to ${stock}` : `${action.quantity} received, ${stock} in stock`;
  let mailing: StockOutcome['mailing'] | null = null;
  try {
    if (stock > 0) mailing = await drawAvailabilityMailing(db, services.siteOrigin, book, actor);
  } catch (drawError) {
    // The stock is saved; whoever waits stays on the list and is drawn at the next stock change.
    console.error(`[stock] could not draw the availability mailing for ${book.id}`, drawError);
    return { status: 200, message: `${book.title}: ${what}. The shoppers waiting for it could not be emailed just now; they stay on the list for the next change.`, stock };
  }
  if (!mailing) return { status: 200, message: `${book.title}: ${what}.`, stock };
  const waiting = countOf(mailing.recipients, 'waiting shopper');
  return { status: 200, message: `${book.title}: ${what}; emailing ${waiting}.`, stock, mailing };
}
