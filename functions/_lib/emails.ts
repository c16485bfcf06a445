import { SITE } from '../../src/config/site';
import { trackingUrl } from '../../src/features/shipping/shipment';
import { orderDeliveryEstimate } from '../../src/features/checkout/delivery-estimates';
import { giftSlipSender } from '../../src/features/checkout/gift';
import { formatLongDate, formatPrice } from '../../src/lib/format';
import { orderStatusPath } from '../../src/lib/paths';
import { sumDollars } from '../../src/lib/money';
import type { OrderWithItems } from './orders';
import { accountPaymentState, accountReferences, type OrderOnAccount, orderTotalLine } from '../../src/features/on-account/paperwork';
import { adjustmentNoteText, quantityLine, type Seller, type TaxAdjustment, taxInvoicePath, taxInvoiceText } from '../../src/features/tax-invoice/tax-invoice';
import { taxInvoiceOf } from './tax-invoice';
import type { EmailMessage } from './providers/email';

// The title first and the count after it: "30 × 10 Reasons Why…" reads as 300.
const itemLines = (order: OrderWithItems) => order.items.map((item) => `${quantityLine(item.title, item.quantity)} — ${formatPrice(item.unitPrice * item.quantity)}`);

/** The adjustment notes for these refunds, each after a blank line; none without a seller or a tax invoice. */
function adjustmentLines(order: OrderWithItems, seller: Seller | null | undefined, pick: (adjustment: TaxAdjustment) => boolean): string[] {
  const invoice = taxInvoiceOf(order, seller);
  if (!invoice) return [];
  return invoice.adjustments.filter(pick).flatMap((adjustment) => ['', ...adjustmentNoteText(invoice, adjustment)]);
}
/** The promotion code's line, when the order used one: what it took off the goods. */
const discountLines = (order: OrderWithItems) => (order.promotionCode && order.discount > 0 ? [`Code ${order.promotionCode}: −${formatPrice(order.discount)}`] : []);
export const signature = `${SITE.name}, Sydney`;

/** The emails go to the buyer, greeted by the name they paid with (a gift's delivery name is the recipient's, never used here). */
const greeting = (order: OrderWithItems) => (order.buyerName ? `Hello ${order.buyerName},` : 'Hello,');
const questions = `Questions? Reply to this email or write to ${SITE.email}.`;

/** An email to the buyer: greeted, then the lines, then signed by the shop. */
function toBuyer(order: OrderWithItems, subject: string, idempotencyKey: string, lines: string[]): EmailMessage {
  return { to: order.customerEmail, subject, text: [greeting(order), '', ...lines, '', signature].join('\n'), idempotencyKey };
}

/** What the buyer is told of a gift: who it goes to, the message as it will be printed, and the prices left out. */
function giftLines(order: OrderWithItems): string[] {
  if (!order.gift) return [];
  const sender = order.gift.hideSender ? null : giftSlipSender(order.gift.message, order.buyerName);
  return [
    `This order is a gift for ${order.customerName}.`,
    ...(order.gift.message ? ['Your gift message, printed on the gift slip:', ...order.gift.message.split('\n').map((line) => `  ${line}`)] : []),
    ...(sender ? [`The gift slip says it is from ${sender}.`] : []),
    ...(order.gift.hideSender ? ['Your name is left off the gift slip.'] : []),
    ...(order.gift.hidePrices ? ['Prices are left out of the parcel.'] : []),
    '',
  ];
}

/** The shopper's order status page: the token rides in the fragment, so it never reaches a server log. */
const orderStatusUrl = (siteOrigin: string, token: string) => `${siteOrigin}${orderStatusPath(token)}`;
const statusLine = (order: OrderWithItems, siteOrigin: string) => `Follow your order: ${orderStatusUrl(siteOrigin, order.statusToken)}`;

/**
 * An order on account's confirmation is the school's receipt, sent when its payment arrives: it names the PO and
 * invoice numbers they file it under. Its tax invoice is the invoice itself, so none is added here.
 */
