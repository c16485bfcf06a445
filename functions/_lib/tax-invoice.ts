/**
 * The seller on every tax invoice (SHOP_LEGAL_NAME, SHOP_ABN), and an order's tax invoice as the confirmation email,
 * the status page and its print view show it.
 */
import type { ServerEnv } from '../../src/config/env';
import { CURRENCY } from '../../src/config/constants';
import { SITE } from '../../src/config/site';
import type { Seller, TaxInvoice } from '../../src/features/tax-invoice/tax-invoice';
import { fromCents, toCents } from '../../src/lib/money';
import type { OrderWithItems } from './orders';
import { localStandInsAllowed } from './runtime';

/** A payment was taken: paid, or paid and then refunded (or due to be). */
const PAID: ReadonlySet<string> = new Set(['paid', 'refund_due']);

/** What the local shop prints in their place: labelled, so no one mistakes it for the seller's. */
export const LOCAL_SELLER: Seller = {
  legalName: `${SITE.publisher} (local shop: SHOP_LEGAL_NAME is not set)`,
  // The ATO's own example ABN: its check digits are right, and it is no one's.
  abn: '51 824 753 556 (local shop: SHOP_ABN is not set)',
};

/**
 * The seller for the tax invoices, or null where a deploy lacks either variable: the confirmation then goes without
 * its tax invoice (the doctor flags the gap) rather than print one that names no seller.
 */
export function sellerIdentity(env: ServerEnv): Seller | null {
  if (env.SHOP_LEGAL_NAME && env.SHOP_ABN) return { legalName: env.SHOP_LEGAL_NAME, abn: env.SHOP_ABN };
  if (localStandInsAllowed(env)) return LOCAL_SELLER;
  console.error('[tax-invoice] SHOP_LEGAL_NAME or SHOP_ABN is not set: orders go without a tax invoice.');
  return null;
}

/** The order's tax invoice with its adjustment notes; null until it is paid, or without a seller. */
export function taxInvoiceOf(order: OrderWithItems, seller: Seller | null | undefined): TaxInvoice | null {
  if (!seller || !PAID.has(order.paymentStatus)) return null;
  return {
    title: SITE.gstRegistered ? 'Tax invoice' : 'Invoice',
    seller,
    orderNumber: order.number,
    // An order written paid without its time (an import, a fixture) is dated when it was placed.
    date: order.paidAt ?? order.createdAt,
    buyer: order.buyerName,
    lines: order.items.map((item) => ({ title: item.title, quantity: item.quantity, unitPrice: item.unitPrice, amount: fromCents(toCents(item.unitPrice) * item.quantity) })),
    discount: order.promotionCode && order.discount > 0 ? { code: order.promotionCode, amount: order.discount } : null,
    shipping: { name: order.shippingMethod.name ?? 'Standard delivery', amount: order.shippingAmount },
    total: order.total,
    currency: order.currency || CURRENCY,
    gstApplies: SITE.gstRegistered && order.tax.gstApplies,
    gst: SITE.gstRegistered ? order.tax.gst : 0,
    adjustments: order.tax.refunds.map((refund) => ({ ...refund, gst: SITE.gstRegistered ? refund.gst : 0 })),
  };
}
