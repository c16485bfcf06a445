/** A shopper's order status, found by the unguessable token in their emails (never by the order id). */
import { readServerEnv } from '../src/config/env';
import { trackingUrl } from '../src/features/shipping/shipment';
import { orderTotalLine } from '../src/features/on-account/paperwork';
import { findOrderByStatusToken, getOrderWithItems, statusTokenBody } from './_lib/orders';
import { sellerIdentity, taxInvoiceOf } from './_lib/tax-invoice';
import { type FunctionConfig, handleJson, json, problem } from './_lib/http';
import { serviceClient } from './_lib/supabase-admin';

export default handleJson(statusTokenBody, async (body) => {
  const env = readServerEnv();
  const db = serviceClient(env);
  const found = await findOrderByStatusToken(db, body.token);
  if (!found) return problem(404, 'We could not find that order. Open the link again from your email.');
  const order = await getOrderWithItems(db, found.id);
  const items = order.items;
  // An order bought on account already has its tax invoice (INV-…, with the PO), from the invoicing provider: the
  // shop issues no second one for the same sale.
  const account = order.account;
  return json({
    orderNumber: order.number,
    status: order.status,
    paymentStatus: order.paymentStatus,
    refunded: order.refundedAt !== null,
    deliveryMethod: order.shippingMethod.name ?? 'Standard delivery',
    total: order.total,
    items: items.map((i) => ({ title: i.title, quantity: i.quantity })),
    gift: order.gift ? { recipient: order.customerName, message: order.gift.message, hidePrices: order.gift.hidePrices } : null,
    /** The tax invoice and its adjustment notes, once paid (null before, or where the seller is not configured). */
    invoice: account ? null : taxInvoiceOf(order, sellerIdentity(env)),
    /**
     * An order bought on account: its invoice's number, the PO number, the invoicing provider's page for it, and what
     * is true of the payment today (unpaid, due on …; paid on …).
     */
    accountInvoice: account
      ? { number: account.invoice_number, poNumber: account.po_number, organisation: account.organisation, url: account.hosted_url, total: orderTotalLine(order.total, account) }
      : null,
    tracking: order.trackingNumber && order.trackingCarrier ? { number: order.trackingNumber, carrier: order.trackingCarrier, url: trackingUrl(order.trackingCarrier, order.trackingNumber) } : null,
    /** A pre-order waiting for its titles: each with its release date ('YYYY-MM-DD'), latest first; the buyer may cancel it. */
    preorders: (order.preorders ?? []).map((title) => ({ title: title.title, releaseDate: title.releaseDate })),
    /** The latest tracking event from the carrier, with when it happened. */
    latestTracking: order.trackingStatus && order.trackingStatusAt ? { status: order.trackingStatus, at: order.trackingStatusAt } : null,
  });
});

export const config: FunctionConfig = { path: '/api/order-status', method: ['POST'], rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] } };