function paymentReceipt(order: OrderWithItems, account: OrderOnAccount, siteOrigin: string): EmailMessage {
  const number = order.number;
  const shipped = order.status === 'shipped' || order.status === 'completed';
  const subject = `Payment received: invoice ${account.invoice_number}${account.po_number ? `, PO number ${account.po_number}` : ''}`;
  return toBuyer(order, subject, `order-confirmation-${order.id}`, [
    `Thank you: we have received ${account.organisation}'s payment of ${formatPrice(order.total)} AUD for invoice ${account.invoice_number}${account.po_number ? ` (your PO number ${account.po_number})` : ''}.`,
    `Invoice ${account.invoice_number} was ${accountPaymentState(account)}. This email is your receipt.`,
    '',
    ...itemLines(order),
    `Shipping (${order.shippingMethod.name ?? 'standard'}): ${formatPrice(order.shippingAmount)}`,
    orderTotalLine(order.total, account),
    '',
    shipped ? `Your order ${number} has already been sent to you.` : `We are packing your order ${number} and will email its tracking details when it ships.`,
    statusLine(order, siteOrigin),
  ]);
}

/** "Ships with <title>, out <date>" for each title of the order still on pre-order: the whole order ships once, with the last. */
const shipsWithLines = (order: OrderWithItems) => (order.preorders ?? []).map((title) => `Ships with ${title.title}, out ${formatLongDate(title.releaseDate)}.`);

export function confirmationEmail(order: OrderWithItems, siteOrigin: string, seller?: Seller | null): EmailMessage {
  if (order.account) return paymentReceipt(order, order.account, siteOrigin);
  const number = order.number;
  // The tax invoice lists the items, the shipping, the total and the GST; without a seller, the plain lines do.
  const invoice = taxInvoiceOf(order, seller);
  const shipsWith = shipsWithLines(order);
  return toBuyer(order, `Your order ${number} is confirmed`, `order-confirmation-${order.id}`, [
    shipsWith.length
      ? `Thank you for your pre-order ${number}. We have received your payment; your books ship together, in one parcel, when the last of them is out.`
      : `Thank you for your order ${number}. We have received your payment and are getting it ready.`,
    ...shipsWith,
    '',
    ...giftLines(order),
    ...(invoice
      ? [...taxInvoiceText(invoice), `Print it: ${siteOrigin}${taxInvoicePath(order.statusToken)}`]
      : [...itemLines(order), ...discountLines(order), `Shipping (${order.shippingMethod.name ?? 'standard'}): ${formatPrice(order.shippingAmount)}`, `Total: ${formatPrice(order.total)} AUD`]),
    '',
    // A pre-order's delivery time runs from its release, not from today: said so, beside the date above.
    `Estimated delivery: ${orderDeliveryEstimate({ country: order.shippingAddress.country, methodId: order.shippingMethod.id, estimatedDelivery: order.shippingMethod.estimatedDelivery })}${shipsWith.length ? ' once it ships' : ''}. We will email your tracking details when it ships.`,
    statusLine(order, siteOrigin),
  ]);
}

/**
 * The refund notice: a paid order the publisher cancelled says so; otherwise the last copies sold out while
 * the shopper paid.
 */
export function refundEmail(order: OrderWithItems, siteOrigin: string, seller?: Seller | null): EmailMessage {
  const number = order.number;
  // The refund in full's own note: what it returned (the rest, after any part refunds) and the GST in it.
  const note = adjustmentLines(order, seller, (a) => a.reason === 'Refunded in full');
  // After part refunds, the refund in full returns the rest of the payment.
  const refunded =
    order.refundedInParts > 0
      ? `We have refunded the remaining ${formatPrice(sumDollars(order.total, -order.refundedInParts))} AUD to your card (with the ${formatPrice(order.refundedInParts)} AUD refunded before, the whole ${formatPrice(order.total)} AUD). Banks usually show it within 5-10 business days.`
      : `We have refunded the full ${formatPrice(order.total)} AUD to your card. Banks usually show it within 5-10 business days.`;
  if (order.cancelledAt) {
    return toBuyer(order, `Your order ${number} has been cancelled and refunded`, `order-refund-${order.id}`, [
      `We have cancelled your order ${number}.`,
      refunded,
      '',
      ...itemLines(order),
      ...note,
      '',
      statusLine(order, siteOrigin),
      questions,
    ]);
  }
  if (order.duplicateOf) {
    const kept = order.duplicateOfNumber ?? 'the first order';
    return toBuyer(order, `Your second payment for the same cart has been refunded`, `order-refund-${order.id}`, [
      `The same cart was paid for twice, on two payment pages open at once. Your order ${kept} goes ahead; we have cancelled the second one, ${number}.`,
      refunded,
      '',
      ...itemLines(order),
      '',
      `Nothing else changes: order ${kept} is confirmed and will ship as usual. Questions? Reply to this email or write to ${SITE.email}.`,
    ]);
  }
  // Not filled: the code's last use went to another payment first, or the last copies sold out.
  const [why, after] = order.codeUsedUp
    ? [
        `the last use of the code ${order.promotionCode} went to another order moments before your payment arrived, so we could not fill it at that price.`,
        `You are welcome to order again at the current price. Questions? Reply to this email or write to ${SITE.email}.`,
      ]
    : [
        'the last copies sold out moments before your payment arrived, so we could not fill it.',
        `Reply to this email, or write to ${SITE.email}, and we will let you know as soon as the book is back in stock.`,
      ];
  return toBuyer(order, `Your order ${number} has been refunded`, `order-refund-${order.id}`, [
    `Thank you for your order ${number}. We are sorry: ${why}`,
    '',
    refunded,
    '',
    ...itemLines(order),
    ...note,
    '',
    after,
  ]);
}

/** A part of the order's payment refunded by the publisher: how much, why, and what the customer has still paid. */
export function partRefundEmail(
  order: OrderWithItems,
  refund: { amount: number; reason: string; refundId: string; remaining: number; providerRefundId?: string | null },
  siteOrigin: string,
  seller?: Seller | null,
): EmailMessage {
  const number = order.number;
  return toBuyer(order, `A refund of ${formatPrice(refund.amount)} on your order ${number}`, `order-part-refund-${refund.refundId}`, [
    `We have refunded ${formatPrice(refund.amount)} AUD of your order ${number} to your card. Banks usually show it within 5-10 business days.`,
    `Reason: ${refund.reason}`,
    '',
    `Your order's total was ${formatPrice(order.total)} AUD; with this refund, you have paid ${formatPrice(refund.remaining)} AUD for it.`,
    ...(refund.providerRefundId ? adjustmentLines(order, seller, (a) => a.refundId === refund.providerRefundId) : []),
    '',
    statusLine(order, siteOrigin),
    questions,
  ]);
}

/** The tracking number, first time or as a correction of an earlier one. */
export function shippingEmail(order: OrderWithItems, kind: 'first' | 'correction', siteOrigin: string): EmailMessage {
  const number = order.number;
  const carrier = order.trackingCarrier ?? '';
  const tracking = order.trackingNumber ?? '';
  const link = trackingUrl(carrier, tracking);
  // An order on account is named as the school files it: its PO and invoice numbers, and whether the invoice is paid.
  const account = order.account;
  const what = account ? `${number} (${accountReferences(account)})` : number;
  return toBuyer(order, kind === 'first' ? `Your order ${what} has shipped` : `Corrected tracking number for your order ${what}`, `order-shipped-${order.id}-${tracking}`, [
    kind === 'first' ? `Good news: your order ${what} is on its way with ${carrier}.` : `We gave you the wrong tracking number for your order ${what}. Here is the right one; please use it instead.`,
    ...(account ? [`${account.organisation}: invoice ${account.invoice_number} is ${accountPaymentState(account)}.`] : []),
    '',
    `Tracking number: ${tracking} (${carrier})`,
    link ? `Track your parcel: ${link}` : `Track it on ${carrier}'s website with the number above.`,
    '',
    ...itemLines(order),
    '',
    statusLine(order, siteOrigin),
  ]);
}

/** A pre-order's titles are all out: the order is being packed now and ships like any paid order. */
export function preorderReadyEmail(order: OrderWithItems, siteOrigin: string): EmailMessage {
  const number = order.number;
  return toBuyer(order, `Your pre-order ${number} is being packed`, `order-preorder-ready-${order.id}`, [
    `Good news: the book you pre-ordered is out, and your order ${number} is being packed now. It will be on its way to you in the next few days; we will email its tracking details when it ships.`,
    '',
    ...itemLines(order),
    '',
    statusLine(order, siteOrigin),
    questions,
  ]);
}

/** The publisher moved a release date: the day the pre-order now ships, once per new date. */
export function preorderDateEmail(order: OrderWithItems, siteOrigin: string): EmailMessage {
  const number = order.number;
  const last = order.preorders?.[0];
  if (!last) throw new Error(`Order ${order.id} waits for no title on pre-order.`);
  return toBuyer(order, `A new release date for your pre-order ${number}`, `order-preorder-date-${order.id}-${last.releaseDate}`, [
    `${last.title} now comes out on ${formatLongDate(last.releaseDate)}, and your order ${number} ships that week.`,
    ...shipsWithLines(order).slice(1),
    '',
    "You don't need to do anything. If the new date doesn't suit you, you can cancel your pre-order for a full refund on your order's page until it is packed.",
    statusLine(order, siteOrigin),
    questions,
  ]);
}

/** To the publisher (NOTIFY_EMAIL_TO) when an order is paid. */
export function newOrderNotice(order: OrderWithItems, to: string, siteOrigin: string): EmailMessage {
  const number = order.number;
  return {
    to,
    subject: `New order ${number}: ${formatPrice(order.total)} AUD`,
    text: [
      // A gift is from the buyer to the recipient (the delivery name); any other order is the buyer's own.
      `A new paid order ${number} from ${order.buyerName ? `${order.buyerName} <${order.customerEmail}>` : `<${order.customerEmail}>`}${order.gift ? ` to ${order.customerName} (a gift)` : ''}.`,
      '',
      ...itemLines(order),
      ...discountLines(order),
      `Delivery: ${order.shippingMethod.name ?? 'standard'} (${formatPrice(order.shippingAmount)})`,
      `Total: ${formatPrice(order.total)} AUD`,
      '',
      `Open it in the back office: ${siteOrigin}/admin#order/${order.id}`,
    ].join('\n'),
    idempotencyKey: `order-notice-${order.id}`,
  };
}

/** To the publisher when one cart was paid twice: the second payment was refunded in full, the first order stands. */
export function duplicatePaymentNotice(order: OrderWithItems, to: string, siteOrigin: string): EmailMessage {
  const number = order.number;
  const kept = order.duplicateOfNumber ?? 'the first order';
  return {
    to,
    subject: `Second payment refunded: order ${number} (${formatPrice(order.total)} AUD)`,
    text: [
      `${order.customerName} <${order.customerEmail}> paid twice for one cart, on two payment pages open at once.`,
      `Order ${kept} stands and is to be packed as usual. The second, ${number}, was cancelled and its ${formatPrice(order.total)} AUD refunded in full${order.refundedAt ? '' : ' (the refund is still being tried: check the order)'}; its copies were never taken from stock.`,
      '',
      ...itemLines(order),
      '',
      `The refunded order: ${siteOrigin}/admin#order/${order.id}`,
      ...(order.duplicateOf ? [`The order that stands: ${siteOrigin}/admin#order/${order.duplicateOf}`] : []),
    ].join('\n'),
    idempotencyKey: `order-notice-${order.id}`,
  };
}

/** One title a sale took below its low-stock level. */
export interface LowStockAlert {
  id: number;
  productId: string;
  title: string;
  level: number;
  stock: number;
}

/** To the publisher, once per crossing: the sale of this order took these titles below their low-stock level. */
export function lowStockNotice(orderNumber: string, alerts: readonly LowStockAlert[], to: string, siteOrigin: string): EmailMessage {
  const titles = alerts.map((a) => a.title).join(', ');
  return {
    to,
    subject: `Low stock: ${titles}`,
    text: [
      `Order ${orderNumber} took ${alerts.length === 1 ? 'a title' : 'titles'} below ${alerts.length === 1 ? 'its' : 'their'} low-stock level:`,
      '',
      ...alerts.map((a) => `${a.title}: ${a.stock} left (low-stock level ${a.level})`),
      '',
      `Add a delivery in the back office: ${siteOrigin}/admin#stock`,
      "You'll hear again only after the stock has been back at or above the level.",
    ].join('\n'),
    idempotencyKey: `low-stock-${alerts.map((a) => a.id).join('-')}`,
  };
}
